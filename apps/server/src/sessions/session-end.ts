import { sql, type RawBuilder } from 'kysely';
import type { DeviceChanges } from '../devices/device-changes.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { Session, SessionStatus } from '../platform/database/schema.ts';
import { changedFields, recordAudit, type AuditRecord } from '../audit/audit.ts';
import { recordOutbox } from '../outbox/outbox.ts';
import { sessionFinishedData } from './session-outbox-data.ts';

export type EndedStatus = Exclude<SessionStatus, 'active'>;

/**
 * A time a headset reported (its clock), as the server uses it: within [started_at, now], so a
 * headset's wrong clock can neither end a session before it began nor in the future. (SQL over
 * the session's row: started_at is the row's.)
 */
export function clampedToSession(reported: Date, now: Date): RawBuilder<Date> {
  return sql<Date>`least(greatest(${reported}::timestamptz, started_at), ${now}::timestamptz)`;
}

/**
 * The row as it was before the UPDATE that returns this: a subquery in RETURNING reads the
 * statement's snapshot, taken before the update (the audit log's [before, after] in one statement).
 */
const before = {
  status: sql<SessionStatus>`(SELECT b.status FROM sessions b WHERE b.id = sessions.id)`.as(
    'status_before',
  ),
  completed_tasks:
    sql<number>`(SELECT b.completed_tasks FROM sessions b WHERE b.id = sessions.id)`.as(
      'completed_tasks_before',
    ),
  success: sql<boolean | null>`(SELECT b.success FROM sessions b WHERE b.id = sessions.id)`.as(
    'success_before',
  ),
  ended_at: sql<Date | null>`(SELECT b.ended_at FROM sessions b WHERE b.id = sessions.id)`.as(
    'ended_at_before',
  ),
};
const BEFORE_COLUMNS = [before.status, before.completed_tasks, before.success, before.ended_at];

/** A session just ended, with what it was before (status, count, success, ended_at). */
export type EndedSession = Session & {
  status_before: SessionStatus;
  completed_tasks_before: number;
  success_before: boolean | null;
  ended_at_before: Date | null;
};

const durationUntil = (end: RawBuilder<Date>) =>
  sql<number>`greatest(0, floor(extract(epoch FROM (${end} - started_at))))::int`;

/** completed_tasks never goes down: the highest count any report told, within max_tasks. */
export const raisedTaskCount = (reported: number) =>
  sql<number>`greatest(completed_tasks, least(${reported}::int, max_tasks))`;

/**
 * Ends an active session: the one place that records ended_at, duration_seconds and success.
 * Only `completed` with success=true counts as a success; cancelled, disconnected and timeout never
 * do. `occurredAt` is when the headset says the run ended (clamped to [started_at, now]); ended_at
 * is `now` without it. Answers undefined when the session was not active (already ended, or not
 * matched), so the caller can answer 404 or 409 as fits. The device's cached view is invalidated
 * through `db` (inside the caller's transaction when it is one, so other processes hear it at
 * commit).
 */
export async function endActiveSession(
  deviceEvents: DeviceChanges,
  db: Db | Tx,
  match: { sessionId: string; organizationId?: string; deviceId?: string },
  outcome: {
    status: EndedStatus;
    now: Date;
    occurredAt?: Date;
    completedTasks?: number;
    success?: boolean;
  },
): Promise<EndedSession | undefined> {
  const endedAt = outcome.occurredAt
    ? clampedToSession(outcome.occurredAt, outcome.now)
    : sql<Date>`${outcome.now}::timestamptz`;
  let query = db
    .updateTable('sessions')
    .set({
      status: outcome.status,
      ended_at: endedAt,
      duration_seconds: durationUntil(endedAt),
      success: outcome.status === 'completed' ? (outcome.success ?? true) : false,
      ...(outcome.completedTasks !== undefined
        ? { completed_tasks: raisedTaskCount(outcome.completedTasks) }
        : {}),
      ...(outcome.occurredAt ? { finish_occurred_at: outcome.occurredAt } : {}),
    })
    .where('id', '=', match.sessionId)
    .where('status', '=', 'active');
  if (match.organizationId) query = query.where('organization_id', '=', match.organizationId);
  if (match.deviceId) query = query.where('device_id', '=', match.deviceId);
  const ended = await query.returningAll().returning(BEFORE_COLUMNS).executeTakeFirst();
  if (ended) await deviceEvents.changed(db, ended.device_id);
  return ended;
}

