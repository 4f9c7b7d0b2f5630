import type {
  VR_USER_SORT_FIELDS,
  VrUser,
  VrUserBody,
  VrUserList,
  VrUserListQuery,
  VrUserSessionList,
  VrUserSessionsQuery,
} from '@vrtc/contract';
import { sql, type RawBuilder } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { checkQuota } from '../platform/service/quota.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import { createdChanges, deletedChanges, recordAudit, updateAudited } from '../audit/audit.ts';
import {
  containsPattern,
  countRows,
  hasSearch,
  inListOrder,
  orderBySql,
  pageOf,
  pageRead,
} from '../platform/database/paging.ts';
import { iso, isoOrNull, textOrNull } from '../platform/service/serialize.ts';

type VrUserSortField = (typeof VR_USER_SORT_FIELDS)[number];

interface VrUserRow {
  id: string;
  name: string;
  notes: string | null;
  external_id: string | null;
  created_at: Date;
  session_count: number;
  completed_count: number;
  last_session_at: Date | null;
}

function toVrUser(row: VrUserRow): VrUser {
  return {
    id: row.id,
    name: row.name,
    notes: row.notes,
    external_id: row.external_id,
    session_count: row.session_count,
    completed_count: row.completed_count,
    last_session_at: isoOrNull(row.last_session_at),
    created_at: iso(row.created_at),
  };
}

/** Session figures are counters the sessions trigger keeps (migration 0004): no join, no scan. */
const VR_USER_COLUMNS = [
  'v.id',
  'v.name',
  'v.notes',
  'v.external_id',
  'v.created_at',
  'v.session_count',
  'v.completed_count',
  'v.last_session_at',
] as const;

const SORT_COLUMNS: Record<VrUserSortField, RawBuilder<unknown>> = {
  name: sql`lower(v.name)`,
  session_count: sql`v.session_count`,
  completed_count: sql`v.completed_count`,
  last_session_at: sql`v.last_session_at`,
  created_at: sql`v.created_at`,
};

/** A page of the organisation's VR users: cost follows the organisation, never the database. */
export async function listVrUsers(
  ctx: ServiceContext,
  caller: Caller,
  query: VrUserListQuery,
): Promise<VrUserList> {
  const page = pageOf(query);
  let base = ctx.db
    .selectFrom('vr_users as v')
    .where('v.organization_id', '=', caller.organizationId);
  if (hasSearch(query.q)) {
    const pattern = containsPattern(query.q);
    base = base.where((eb) =>
      eb.or([
        eb('v.name', 'ilike', pattern),
        eb('v.notes', 'ilike', pattern),
        eb('v.external_id', 'ilike', pattern),
      ]),
    );
  }
  // The count first, so a page past the middle is read from the far end (pageRead); the page's
  // ids come from the (organization_id, lower(name), id) index alone when sorted by name, and only
  // its rows are read in full.
  const total = await countRows(base);
  if (page.offset >= total) return { vr_users: [], total, ...page };
  const read = pageRead(page, total);
  const order = orderBySql(query, SORT_COLUMNS, 'name', [sql`v.id`], read.reversed);
  const rows = await ctx.db
    .selectFrom('vr_users as v')
    .select(VR_USER_COLUMNS)
    .where('v.id', 'in', base.select('v.id').orderBy(order).limit(read.limit).offset(read.offset))
    .orderBy(order)
    .execute();
  return { vr_users: inListOrder(rows, read).map(toVrUser), total, ...page };
}

export async function getVrUser(db: Db | Tx, caller: Caller, id: string): Promise<VrUser> {
  const row = await db
    .selectFrom('vr_users as v')
    .select(VR_USER_COLUMNS)
    .where('v.organization_id', '=', caller.organizationId)
    .where('v.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('VR user');
  return toVrUser(row);
}

/** A unique violation on vr_users_external_id, answered as the code the console words. */
async function externalIdChecked<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('external_id_taken', 'Another VR user already has this external id');
    }
    throw error;
  }
}

