import crypto from 'node:crypto';
import { sql } from 'kysely';
import { applyAccountChange, type AccountChanges } from '../accounts/accounts.service.ts';
import { hashPassword } from '../auth/passwords.ts';
import { createdChanges, recordAudit } from '../audit/audit.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { iso } from '../platform/service/serialize.ts';
import { ScimError, userNotFound } from './scim-errors.ts';
import type { ScimFilter } from './scim-filter.ts';
import type { ScimUserChange, ScimUserFields } from './scim-input.ts';
import { scimBaseUrl, scimSource, type ScimClient } from './scim-tokens.ts';

/**
 * The organisation's staff as its directory sees them (RFC 7643 §4.1 User): the accounts of the
 * token's organisation only, never a platform admin's, which no directory touches (404, and 409
 * to a POST of its email). userName is the email; the role is never the directory's to set: a
 * new account gets the organisation's SSO default_role (client without SSO), and keeps whatever a
 * platform admin gives it later. A deactivation goes the way an admin's does
 * (accounts.applyAccountChange): its sign-ins end and its live streams close on every process;
 * history, signatures and audit events stay.
 */

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
/** The most users one list answers (ServiceProviderConfig's filter.maxResults). */
export const SCIM_MAX_RESULTS = 200;

const USER_COLUMNS = [
  'id',
  'email',
  'active',
  'role',
  'organization_id',
  'external_id',
  'given_name',
  'family_name',
  'display_name',
  'created_at',
] as const;

interface UserRow {
  id: string;
  email: string;
  active: boolean;
  role: string;
  organization_id: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  display_name: string | null;
  created_at: Date;
}

/** A caller of the SCIM API: the directory, and the request's facts for the audit log. */
export interface ScimCall {
  ctx: ServiceContext;
  client: ScimClient;
  request?: RequestFacts;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The organisation's accounts a directory may see: not a platform admin's. */
const usersOf = (db: Db | Tx, organizationId: string) =>
  db
    .selectFrom('accounts')
    .where('organization_id', '=', organizationId)
    .where('role', '!=', 'admin');

export function toScimUser(ctx: ServiceContext, row: UserRow) {
  const formatted = [row.given_name, row.family_name].filter(Boolean).join(' ');
  return {
    schemas: [SCIM_USER_SCHEMA],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.email,
    name: {
      ...(row.given_name !== null ? { givenName: row.given_name } : {}),
      ...(row.family_name !== null ? { familyName: row.family_name } : {}),
      ...(formatted ? { formatted } : {}),
    },
    displayName: row.display_name ?? (formatted || row.email),
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.active,
    meta: {
      resourceType: 'User',
      created: iso(row.created_at),
      location: `${scimBaseUrl(ctx)}/Users/${row.id}`,
    },
  };
}
export type ScimUser = ReturnType<typeof toScimUser>;

export async function listUsers(
  call: ScimCall,
  query: { filter?: ScimFilter; startIndex: number; count: number },
) {
  let matching = usersOf(call.ctx.db, call.client.organizationId);
  const { filter } = query;
  if (filter?.attribute === 'userName') {
    matching = matching.where(sql<boolean>`lower(email) = ${filter.value.toLowerCase()}`);
  } else if (filter?.attribute === 'externalId') {
    matching = matching.where('external_id', '=', filter.value);
  } else if (filter?.attribute === 'id') {
    if (!UUID.test(filter.value)) matching = matching.where(sql<boolean>`false`);
    else matching = matching.where('id', '=', filter.value);
  }
  const total = await matching
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows =
    query.count === 0
      ? []
      : await matching
          .select(USER_COLUMNS)
          .orderBy('created_at')
          .orderBy('id')
          .offset(query.startIndex - 1)
          .limit(query.count)
          .execute();
  return {
    schemas: [SCIM_LIST_SCHEMA],
    totalResults: Number(total.total),
    startIndex: query.startIndex,
    itemsPerPage: rows.length,
    Resources: rows.map((row) => toScimUser(call.ctx, row)),
  };
}

async function findUser(db: Db | Tx, client: ScimClient, id: string, lock = false) {
  if (!UUID.test(id)) throw userNotFound();
  let query = usersOf(db, client.organizationId).select(USER_COLUMNS).where('id', '=', id);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw userNotFound();
  return row;
}

export async function getUser(call: ScimCall, id: string): Promise<ScimUser> {
  return toScimUser(call.ctx, await findUser(call.ctx.db, call.client, id));
}

const userNameTaken = () =>
  new ScimError(409, 'An account with this userName already exists', 'uniqueness');

async function assertUserNameFree(db: Db | Tx, userName: string, exceptId?: string) {
  let query = db
    .selectFrom('accounts')
    .select('id')
    .where(sql<boolean>`lower(email) = ${userName.toLowerCase()}`);
  if (exceptId) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw userNameTaken();
}

/** The unique index on lower(email) decides in the end, whatever the check before it saw. */
async function uniqueUserName<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw userNameTaken();
    throw error;
  }
}

