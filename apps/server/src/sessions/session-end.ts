import { sql } from 'kysely';
import type { DeviceChanges } from '../devices/device-changes.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { Session, SessionStatus } from '../platform/database/schema.ts';

export type EndedStatus = Exclude<SessionStatus, 'active'>;

/**
 * Ends an active session: the one place that records ended_at, duration_seconds and success.
 * Only `completed` with success=true counts as a success; cancelled, disconnected and timeout never
 * do. Answers undefined when the session was not active (already ended, or not matched), so the
 * caller can answer 404 or 409 as fits. The device's cached view is invalidated through `db`
 * (inside the caller's transaction when it is one, so other processes hear it at commit).
 */
export async function endActiveSession(
  deviceEvents: DeviceChanges,
  db: Db | Tx,
  match: { sessionId: string; organizationId?: string; deviceId?: string },
  outcome: { status: EndedStatus; now: Date; completedTasks?: number; success?: boolean },
): Promise<Session | undefined> {
  let query = db
    .updateTable('sessions')
    .set({
      status: outcome.status,
      ended_at: outcome.now,
      duration_seconds: sql<number>`greatest(0, floor(extract(epoch FROM (${outcome.now}::timestamptz - started_at))))::int`,
      success: outcome.status === 'completed' ? (outcome.success ?? true) : false,
      ...(outcome.completedTasks !== undefined
        ? { completed_tasks: sql<number>`least(${outcome.completedTasks}::int, max_tasks)` }
        : {}),
    })
    .where('id', '=', match.sessionId)
    .where('status', '=', 'active');
  if (match.organizationId) query = query.where('organization_id', '=', match.organizationId);
  if (match.deviceId) query = query.where('device_id', '=', match.deviceId);
  const ended = await query.returningAll().executeTakeFirst();
  if (ended) await deviceEvents.changed(db, ended.device_id);
  return ended;
}
