import type {
  ACCOUNT_SORT_FIELDS,
  AccountList,
  Account,
  AccountCreateBody,
  AccountListQuery,
  AccountPasswordBody,
  AccountUpdateBody,
} from '@vrtc/contract';
import { sql, type RawBuilder } from 'kysely';
import { endSignIns } from '../auth/auth.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { refuseCommonPassword } from '../auth/common-passwords.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import {
  containsPattern,
  hasSearch,
  orderBySql,
  pageOf,
  totalColumn,
  totalOf,
} from '../platform/database/paging.ts';
import { iso } from '../platform/service/serialize.ts';
import { changedFields, deletedChanges, recordAudit, type AuditRecord } from '../audit/audit.ts';

interface AccountRow {
  id: string;
  email: string;
  role: Account['role'];
  organization_id: string;
  organization_name: string;
  active: boolean;
  mfa_enabled: boolean;
  created_at: Date;
}

const toAccount = (row: AccountRow): Account => ({ ...row, created_at: iso(row.created_at) });

const accountsWithOrganization = (db: Db | Tx) =>
  db.selectFrom('accounts as a').innerJoin('organizations as o', 'o.id', 'a.organization_id');

const ACCOUNT_COLUMNS = [
  'a.id',
  'a.email',
  'a.role',
  'a.organization_id',
  'o.name as organization_name',
  'a.active',
  'a.sso_exempt',
  // A confirmed authenticator app or a passkey: what a platform admin's reset would remove.
  sql<boolean>`(EXISTS (SELECT 1 FROM mfa_totp t WHERE t.account_id = a.id
    AND t.confirmed_at IS NOT NULL) OR EXISTS (SELECT 1 FROM mfa_passkeys p
    WHERE p.account_id = a.id))`.as('mfa_enabled'),
  'a.created_at',
] as const;

const selectAccounts = (db: Db | Tx) => accountsWithOrganization(db).select(ACCOUNT_COLUMNS);

const emailTaken = () => new AppError('email_taken', 'An account with this email already exists');

/** The unique index on lower(email) decides in the end, whatever the checks before it saw. */
async function uniqueEmail<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

async function assertEmailFree(db: Db | Tx, email: string, exceptId?: string) {
  let query = db
    .selectFrom('accounts')
    .select('id')
    .where(sql<boolean>`lower(email) = ${email.toLowerCase()}`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw emailTaken();
}

async function findOrganization(db: Db | Tx, id: string) {
  const organization = await db
    .selectFrom('organizations')
    .select(['id', 'active'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!organization) {
    throw new AppError('validation_error', 'body.organization_id does not match any organization');
  }
  return organization;
}

const SORT_COLUMNS: Record<(typeof ACCOUNT_SORT_FIELDS)[number], RawBuilder<unknown>> = {
  email: sql`lower(a.email)`,
  role: sql`a.role`,
  organization_name: sql`lower(o.name)`,
  active: sql`a.active`,
  created_at: sql`a.created_at`,
};

/** A page of accounts; filters combine, `q` is a literal substring of the email. */
export async function listAccounts(
  ctx: ServiceContext,
  query: AccountListQuery,
): Promise<AccountList> {
  const page = pageOf(query);
  let matching = accountsWithOrganization(ctx.db);
  if (query.organization_id) {
    matching = matching.where('a.organization_id', '=', query.organization_id);
  }
  if (query.role) matching = matching.where('a.role', '=', query.role);
  if (hasSearch(query.q)) matching = matching.where('a.email', 'ilike', containsPattern(query.q));
  const rows = await matching
    .select([...ACCOUNT_COLUMNS, totalColumn()])
    .orderBy(orderBySql(query, SORT_COLUMNS, 'email', [sql`a.id`]))
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await totalOf(rows, page, matching);
  return { users: rows.map(toAccount), total, ...page };
}

export async function getAccount(ctx: ServiceContext, id: string): Promise<Account> {
  const row = await selectAccounts(ctx.db).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('User');
  return toAccount(row);
}

export async function createAccount(
  ctx: ServiceContext,
  caller: Caller,
  body: AccountCreateBody,
): Promise<Account> {
  refuseCommonPassword(body.password);
  await findOrganization(ctx.db, body.organization_id);
  await assertEmailFree(ctx.db, body.email);
  const passwordHash = await hashPassword(body.password, ctx.config.passwordHashCost);
  const row = await uniqueEmail(() =>
    ctx.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('accounts')
        .values({
          email: body.email,
          password_hash: passwordHash,
          role: body.role,
          organization_id: body.organization_id,
          created_at: ctx.clock.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        by: caller,
        at: ctx.clock.now(),
        action: 'account.created',
        organizationId: body.organization_id,
        target: { type: 'account', id: created.id, label: body.email },
        changes: {
          email: [null, body.email],
          role: [null, body.role],
          organization_id: [null, body.organization_id],
          password: [null, passwordHash],
        },
      });
      return created;
    }),
  );
  return getAccount(ctx, row.id);
}