/** The role a new account gets: the organisation's SSO default_role, else client. */
async function defaultRole(db: Db | Tx, organizationId: string) {
  const config = await db
    .selectFrom('sso_configs')
    .select('default_role')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return (config?.default_role ?? 'client') as 'client' | 'auditor';
}

export async function createUser(call: ScimCall, fields: ScimUserFields): Promise<ScimUser> {
  const { ctx, client } = call;
  await assertUserNameFree(ctx.db, fields.userName);
  // A password no one knows: the account signs in at the organisation's identity provider.
  const passwordHash = await hashPassword(
    crypto.randomBytes(32).toString('base64url'),
    ctx.config.passwordHashCost,
  );
  const id = await uniqueUserName(() =>
    ctx.db.transaction().execute(async (trx) => {
      const role = await defaultRole(trx, client.organizationId);
      const values = {
        email: fields.userName,
        role,
        active: fields.active,
        external_id: fields.externalId,
        given_name: fields.givenName,
        family_name: fields.familyName,
        display_name: fields.displayName,
      };
      const created = await trx
        .insertInto('accounts')
        .values({
          ...values,
          password_hash: passwordHash,
          organization_id: client.organizationId,
          created_at: ctx.clock.now(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        by: scimSource(client, call.request),
        at: ctx.clock.now(),
        action: 'account.created',
        target: { type: 'account', id: created.id, label: fields.userName },
        changes: createdChanges({ ...values, organization_id: client.organizationId }),
      });
      return created.id;
    }),
  );
  return getUser(call, id);
}

const columnsOf = (change: ScimUserChange): AccountChanges => ({
  ...(change.userName !== undefined ? { email: change.userName } : {}),
  ...(change.externalId !== undefined ? { external_id: change.externalId } : {}),
  ...(change.givenName !== undefined ? { given_name: change.givenName } : {}),
  ...(change.familyName !== undefined ? { family_name: change.familyName } : {}),
  ...(change.displayName !== undefined ? { display_name: change.displayName } : {}),
  ...(change.active !== undefined ? { active: change.active } : {}),
});

/**
 * Changes the user (PUT's whole resource, PATCH's operations, DELETE's deactivation), in one
 * transaction with its audit event. An account that changes nothing writes no event.
 */
export async function changeUser(
  call: ScimCall,
  id: string,
  change: ScimUserChange,
): Promise<ScimUser> {
  const { ctx, client } = call;
  await uniqueUserName(() =>
    ctx.db.transaction().execute(async (trx) => {
      const current = await findUser(trx, client, id, true);
      const changes = Object.fromEntries(
        Object.entries(columnsOf(change)).filter(
          ([column, value]) => current[column as keyof UserRow] !== value,
        ),
      ) as AccountChanges;
      if (Object.keys(changes).length === 0) return;
      if (changes.email !== undefined) await assertUserNameFree(trx, changes.email, id);
      await applyAccountChange(trx, {
        by: scimSource(client, call.request),
        at: ctx.clock.now(),
        current,
        changes,
      });
    }),
  );
  return getUser(call, id);
}
