import type { Role } from '@vrtc/contract';
import type { Db } from '../platform/database/db.ts';

/**
 * Whether an account must sign in at its organisation's identity provider rather than by password
 * (docs/sso.md): its organisation enforces single sign-on and a platform admin has not marked it
 * exempt (break-glass). Platform admins always keep their password, so no provider can lock the
 * platform out. Read from the sso domain's table: auth imports no domain.
 */
export async function ssoRequired(
  db: Db,
  account: { id: string; role: Role; organization_id: string },
): Promise<boolean> {
  if (account.role === 'admin') return false;
  const row = await db
    .selectFrom('sso_configs')
    .innerJoin('accounts', 'accounts.organization_id', 'sso_configs.organization_id')
    .select('accounts.sso_exempt')
    .where('accounts.id', '=', account.id)
    .where('sso_configs.enforced', '=', true)
    .executeTakeFirst();
  return row !== undefined && !row.sso_exempt;
}
