import type { Caller } from '../platform/http/caller.ts';
import type { ServiceContext } from '../platform/service/context.ts';

/**
 * A re-authentication at the organisation's identity provider (GET /v1/auth/sso/reauth) stands in
 * for a password where a signature asks for one: the console session holds it for five minutes
 * and the first signature takes it (docs/sso.md). Taking it is one statement, so two signatures
 * racing cannot both use it.
 */
export async function takeFreshAuthentication(ctx: ServiceContext, caller: Caller) {
  const taken = await ctx.db
    .updateTable('auth_tokens')
    .set({ sso_fresh_until: null })
    .where('id', '=', caller.tokenId)
    .where('account_id', '=', caller.accountId)
    .where('sso_fresh_until', '>', ctx.clock.now())
    .returning('id')
    .executeTakeFirst();
  return taken !== undefined;
}