export async function createVrUser(ctx: ServiceContext, caller: Caller, body: VrUserBody) {
  const row = await externalIdChecked(
    ctx.db.transaction().execute(async (trx) => {
      await checkQuota(trx, caller.organizationId, 'vr_users', ctx.config.quotas.vrUsers);
      const values = {
        name: body.name.trim(),
        notes: textOrNull(body.notes),
        external_id: textOrNull(body.external_id),
      };
      const created = await trx
        .insertInto('vr_users')
        .values({ ...values, organization_id: caller.organizationId, created_at: ctx.clock.now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        by: caller,
        at: ctx.clock.now(),
        action: 'vr_user.created',
        target: { type: 'vr_user', id: created.id, label: values.name },
        changes: createdChanges(values),
      });
      return created;
    }),
  );
  return getVrUser(ctx.db, caller, row.id);
}

export async function updateVrUser(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  body: VrUserBody,
) {
  const name = body.name.trim();
  const updated = await externalIdChecked(
    updateAudited<VrUserRow>(ctx.db, {
      table: 'vr_users',
      id,
      organizationId: caller.organizationId,
      set: {
        name,
        notes: body.notes !== undefined ? textOrNull(body.notes) : undefined,
        external_id: body.external_id !== undefined ? textOrNull(body.external_id) : undefined,
      },
      record: {
        by: caller,
        at: ctx.clock.now(),
        action: 'vr_user.updated',
        target: { type: 'vr_user', id, label: name },
      },
      // The answer from the same statement: no read after it.
      returning: VR_USER_COLUMNS.map((column) => column.slice('v.'.length)),
    }),
  );
  if (!updated) throw notFound('VR user');
  return toVrUser(updated);
}

export function hasSessionsMessage(name: string, count: number): string {
  return `Cannot delete ${name} - they have ${count} session(s). VR users with session history cannot be deleted.`;
}

export async function deleteVrUser(ctx: ServiceContext, caller: Caller, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    // Locking the row makes a session started meanwhile wait for this decision.
    const vrUser = await trx
      .selectFrom('vr_users')
      .select(['id', 'name', 'notes'])
      .where('id', '=', id)
      .where('organization_id', '=', caller.organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!vrUser) throw notFound('VR user');
    const { count } = await trx
      .selectFrom('sessions')
      .select(sql<number>`count(*)::int`.as('count'))
      .where('vr_user_id', '=', id)
      .executeTakeFirstOrThrow();
    if (count > 0)
      throw new AppError('vr_user_has_sessions', hasSessionsMessage(vrUser.name, count), {
        details: { name: vrUser.name, count },
      });
    await trx.deleteFrom('vr_users').where('id', '=', id).execute();
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'vr_user.deleted',
      target: { type: 'vr_user', id, label: vrUser.name },
      changes: deletedChanges({ name: vrUser.name, notes: vrUser.notes }),
    });
  });
}

export async function listVrUserSessions(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  query: VrUserSessionsQuery,
): Promise<VrUserSessionList> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const vrUser = await ctx.db
    .selectFrom('vr_users')
    .select('id')
    .where('id', '=', id)
    .where('organization_id', '=', caller.organizationId)
    .executeTakeFirst();
  if (!vrUser) throw notFound('VR user');
  const base = ctx.db
    .selectFrom('sessions')
    .where('vr_user_id', '=', id)
    .where('organization_id', '=', caller.organizationId);
  const [rows, total] = await Promise.all([
    base
      .select([
        'id',
        'device_id',
        'device_name',
        'scenario_name',
        'module_name',
        'level_name',
        'scenario_name_en',
        'module_name_en',
        'level_name_en',
        'level_number',
        'level_revision',
        'status',
        'completed_tasks',
        'max_tasks',
        'duration_seconds',
        'started_at',
        'ended_at',
        'success',
        'started_by_email',
        'late_result',
        'ended_by_server_as',
      ])
      .orderBy('started_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow(),
  ]);
  return {
    sessions: rows.map((row) => ({
      ...row,
      started_at: iso(row.started_at),
      ended_at: isoOrNull(row.ended_at),
    })),
    total: total.count,
    limit,
    offset,
  };
}
