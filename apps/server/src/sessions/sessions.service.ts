import {
  type ActiveSessionList,
  type HistorySession,
  type SessionDetail,
  type StartedSession,
  type StartSessionBody,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import type { Tx } from '../platform/database/db.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import { checkQuota } from '../platform/service/quota.ts';
import type { Session } from '../platform/database/schema.ts';
import { iso, isoOrNull } from '../platform/service/serialize.ts';
import { endActiveSession, recordSessionEnd, sessionLabels } from './session-end.ts';
import { createdChanges, recordAudit, type AuditRecord } from '../audit/audit.ts';
import { recordOutbox } from '../outbox/outbox.ts';
import { sessionStartedData } from './session-outbox-data.ts';
import { publishSession } from './session-events.ts';
import { tasksOf } from './tasks.ts';
import type { WithLive } from '../events/live-events.ts';
import type { WithDeviceChanges } from '../devices/device-changes.ts';

/** What the sessions services are handed beside the infrastructure. */
export type SessionsContext = ServiceContext & WithLive & WithDeviceChanges;

export const DEVICE_BUSY_MESSAGE = 'Device already has an active session';
export const DEVICE_OFFLINE_MESSAGE = 'Device is offline';
export const SESSION_NOT_ACTIVE_MESSAGE = 'Session is no longer active';

export function toHistorySession(row: Session): HistorySession {
  return {
    id: row.id,
    vr_user_name: row.vr_user_name,
    device_name: row.device_name,
    scenario_name: row.scenario_name,
    module_name: row.module_name,
    level_name: row.level_name,
    scenario_name_en: row.scenario_name_en,
    module_name_en: row.module_name_en,
    level_name_en: row.level_name_en,
    status: row.status,
    completed_tasks: row.completed_tasks,
    total_tasks: row.max_tasks,
    duration_seconds: row.duration_seconds,
    started_by_email: row.started_by_email,
    started_at: iso(row.started_at),
    ended_at: isoOrNull(row.ended_at),
    success: row.success,
    device_id: row.device_id,
    vr_user_id: row.vr_user_id,
    level_number: row.level_number,
    level_revision: row.level_revision,
    selected_options: row.selected_options,
    late_result: row.late_result,
    ended_by_server_as: row.ended_by_server_as,
  };
}

/**
 * Who starts a session: a signed-in account from the console, or a headset claiming an LMS
 * launch (lms/, docs/lms.md), recorded as the actor with `started_by: lms_launch`.
 */
export interface Starter {
  organizationId: string;
  accountId: string | null;
  email: string | null;
  by: AuditRecord['by'];
  /** The device itself asks (a claim): it is online, whatever its last buffered sighting says. */
  deviceIsCaller?: boolean;
  /** How the start came, in its audit event's changes; absent for the console. */
  via?: 'lms_launch';
  /** Done in the start's transaction once the session is stored (an LMS launch claimed). */
  inTransaction?: (trx: Tx, session: Session) => Promise<void>;
}

const consoleStarter = (caller: Caller): Starter => ({
  organizationId: caller.organizationId,
  accountId: caller.accountId,
  email: caller.email,
  by: caller,
});

/** A start from the console (POST /v1/sessions/start). */
export function startSession(
  ctx: SessionsContext,
  caller: Caller,
  body: StartSessionBody,
): Promise<StartedSession> {
  return startSessionAs(ctx, consoleStarter(caller), body);
}

/**
 * Starts a session on a waiting device, all in one transaction. The device row is locked first,
 * so concurrent starts (and a concurrent delete) on one device run one after the other; the
 * partial unique index sessions_one_active_per_device is the backstop, answered as device_busy.
 */
export async function startSessionAs(
  ctx: SessionsContext,
  starter: Starter,
  body: StartSessionBody,
): Promise<StartedSession> {
  const now = ctx.clock.now();
  const org = starter.organizationId;
  try {
    const row = await ctx.db.transaction().execute(async (trx) => {
      const device = await lockStartableDevice(ctx, trx, starter, body.device_id, now);
      const level = await findGrantedLevel(trx, org, body.level_id, now);
      const options = await findOptions(trx, level.level_id, body.selected_options ?? []);
      const vrUser = await resolveVrUser(trx, org, body, now, ctx.config.quotas.vrUsers);
      const session = await trx
        .insertInto('sessions')
        .values({
          organization_id: org,
          device_id: device.id,
          vr_user_id: vrUser.id,
          scenario_id: level.scenario_id,
          module_id: level.module_id,
          level_id: level.level_id,
          started_by_account_id: starter.accountId,
          device_name: device.name,
          device_type: device.type,
          vr_user_name: vrUser.name,
          scenario_name: level.scenario_name,
          module_name: level.module_name,
          level_name: level.level_name,
          scenario_name_en: level.scenario_name_en,
          module_name_en: level.module_name_en,
          level_name_en: level.level_name_en,
          level_number: level.level_number,
          level_revision: level.level_revision,
          max_tasks: level.max_tasks,
          selected_options: JSON.stringify(options),
          started_by_email: starter.email,
          started_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      // The device's next heartbeat delivers the session (other processes: from commit on).
      await ctx.deviceEvents.changed(trx, device.id);
      await recordStart(trx, starter, now, session, {
        createdVrUser: 'created' in vrUser ? vrUser : undefined,
        optionNames: options.map((option) => option.name),
      });
      await starter.inTransaction?.(trx, session);
      return session;
    });
    publishSession(ctx.live, 'started', row);
    return { ...toHistorySession(row), max_tasks: row.max_tasks };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('device_busy', DEVICE_BUSY_MESSAGE);
    throw error;
  }
}

/**
 * What a start records, in its transaction: the trainee when the start created them, the
 * session's start in the audit log, and session.started for integrations. The audit chain's head
 * is locked by the first event recorded and held until commit, so this comes after the session's
 * rollups, as in every other transaction that touches both: a trainee's creation recorded before
 * the insert deadlocked with concurrent starts and finishes of the organisation (they hold the
 * day's rollup row and wait for the head).
 */
async function recordStart(
  trx: Tx,
  starter: Starter,
  now: Date,
  session: Session,
  told: { createdVrUser?: { id: string; name: string }; optionNames: string[] },
) {
  const vrUser = told.createdVrUser;
  if (vrUser) {
    await recordAudit(trx, {
      by: starter.by,
      at: now,
      action: 'vr_user.created',
      target: { type: 'vr_user', id: vrUser.id, label: vrUser.name },
      changes: createdChanges({ name: vrUser.name, notes: null }),
    });
  }
  await recordAudit(trx, {
    by: starter.by,
    at: now,
    action: 'session.started',
    target: { type: 'session', id: session.id, ...sessionLabels(session) },
    changes: createdChanges({
      status: session.status,
      vr_user_id: session.vr_user_id,
      vr_user_name: session.vr_user_name,
      device_id: session.device_id,
      device_name: session.device_name,
      scenario_name: session.scenario_name,
      module_name: session.module_name,
      level_name: session.level_name,
      level_number: session.level_number,
      max_tasks: session.max_tasks,
      selected_options: told.optionNames,
      ...(starter.via ? { started_by: starter.via } : {}),
    }),
  });
  await recordOutbox(trx, {
    organizationId: session.organization_id,
    type: 'session.started',
    at: now,
    data: sessionStartedData(session),
  });
}

async function lockStartableDevice(
  ctx: SessionsContext,
  trx: Tx,
  starter: Starter,
  deviceId: string,
  now: Date,
) {
  const device = await trx
    .selectFrom('devices')
    .select(['id', 'name', 'type', 'last_seen_at'])
    .where('id', '=', deviceId)
    .where('organization_id', '=', starter.organizationId)
    .forUpdate()
    .executeTakeFirst();
  if (!device) throw notFound('Device');
  const active = await trx
    .selectFrom('sessions')
    .select('id')
    .where('device_id', '=', deviceId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (active) throw new AppError('device_busy', DEVICE_BUSY_MESSAGE);
  // The same rule as deviceStatusSql: waiting = seen within OFFLINE_AFTER_MS.
  const seenSince = now.getTime() - ctx.config.offlineAfterMs;
  const seen = starter.deviceIsCaller ? now : device.last_seen_at;
  if (!seen || seen.getTime() <= seenSince) {
    throw new AppError('device_not_waiting', DEVICE_OFFLINE_MESSAGE);
  }
  return device;
}

/** The level, if its scenario is active and the organisation holds a live grant for it. */
async function findGrantedLevel(trx: Tx, organizationId: string, levelId: string, now: Date) {
  const level = await trx
    .selectFrom('levels as l')
    .innerJoin('modules as m', 'm.id', 'l.module_id')
    .innerJoin('scenarios as s', 's.id', 'm.scenario_id')
    .innerJoin('scenario_access as a', (join) =>
      join.onRef('a.scenario_id', '=', 's.id').on('a.organization_id', '=', organizationId),
    )
    .select([
      'l.id as level_id',
      'l.name as level_name',
      'l.name_en as level_name_en',
      'l.level_number',
      'l.revision as level_revision',
      'l.max_tasks',
      'm.id as module_id',
      'm.name as module_name',
      'm.name_en as module_name_en',
      's.id as scenario_id',
      's.name as scenario_name',
      's.name_en as scenario_name_en',
    ])
    .where('l.id', '=', levelId)
    .where('s.active', '=', true)
    .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', now)]))
    .executeTakeFirst();
  if (!level) throw notFound('Level');
  return level;
}

/** The chosen options, in the level's order; any id not of this level is a 400 naming it. */
async function findOptions(trx: Tx, levelId: string, optionIds: string[]) {
  const ids = [...new Set(optionIds)];
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('level_options')
    .select(['id', 'name', 'name_en'])
    .where('level_id', '=', levelId)
    .where('id', 'in', ids)
    .orderBy('order_index')
    .orderBy('name')
    .orderBy('id')
    .execute();
  const known = new Set(rows.map((row) => row.id));
  const foreign = ids.find((id) => !known.has(id));
  if (foreign) {
    throw new AppError(
      'validation_error',
      `body.selected_options contains ${foreign}, which is not an option of this level`,
    );
  }
  return rows;
}

/**
 * The VR user by id (within the organisation), else the one whose name matches (trimmed,
 * case-insensitive), else a new one. A transaction-scoped advisory lock on the name keeps two
 * concurrent starts from creating the same person twice.
 */
async function resolveVrUser(
  trx: Tx,
  organizationId: string,
  body: StartSessionBody,
  now: Date,
  vrUserQuota: number,
) {
  if (body.vr_user_id) {
    const byId = await trx
      .selectFrom('vr_users')
      .select(['id', 'name'])
      .where('id', '=', body.vr_user_id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!byId) throw notFound('VR user');
    return byId;
  }
  const name = body.vr_user_name.trim();
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${organizationId}::text || ':' || lower(${name}::text), 0))`.execute(
    trx,
  );
  const existing = await trx
    .selectFrom('vr_users')
    .select(['id', 'name'])
    .where('organization_id', '=', organizationId)
    .where(sql<string>`lower(btrim(name))`, '=', sql<string>`lower(${name}::text)`)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  if (existing) return existing;
  await checkQuota(trx, organizationId, 'vr_users', vrUserQuota);
  const created = await trx
    .insertInto('vr_users')
    .values({ organization_id: organizationId, name, notes: null, created_at: now })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  return { ...created, created: true };
}

/**
 * The running sessions, each with its headset's last sighting, and the thresholds by which the
 * console tells a silent headset (offline) from one about to be disconnected.
 */
export async function listActiveSessions(
  ctx: SessionsContext,
  caller: Caller,
): Promise<ActiveSessionList> {
  const now = ctx.clock.now().getTime();
  const rows = await ctx.db
    .selectFrom('sessions as s')
    // The headset's row may be gone (deleted mid-session): the session still shows.
    .leftJoin('devices as d', 'd.id', 's.device_id')
    .select([
      's.id',
      's.vr_user_name',
      's.device_name',
      's.device_id',
      's.scenario_name',
      's.module_name',
      's.level_name',
      's.scenario_name_en',
      's.module_name_en',
      's.level_name_en',
      's.completed_tasks',
      's.max_tasks',
      's.selected_options',
      's.started_at',
      'd.last_seen_at',
    ])
    .where('s.organization_id', '=', caller.organizationId)
    .where('s.status', '=', 'active')
    .orderBy('s.started_at', 'desc')
    .orderBy('s.id')
    .execute();
  const tasks = await tasksOf(
    ctx.db,
    rows.map((row) => row.id),
  );
  const activeSessions = rows.map(({ last_seen_at, ...row }) => ({
    ...row,
    seconds_active: Math.max(0, Math.floor((now - row.started_at.getTime()) / 1000)),
    started_at: iso(row.started_at),
    tasks: tasks.get(row.id) ?? [],
    device_last_seen_at: isoOrNull(last_seen_at),
  }));
  return {
    active_sessions: activeSessions,
    offline_after_ms: ctx.config.offlineAfterMs,
    disconnect_after_ms: ctx.config.disconnectAfterMs,
  };
}

/** A session of the organisation, any status, with its task timeline. */
export async function getSession(
  ctx: SessionsContext,
  caller: Caller,
  id: string,
): Promise<SessionDetail> {
  const row = await ctx.db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', caller.organizationId)
    .executeTakeFirst();
  if (!row) throw notFound('Session');
  const tasks = await tasksOf(ctx.db, [id]);
  return { ...toHistorySession(row), max_tasks: row.max_tasks, tasks: tasks.get(id) ?? [] };
}

export async function cancelSession(
  ctx: SessionsContext,
  caller: Caller,
  id: string,
): Promise<HistorySession> {
  const now = ctx.clock.now();
  const ended = await ctx.db.transaction().execute(async (trx) => {
    const session = await endActiveSession(
      ctx.deviceEvents,
      trx,
      { sessionId: id, organizationId: caller.organizationId },
      { status: 'cancelled', now },
    );
    if (session) {
      await recordSessionEnd(trx, caller, now, 'session.cancelled', session);
    }
    return session;
  });
  if (ended) {
    publishSession(ctx.live, 'ended', ended);
    return toHistorySession(ended);
  }
  const exists = await ctx.db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', id)
    .where('organization_id', '=', caller.organizationId)
    .executeTakeFirst();
  if (!exists) throw notFound('Session');
  throw new AppError('session_not_active', SESSION_NOT_ACTIVE_MESSAGE);
}
