import type { ScimTokenBody, ScimTokenIssued, ScimTokenState } from '@vrtc/contract';
import type { Caller } from '../platform/http/caller.ts';
import { hashToken, newToken } from '../auth/tokens.ts';
import { recordAudit, type AuditSource } from '../audit/audit.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { notFound } from '../platform/service/errors.ts';
import { iso } from '../platform/service/serialize.ts';

/**
 * An organisation's SCIM token (docs/sso.md): issued by a platform admin, shown once, kept as its
 * SHA-256 only (auth/tokens.ts). One per organisation: issuing again replaces it (rotation), so
 * the directory's old token stops at once.
 */

export const DEFAULT_SCIM_TOKEN_NAME = 'SCIM';

/** What the directory's admin enters as the tenant URL: from PUBLIC_URL, like the SSO callback. */
export const scimBaseUrl = (ctx: ServiceContext) =>
  `${(ctx.config.publicUrl ?? `http://${ctx.config.host}:${ctx.config.port}`).replace(/\/$/, '')}/scim/v2`;

/** The directory behind a SCIM request: its token, and the one organisation it provisions. */
export interface ScimClient {
  tokenId: string;
  name: string;
  organizationId: string;
}

/** The audit log's actor of a change a directory made: its token, by name. */
export const scimSource = (client: ScimClient, request?: AuditSource['request']): AuditSource => ({
  actor: { type: 'scim_token', id: client.tokenId, email: client.name, role: null },
  organizationId: client.organizationId,
  request,
});

async function assertOrganization(db: Db | Tx, id: string) {
  const organization = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!organization) throw notFound('Organization');
}

export async function getScimToken(
  ctx: ServiceContext,
  organizationId: string,
): Promise<ScimTokenState> {
  await assertOrganization(ctx.db, organizationId);
  const row = await ctx.db
    .selectFrom('scim_tokens')
    .select(['name', 'created_at', 'last_used_at'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return {
    exists: row !== undefined,
    name: row?.name ?? null,
    created_at: row ? iso(row.created_at) : null,
    last_used_at: row?.last_used_at ? iso(row.last_used_at) : null,
    base_url: scimBaseUrl(ctx),
  };
}

/** Issues the organisation's token, replacing any before; the answer is the only copy. */
export async function issueScimToken(
  ctx: ServiceContext,
  caller: Caller,
  organizationId: string,
  body: ScimTokenBody,
): Promise<ScimTokenIssued> {
  await assertOrganization(ctx.db, organizationId);
  const name = body.name?.trim() || DEFAULT_SCIM_TOKEN_NAME;
  const { token, hash } = newToken();
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const replaced = await trx
      .deleteFrom('scim_tokens')
      .where('organization_id', '=', organizationId)
      .returning(['name'])
      .executeTakeFirst();
    const created = await trx
      .insertInto('scim_tokens')
      .values({ organization_id: organizationId, name, token_hash: hash, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'sso.scim_token_issued',
      organizationId,
      target: { type: 'scim_token', id: created.id, label: name },
      changes: { name: [replaced?.name ?? null, name], token: [null, hash] },
    });
  });
  return { token, name, created_at: iso(now), base_url: scimBaseUrl(ctx) };
}

export async function revokeScimToken(ctx: ServiceContext, caller: Caller, organizationId: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const revoked = await trx
      .deleteFrom('scim_tokens')
      .where('organization_id', '=', organizationId)
      .returning(['id', 'name', 'token_hash'])
      .executeTakeFirst();
    if (!revoked) throw notFound('SCIM token');
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'sso.scim_token_revoked',
      organizationId,
      target: { type: 'scim_token', id: revoked.id, label: revoked.name },
      changes: { name: [revoked.name, null], token: [revoked.token_hash, null] },
    });
  });
}

/** The directory a bearer token speaks for, or undefined; notes when the token was last used. */
export async function resolveScimToken(
  ctx: ServiceContext,
  token: string,
): Promise<ScimClient | undefined> {
  const row = await ctx.db
    .updateTable('scim_tokens')
    .set({ last_used_at: ctx.clock.now() })
    .where('token_hash', '=', hashToken(token))
    .returning(['id', 'name', 'organization_id'])
    .executeTakeFirst();
  return row ? { tokenId: row.id, name: row.name, organizationId: row.organization_id } : undefined;
}
