import type { AccountSettings, AccountSettingsBody } from '@vrtc/contract';
import { changedFields, recordAudit } from '../audit/audit.ts';
import type { Caller } from '../platform/http/caller.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { notFound } from '../platform/service/errors.ts';

/**
 * The signed-in account's own settings (GET/PUT /v1/me/settings): the daily qualifications
 * digest (qualifications/digest.ts) and the language of its mails. `mail_configured` tells the
 * console whether the server sends mail at all, so it can say so beside the switch.
 */

async function settingsRow(db: Db | Tx, accountId: string) {
  const row = await db
    .selectFrom('accounts')
    .select(['email', 'organization_id', 'qualification_digest', 'language'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw notFound('Account');
  return row;
}

const answer = (
  ctx: ServiceContext,
  row: { qualification_digest: boolean; language: 'ru' | 'en' | null },
): AccountSettings => ({
  qualification_digest: row.qualification_digest,
  language: row.language,
  mail_configured: ctx.config.smtpUrl !== undefined,
});

export async function getOwnSettings(ctx: ServiceContext, caller: Caller) {
  return answer(ctx, await settingsRow(ctx.db, caller.accountId));
}

export async function putOwnSettings(
  ctx: ServiceContext,
  caller: Caller,
  body: AccountSettingsBody,
): Promise<AccountSettings> {
  return ctx.db.transaction().execute(async (trx) => {
    const current = await settingsRow(trx, caller.accountId);
    const changes = {
      ...(body.qualification_digest !== undefined
        ? { qualification_digest: body.qualification_digest }
        : {}),
      ...(body.language !== undefined ? { language: body.language } : {}),
    };
    if (Object.keys(changes).length > 0) {
      await trx.updateTable('accounts').set(changes).where('id', '=', caller.accountId).execute();
    }
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'account.updated',
      organizationId: current.organization_id,
      target: { type: 'account', id: caller.accountId, label: current.email },
      changes: changedFields(current, changes),
    });
    return answer(ctx, { ...current, ...changes });
  });
}
