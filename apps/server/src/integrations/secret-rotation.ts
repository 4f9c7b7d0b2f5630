import {
  SECRET_ROTATION_OVERLAP_HOURS,
  type Integration,
  type IntegrationWithSecret,
} from '@vrtc/contract';
import type { Caller } from '../platform/http/caller.ts';
import { recordAudit } from '../audit/audit.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { notFound } from '../platform/service/errors.ts';
import { isoOrNull } from '../platform/service/serialize.ts';
import { owned, toIntegration } from './integrations.service.ts';
import { sealSecret } from './secret-box.ts';
import { newSigningSecret } from './signing.ts';

/**
 * A webhook's signing secret over its life: rotated (the previous one still signs for 24 hours,
 * so receivers can switch without missing an event) and, when the previous one must stop at once
 * (it leaked), revoked.
 */

const HOUR_MS = 3600 * 1000;

/** A new webhook secret; the one it replaces still signs for 24 hours. */
export async function rotateSecret(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
): Promise<IntegrationWithSecret> {
  const now = ctx.clock.now();
  const secret = newSigningSecret();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const before = await owned(trx, caller, id);
    if (before.kind !== 'webhook') throw notFound('Webhook');
    const after = await trx
      .updateTable('integrations')
      .set({
        secret: sealSecret(ctx.config, secret),
        previous_secret: before.secret,
        previous_secret_expires_at: new Date(
          now.getTime() + SECRET_ROTATION_OVERLAP_HOURS * HOUR_MS,
        ),
        updated_at: now,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'integration.secret_rotated',
      organizationId: before.organization_id,
      target: { type: 'integration', id, label: before.url },
      changes: { secret: [before.secret, secret] },
    });
    return after;
  });
  return { integration: toIntegration(row), secret };
}

/**
 * Ends the previous secret's overlap now: from the next send on, only the current secret signs.
 * Audited as a change of the integration (what the previous secret was stays redacted).
 */
export async function revokePreviousSecret(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
): Promise<Integration> {
  const now = ctx.clock.now();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const before = await owned(trx, caller, id);
    if (before.kind !== 'webhook') throw notFound('Webhook');
    const after = await trx
      .updateTable('integrations')
      .set({ previous_secret: null, previous_secret_expires_at: null, updated_at: now })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'integration.updated',
      organizationId: before.organization_id,
      target: { type: 'integration', id, label: before.url },
      changes: {
        previous_secret: [before.previous_secret, null],
        previous_secret_expires_at: [isoOrNull(before.previous_secret_expires_at), null],
      },
    });
    return after;
  });
  return toIntegration(row);
}