/**
 * A late result (docs/headset-protocol.md): the finish of a session the server had ended as
 * disconnected or timeout, from its own headset, within the late-result window (ended_at, the
 * moment the server ended it, at or after `windowStart`). The session becomes completed with the
 * headset's success and count, ended when the headset says (clamped; the server's ended_at when it
 * does not say), marked late with the ending it replaces. One UPDATE: the rollup triggers move
 * the session between their buckets exactly. Undefined when the session was not in that state.
 */
export async function completeLateResult(
  db: Db | Tx,
  match: { sessionId: string; deviceId: string },
  outcome: {
    now: Date;
    windowStart: Date;
    occurredAt?: Date;
    completedTasks: number;
    success: boolean;
  },
): Promise<EndedSession | undefined> {
  const endedAt = outcome.occurredAt
    ? clampedToSession(outcome.occurredAt, outcome.now)
    : sql<Date>`ended_at`;
  return db
    .updateTable('sessions')
    .set({
      status: 'completed',
      success: outcome.success,
      ended_at: endedAt,
      duration_seconds: durationUntil(endedAt),
      completed_tasks: raisedTaskCount(outcome.completedTasks),
      late_result: true,
      // The row's status before this update: the ending the server had decided.
      ended_by_server_as: sql<'disconnected' | 'timeout'>`status`,
      ...(outcome.occurredAt ? { finish_occurred_at: outcome.occurredAt } : {}),
    })
    .where('id', '=', match.sessionId)
    .where('device_id', '=', match.deviceId)
    .where('status', 'in', ['disconnected', 'timeout'])
    .where('ended_at', '>=', outcome.windowStart)
    .returningAll()
    .returning(BEFORE_COLUMNS)
    .executeTakeFirst();
}

/**
 * What the audit log names a session by: who trained on what, as the session recorded it, and
 * the same in English when its scenario or level was named in English (the trainee's name is the
 * same in both).
 */
export function sessionLabels(
  session: Pick<
    Session,
    'vr_user_name' | 'scenario_name' | 'level_name' | 'scenario_name_en' | 'level_name_en'
  >,
): { label: string; labelEn: string | null } {
  const label = `${session.vr_user_name}: ${session.scenario_name} / ${session.level_name}`;
  if (!session.scenario_name_en && !session.level_name_en) return { label, labelEn: null };
  const scenario = session.scenario_name_en ?? session.scenario_name;
  const level = session.level_name_en ?? session.level_name;
  return { label, labelEn: `${session.vr_user_name}: ${scenario} / ${level}` };
}

/**
 * Records a session's end in its organisation's chain, [before, after] of what the end changed:
 * cancelled by an account, finished (or a late result) by its headset, disconnected or timed out
 * by the server (the sweeper). Integrations hear of it too (session.finished, docs/integrations.md),
 * in the same transaction.
 */
export async function recordSessionEnd(
  trx: Tx,
  by: AuditRecord['by'],
  at: Date,
  action:
    | 'session.cancelled'
    | 'session.finished'
    | 'session.late_result'
    | 'session.disconnected'
    | 'session.timed_out',
  session: EndedSession,
) {
  await recordAudit(trx, {
    by,
    at,
    action,
    // A session lost to a silent headset or the clock did not end as it should have: the log
    // reads it as a failure, not a success (issue 42).
    ...(action === 'session.disconnected' || action === 'session.timed_out'
      ? { outcome: 'failure' as const }
      : {}),
    organizationId: session.organization_id,
    target: { type: 'session', id: session.id, ...sessionLabels(session) },
    changes: changedFields(
      {
        status: session.status_before,
        completed_tasks: session.completed_tasks_before,
        success: session.success_before,
        ended_at: session.ended_at_before,
      },
      {
        status: session.status,
        completed_tasks: session.completed_tasks,
        success: session.success,
        ended_at: session.ended_at,
      },
    ),
  });
  await recordOutbox(trx, {
    organizationId: session.organization_id,
    type: 'session.finished',
    at,
    data: sessionFinishedData(session),
  });
}
