import { sql, type RawBuilder } from 'kysely';
import type { DeviceChanges } from '../devices/device-changes.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { Session, SessionStatus } from '../platform/database/schema.ts';

export type EndedStatus = Exclude<SessionStatus, 'active'>;

/**
 * A time a headset reported (its clock), as the server uses it: within [started_at, now], so a
 * headset's wrong clock can neither end a session before it began nor in the future. (SQL over
 * the session's row: started_at is the row's.)
 */
export function clampedToSession(reported: Date, now: Date): RawBuilder<Date> {
  return sql<Date>`least(greatest(${reported}::timestamptz, started_at), ${now}::timestamptz)`;
}

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
): Promise<Session | undefined> {
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
  const ended = await query.returningAll().executeTakeFirst();
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
): Promise<Session | undefined> {
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
    .executeTakeFirst();
}
