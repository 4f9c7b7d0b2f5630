import {
  API_TOKENS_PER_ACCOUNT,
  type ApiToken,
  type ApiTokenList,
  type CreateApiTokenBody,
  type CreatedApiToken,
} from '@vrtc/contract';
import { recordAudit } from '../audit/audit.ts';
import type { Db } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import type { Caller } from '../platform/http/caller.ts';
import { newToken } from './tokens.ts';

/**
 * Personal API tokens (migration 0024, docs/api.md "API tokens"): named sign-ins of the caller's
 * own account for scripts, kept in auth_tokens beside the console's, so they authenticate, end and
 * close live streams exactly as a sign-in does. A token acts as its account: its role and
 * organisation as they are at each request (an auditor's token reads only).
 */

/** Stands for "until revoked" in expires_at, which a sign-in always has; answered as null. */
export const NO_END = new Date('9999-12-31T00:00:00.000Z');
/** last_used_at is written when older than this: a busy script costs one write a minute. */
export const LAST_USED_GRAIN_MS = 60_000;

const COLUMNS = ['id', 'name', 'created_at', 'last_used_at', 'expires_at'] as const;

interface TokenRow {
  id: string;
  name: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
}

const asApiToken = (row: TokenRow): ApiToken => ({
  id: row.id,
  name: row.name ?? '',
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
  expires_at: row.expires_at.getTime() >= NO_END.getTime() ? null : row.expires_at.toISOString(),
});

/** The caller's own tokens still valid, newest first (expired ones are not shown). */
export async function listApiTokens(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  caller: Caller,
): Promise<ApiTokenList> {
  const rows = await ctx.db
    .selectFrom('auth_tokens')
    .select(COLUMNS)
    .where('account_id', '=', caller.accountId)
    .where('name', 'is not', null)
    .where('expires_at', '>', ctx.clock.now())
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .execute();
  return { api_tokens: rows.map(asApiToken) };
}

/** Makes a token of the caller's own; its secret is in this answer only (the hash is kept). */
export async function createApiToken(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  caller: Caller,
  body: CreateApiTokenBody,
): Promise<CreatedApiToken> {
  const now = ctx.clock.now();
  const expiresAt = body.expires_at === undefined ? NO_END : new Date(body.expires_at);
  if (expiresAt.getTime() <= now.getTime()) {
    throw new AppError('validation_error', 'body.expires_at must be in the future');
  }
  const name = body.name.trim();
  const { token, hash } = newToken();
  const row = await ctx.db.transaction().execute(async (trx) => {
    // One at a time per account (its row locked), so the quota holds against parallel calls.
    await trx
      .selectFrom('accounts')
      .select('id')
      .where('id', '=', caller.accountId)
      .forUpdate()
      .execute();
    const { count } = await trx
      .selectFrom('auth_tokens')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('account_id', '=', caller.accountId)
      .where('name', 'is not', null)
      .where('expires_at', '>', now)
      .executeTakeFirstOrThrow();
    if (Number(count) >= API_TOKENS_PER_ACCOUNT) {
      throw new AppError(
        'quota_exceeded',
        `An account holds at most ${API_TOKENS_PER_ACCOUNT} API tokens: revoke one first`,
      );
    }
    const created = await trx
      .insertInto('auth_tokens')
      .values({
        account_id: caller.accountId,
        token_hash: hash,
        created_at: now,
        expires_at: expiresAt,
        name,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'api_token.created',
      target: { type: 'api_token', id: created.id, label: name },
      changes: {
        name: [null, name],
        expires_at: [null, body.expires_at === undefined ? null : expiresAt.toISOString()],
      },
    });
    return created;
  });
  return { ...asApiToken(row), token };
}

/** Revokes one of the caller's own tokens: 404 for any other (another account's, a sign-in). */
export async function revokeApiToken(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  caller: Caller,
  id: string,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const revoked = await trx
      .deleteFrom('auth_tokens')
      .where('id', '=', id)
      .where('account_id', '=', caller.accountId)
      .where('name', 'is not', null)
      .returning(['id', 'name'])
      .executeTakeFirst();
    if (!revoked) throw notFound('API token');
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'api_token.revoked',
      target: { type: 'api_token', id: revoked.id, label: revoked.name },
    });
  });
}

/**
 * Notes that an API token was used, when its last note is older than a minute (a sign-in of the
 * console has no name and is not noted).
 */
export async function noteApiTokenUse(db: Db, tokenId: string, now: Date): Promise<void> {
  await db
    .updateTable('auth_tokens')
    .set({ last_used_at: now })
    .where('id', '=', tokenId)
    .where('name', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', new Date(now.getTime() - LAST_USED_GRAIN_MS)),
      ]),
    )
    .execute();
}
