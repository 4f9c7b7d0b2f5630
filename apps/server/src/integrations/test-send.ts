import {
  INTEGRATION_TEST_MAX,
  INTEGRATION_TEST_WINDOW_SECONDS,
  type IntegrationTestResult,
} from '@vrtc/contract';
import type { Caller } from '../platform/http/caller.ts';
import { recordAudit } from '../audit/audit.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { takeAttempt } from '../platform/service/rate-limit.ts';
import { testRequestFor } from './delivery-request.ts';
import { owned } from './integrations.service.ts';
import { OutboundPolicy, send } from './outbound.ts';
import { openSecrets } from './secret-box.ts';

/**
 * Sends a test now and answers what came back: a signed integration.test event to a webhook, a
 * read of one statement from an LRS (which checks the credentials and writes nothing). Its status
 * and headers always; its body only from a public address. Rate limited per integration.
 */
export async function testIntegration(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
): Promise<IntegrationTestResult> {
  const integration = await ctx.db.transaction().execute((trx) => owned(trx, caller, id));
  const now = ctx.clock.now();
  // Each test makes the server call out at once: a handful a minute is plenty to check a receiver.
  await takeAttempt(ctx.db, now, [
    {
      key: `integration_test:${id}`,
      max: INTEGRATION_TEST_MAX,
      windowMs: INTEGRATION_TEST_WINDOW_SECONDS * 1000,
    },
  ]);
  const policy = new OutboundPolicy(ctx.config.outboundAllowPrivate);
  const answer = await send(policy, testRequestFor(openSecrets(ctx.config, integration), ctx));
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
    response_headers: answer.headers,
    // An internal page reached through OUTBOUND_ALLOW_PRIVATE is not the organisation's to read.
    response_body: answer.privateAddress ? null : answer.body,
    duration_ms: answer.durationMs,
    error: answer.error,
  };
}
