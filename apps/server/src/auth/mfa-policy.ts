import type { MfaPolicy } from '@vrtc/contract';
import type { Db, Tx } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Role } from '../platform/database/schema.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Caller } from '../platform/http/caller.ts';

/**
 * Who must have a second factor (decision 031): a platform admin when the platform's setting says
 * so, anyone else when their organisation's `mfa_required` does. Read from the organisations'
 * table and the platform's settings row: auth imports no domain.
 */
export async function mfaRequiredFor(
  db: Db | Tx,
  account: { role: Role; organization_id: string },
): Promise<boolean> {
  if (account.role === 'admin') return (await getMfaPolicy(db)).admins_required;
  const row = await db
    .selectFrom('organizations')
    .select('mfa_required')
    .where('id', '=', account.organization_id)
    .executeTakeFirst();
  return row?.mfa_required ?? false;
}

export async function getMfaPolicy(db: Db | Tx): Promise<MfaPolicy> {
  const row = await db
    .selectFrom('platform_settings')
    .select('mfa_required_for_admins')
    .executeTakeFirst();
  return { admins_required: row?.mfa_required_for_admins ?? false };
}

/** A platform admin sets whether platform admins must have a second factor (audited). */
export async function putMfaPolicy(
  ctx: ServiceContext,
  caller: Caller,
  body: MfaPolicy,
): Promise<MfaPolicy> {
  return ctx.db.transaction().execute(async (trx) => {
    const before = await getMfaPolicy(trx);
    await trx
      .updateTable('platform_settings')
      .set({ mfa_required_for_admins: body.admins_required })
      .execute();
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'mfa.policy_updated',
      organizationId: null,
      target: { type: 'account', id: null, label: 'platform admins' },
      changes: { admins_required: [before.admins_required, body.admins_required] },
    });
    return { admins_required: body.admins_required };
  });
}