/**
 * Changes email, role, organisation or active. Deactivating, a new role and a move to another
 * organisation end the account's sign-ins at once (its tokens are removed, so reactivating does
 * not revive them, and a token never speaks for an identity other than the one that signed in;
 * open live streams close). An admin cannot deactivate or demote their own account, nor move it
 * into an inactive organisation: each would lock them out.
 */
export async function updateAccount(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  body: AccountUpdateBody,
): Promise<Account> {
  const self = id === caller.accountId;
  if (self && body.active === false) {
    throw new AppError('cannot_modify_self', 'You cannot deactivate your own account.');
  }
  if (self && body.role !== undefined && body.role !== caller.role) {
    throw new AppError(
      'cannot_modify_self',
      'You cannot remove the admin role from your own account.',
    );
  }
  await uniqueEmail(() =>
    ctx.db.transaction().execute(async (trx) => {
      const current = await trx
        .selectFrom('accounts')
        .select(['id', 'email', 'active', 'role', 'organization_id', 'sso_exempt'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!current) throw notFound('User');
      if (body.organization_id !== undefined && body.organization_id !== current.organization_id) {
        const organization = await findOrganization(trx, body.organization_id);
        if (self && !organization.active) {
          throw new AppError(
            'cannot_modify_self',
            'You cannot move your own account into an inactive organization.',
          );
        }
      }
      if (body.email !== undefined) await assertEmailFree(trx, body.email, id);
      const changes = {
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.role !== undefined ? { role: body.role } : {}),
        ...(body.organization_id !== undefined ? { organization_id: body.organization_id } : {}),
        ...(body.active !== undefined ? { active: body.active } : {}),
        ...(body.sso_exempt !== undefined ? { sso_exempt: body.sso_exempt } : {}),
      };
      await applyAccountChange(trx, { by: caller, at: ctx.clock.now(), current, changes });
    }),
  );
  return getAccount(ctx, id);
}

/** An account as a change finds it (locked FOR UPDATE in the change's transaction). */
export interface AccountBefore {
  id: string;
  email: string;
  active: boolean;
  role: Account['role'];
  organization_id: string;
  [field: string]: unknown;
}

/** What a change may set: the admin's fields, and what a directory tells by SCIM. */
export type AccountChanges = Partial<{
  email: string;
  role: Account['role'];
  organization_id: string;
  active: boolean;
  sso_exempt: boolean;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  display_name: string | null;
}>;

/**
 * Writes a change of an account, in `trx`, the one way every writer does (a platform admin, the
 * organisation's directory by SCIM): the row, then, when it was deactivated or its role or
 * organisation changed, the end of its sign-ins (tokens removed, so reactivating does not revive
 * them; the access-change trigger closes its live streams on every process), then its audit event.
 */
export async function applyAccountChange(
  trx: Tx,
  change: { by: AuditRecord['by']; at: Date; current: AccountBefore; changes: AccountChanges },
): Promise<void> {
  const { current, changes } = change;
  if (Object.keys(changes).length > 0) {
    await trx.updateTable('accounts').set(changes).where('id', '=', current.id).execute();
  }
  const identityChanged =
    (changes.role !== undefined && changes.role !== current.role) ||
    (changes.organization_id !== undefined && changes.organization_id !== current.organization_id);
  if ((current.active && changes.active === false) || identityChanged) {
    await endSignIns(trx, current.id);
  }
  await recordAudit(trx, {
    by: change.by,
    at: change.at,
    action: 'account.updated',
    // The organisation it belongs to now; a move is told in changes.
    organizationId: changes.organization_id ?? current.organization_id,
    target: { type: 'account', id: current.id, label: changes.email ?? current.email },
    changes: changedFields(current, changes),
  });
}

/** Removes the account and its tokens; sessions it started keep started_by_email. */
export async function deleteAccount(ctx: ServiceContext, caller: Caller, id: string) {
  if (id === caller.accountId) {
    throw new AppError('cannot_delete_self', 'You cannot delete your own account.');
  }
  await ctx.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('accounts')
      .where('id', '=', id)
      .returning(['email', 'role', 'organization_id', 'active'])
      .executeTakeFirst();
    if (!deleted) throw notFound('User');
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'account.deleted',
      organizationId: deleted.organization_id,
      target: { type: 'account', id, label: deleted.email },
      changes: deletedChanges(deleted),
    });
  });
}

/**
 * Sets a new password and signs the account out everywhere else: all its tokens are revoked but
 * the caller's current one when admins change their own password.
 */
export async function changePassword(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  body: AccountPasswordBody,
) {
  const exists = await ctx.db
    .selectFrom('accounts')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!exists) throw notFound('User');
  refuseCommonPassword(body.new_password);
  const passwordHash = await hashPassword(body.new_password, ctx.config.passwordHashCost);
  await ctx.db.transaction().execute(async (trx) => {
    const account = await trx
      .updateTable('accounts')
      .set({ password_hash: passwordHash })
      .where('id', '=', id)
      .returning(['email', 'organization_id'])
      .executeTakeFirst();
    if (!account) throw notFound('User');
    await endSignIns(trx, id, { except: id === caller.accountId ? caller.tokenId : undefined });
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'account.password_set',
      organizationId: account.organization_id,
      target: { type: 'account', id, label: account.email },
      changes: { password: ['', passwordHash] },
    });
  });
}
