import type { IntegrationTestResult } from '@vrtc/contract';
import type { Caller } from '../auth/caller.ts';
import { recordAudit } from '../audit/audit.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { testRequestFor } from './delivery-request.ts';
import { owned } from './integrations.service.ts';
import { OutboundPolicy, send } from './outbound.ts';

/**
 * Sends a test now and answers what came back: a signed integration.test event to a webhook, a
 * read of one statement from an LRS (which checks the credentials and writes nothing).
 */
export async function testIntegration(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
): Promise<IntegrationTestResult> {
  const integration = await ctx.db.transaction().execute((trx) => owned(trx, caller, id));
  const now = ctx.clock.now();
  const policy = new OutboundPolicy(ctx.config.outboundAllowPrivate);
  const answer = await send(policy, testRequestFor(integration, ctx));
  const ok = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
  await ctx.db.transaction().execute((trx) =>
    recordAudit(trx, {
      by: caller,
      at: now,
      // The test send happened whatever the receiver said: its answer is in the changes.
      action: 'integration.tested',
      organizationId: integration.organization_id,
      target: { type: 'integration', id, label: integration.url },
      changes: {
        status_code: [null, answer.statusCode],
        ...(answer.error ? { error: [null, answer.error] } : {}),
      },
    }),
  );
  return {
    ok,
    status_code: answer.statusCode,
    response_body: answer.body,
    duration_ms: answer.durationMs,
    error: answer.error,
  };
}
