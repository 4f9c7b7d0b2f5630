import type { VrUser, VrUserBody, VrUserSessionList, VrUserSessionsQuery } from '@vrtc/contract';
import { sql } from 'kysely';
import type { Caller, ServiceContext } from '../platform/context.ts';
import type { Db, Tx } from '../platform/db.ts';
import { AppError, notFound } from '../platform/errors.ts';
import { checkQuota } from '../platform/quota.ts';
import { iso, isoOrNull, textOrNull } from '../platform/serialize.ts';

interface VrUserRow {
  id: string;
  name: string;
  notes: string | null;
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
    session_count: row.session_count,
    completed_count: row.completed_count,
    last_session_at: isoOrNull(row.last_session_at),
    created_at: iso(row.created_at),
  };
}

function selectVrUsers(db: Db | Tx, organizationId: string) {
  return db
    .selectFrom('vr_users as v')
    .leftJoin('sessions as s', 's.vr_user_id', 'v.id')
    .select([
      'v.id',
      'v.name',
      'v.notes',
      'v.created_at',
      sql<number>`count(s.id)::int`.as('session_count'),
      sql<number>`(count(s.id) FILTER (WHERE s.status = 'completed'))::int`.as('completed_count'),
      sql<Date | null>`max(s.started_at)`.as('last_session_at'),
    ])
    .where('v.organization_id', '=', organizationId)
    .groupBy('v.id');
}

export async function listVrUsers(ctx: ServiceContext, caller: Caller): Promise<VrUser[]> {
  const rows = await selectVrUsers(ctx.db, caller.organizationId)
    .orderBy(sql`lower(v.name)`)
    .orderBy('v.created_at')
    .execute();
  return rows.map(toVrUser);
}

async function getVrUser(db: Db | Tx, caller: Caller, id: string): Promise<VrUser> {
  const row = await selectVrUsers(db, caller.organizationId)
    .where('v.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('VR user');
  return toVrUser(row);
}

export async function createVrUser(ctx: ServiceContext, caller: Caller, body: VrUserBody) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    await checkQuota(trx, caller.organizationId, 'vr_users', ctx.config.quotas.vrUsers);
    return trx
      .insertInto('vr_users')
      .values({
        organization_id: caller.organizationId,
        name: body.name.trim(),
        notes: textOrNull(body.notes),
        created_at: ctx.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  });
  return getVrUser(ctx.db, caller, row.id);
}

export async function updateVrUser(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  body: VrUserBody,
) {
  const result = await ctx.db
    .updateTable('vr_users')
    .set({
      name: body.name.trim(),
      ...(body.notes !== undefined ? { notes: textOrNull(body.notes) } : {}),
    })
    .where('id', '=', id)
    .where('organization_id', '=', caller.organizationId)
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw notFound('VR user');
  return getVrUser(ctx.db, caller, id);
}

export function hasSessionsMessage(name: string, count: number): string {
  return `Cannot delete ${name} - they have ${count} session(s). VR users with session history cannot be deleted.`;
}

export async function deleteVrUser(ctx: ServiceContext, caller: Caller, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    // Locking the row makes a session started meanwhile wait for this decision.
    const vrUser = await trx
      .selectFrom('vr_users')
      .select(['id', 'name'])
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
      throw new AppError('vr_user_has_sessions', hasSessionsMessage(vrUser.name, count));
    await trx.deleteFrom('vr_users').where('id', '=', id).execute();
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
        'status',
        'completed_tasks',
        'max_tasks',
        'duration_seconds',
        'started_at',
        'ended_at',
        'success',
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
