import type { SessionTask, TaskReport } from '@vrtc/contract';
import { sql } from 'kysely';
import { recordAudit, type AuditRecord } from '../audit/audit.ts';
import type { DeviceChanges } from '../devices/device-changes.ts';
import type { Tx } from '../platform/database/db.ts';
import type { SessionStatus } from '../platform/database/schema.ts';
import { raisedTaskCount, sessionLabels } from './session-end.ts';
import { storeTasks, type TaskStoreOptions } from './tasks.ts';

/** A headset's progress report as the session takes it (docs/headset-protocol.md). */
export interface ProgressReport {
  completedTasks: number;
  seq?: number;
  task?: TaskReport;
  occurredAt?: TaskStoreOptions['occurredAt'];
  now: Date;
  /** The earliest server ending a late report may still follow (LATE_RESULT_WINDOW_MS). */
  windowStart: Date;
  /** The headset, the actor of its reports in the audit log. */
  by: AuditRecord['by'];
}

/** The session as a progress report left it. */
export interface ProgressedSession {
  id: string;
  status: SessionStatus;
  completed_tasks: number;
  max_tasks: number;
  device_id: string | null;
  organization_id: string;
}

/**
 * Records the count of completed tasks and, when the headset tells it, the task that just ended
 * (older headsets send the count only), by the protocol's order rules: the count never goes down,
 * so an older or repeated report changes nothing; a report older than one applied (`seq`) only
 * adds tasks not told yet. A session the server ended takes progress within the late-result
 * window (its status stays; the finish decides it). A completed session takes none: undefined,
 * as for a session that is not the device's or not in a state to take it.
 */
export async function recordProgress(
  deviceEvents: DeviceChanges,
  trx: Tx,
  match: { sessionId: string; deviceId: string },
  report: ProgressReport,
): Promise<{ session: ProgressedSession; task?: SessionTask } | undefined> {
  const { seq } = report;
  const row = await trx
    .updateTable('sessions')
    .set({
      completed_tasks: raisedTaskCount(report.completedTasks),
      ...(seq !== undefined
        ? { progress_seq: sql<number>`greatest(coalesce(progress_seq, 0), ${seq}::int)` }
        : {}),
    })
    .where('id', '=', match.sessionId)
    .where('device_id', '=', match.deviceId)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'active'),
        eb.and([
          eb('status', 'in', ['disconnected', 'timeout']),
          eb('ended_at', '>=', report.windowStart),
        ]),
      ]),
    )
    .returning([
      'id',
      'status',
      'completed_tasks',
      'max_tasks',
      'device_id',
      'organization_id',
      'progress_seq',
      'vr_user_name',
      'scenario_name',
      'level_name',
      'scenario_name_en',
      'level_name_en',
      // As it was before this statement (its snapshot), for the audit log.
      sql<number>`(SELECT b.completed_tasks FROM sessions b WHERE b.id = sessions.id)`.as(
        'completed_tasks_before',
      ),
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  const older = seq !== undefined && row.progress_seq !== null && row.progress_seq > seq;
  const [task] = report.task
    ? await storeTasks(trx, match.sessionId, [report.task], report.now, {
        occurredAt: report.occurredAt,
        older,
      })
    : [];
  if (task || row.completed_tasks !== row.completed_tasks_before) {
    await recordAudit(trx, {
      by: report.by,
      at: report.now,
      action: 'session.progress',
      organizationId: row.organization_id,
      target: { type: 'session', id: match.sessionId, ...sessionLabels(row) },
      changes: {
        completed_tasks: [row.completed_tasks_before, row.completed_tasks],
        ...(task ? { task: [null, task] } : {}),
      },
    });
  }
  // The launch description a heartbeat answers carries completed_tasks.
  if (row.status === 'active') await deviceEvents.changed(trx, match.deviceId);
  return { session: row, task };
}
