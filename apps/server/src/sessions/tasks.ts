import type { SessionTask, TaskReport } from '@vrtc/contract';
import { sql } from 'kysely';
import type { Db, Tx } from '../platform/database/db.ts';
import { AppError } from '../platform/service/errors.ts';
import { iso, isoOrNull } from '../platform/service/serialize.ts';

/** A task number is one of the level's: 1..max_tasks. */
export function checkTaskNumbers(reports: readonly TaskReport[], maxTasks: number, field: string) {
  const outside = reports.find((report) => report.number > maxTasks);
  if (outside) {
    throw new AppError(
      'validation_error',
      `${field} must be between 1 and ${maxTasks} (the level's task count)`,
      { details: { field, rule: 'maximum', limit: maxTasks } },
    );
  }
}

/** How a report's tasks are stored beside their content. */
export interface TaskStoreOptions {
  /** When the tasks ended by the headset's clock: as it sent it, and clamped to the session. */
  occurredAt?: { reported: Date; clamped: Date };
  /**
   * The report is older than one already applied (its seq): it adds the tasks not told yet and
   * leaves the ones a newer report told as they are.
   */
  older?: boolean;
}

/**
 * Stores what the headset told of these tasks, merged by task number: a task reported again
 * replaces its row (keeping the time it ended when the new report does not tell it), unless the
 * report is older than one already applied.
 */
export async function storeTasks(
  executor: Db | Tx,
  sessionId: string,
  reports: readonly TaskReport[],
  reportedAt: Date,
  options: TaskStoreOptions = {},
): Promise<SessionTask[]> {
  if (reports.length === 0) return [];
  // The last report of a number wins, as if they had come one after another.
  const byNumber = new Map(reports.map((report) => [report.number, report]));
  const rows = await executor
    .insertInto('session_tasks')
    .values(
      [...byNumber.values()].map((report) => ({
        session_id: sessionId,
        number: report.number,
        key: report.key?.trim() ?? null,
        name: report.name?.trim() ?? null,
        result: report.result,
        score: report.score ?? null,
        duration_ms: report.duration_ms ?? null,
        reported_at: reportedAt,
        occurred_at_reported: options.occurredAt?.reported ?? null,
        occurred_at: options.occurredAt?.clamped ?? null,
      })),
    )
    .onConflict((conflict) =>
      options.older
        ? conflict.columns(['session_id', 'number']).doNothing()
        : conflict.columns(['session_id', 'number']).doUpdateSet((eb) => ({
            key: eb.ref('excluded.key'),
            name: eb.ref('excluded.name'),
            result: eb.ref('excluded.result'),
            score: eb.ref('excluded.score'),
            duration_ms: eb.ref('excluded.duration_ms'),
            reported_at: eb.ref('excluded.reported_at'),
            occurred_at_reported: eb.fn.coalesce(
              'excluded.occurred_at_reported',
              'session_tasks.occurred_at_reported',
            ),
            occurred_at: eb.fn.coalesce('excluded.occurred_at', 'session_tasks.occurred_at'),
          })),
    )
    .returningAll()
    .execute();
  return rows.map(toSessionTask).sort((a, b) => a.number - b.number);
}

/** The tasks told of each session: the timeline, by when they ended (the headset's clock, clamped), else by when they arrived, then by number. */
export async function tasksOf(
  db: Db | Tx,
  sessionIds: readonly string[],
): Promise<Map<string, SessionTask[]>> {
  const bySession = new Map<string, SessionTask[]>(sessionIds.map((id) => [id, []]));
  if (sessionIds.length === 0) return bySession;
  const rows = await db
    .selectFrom('session_tasks')
    .selectAll()
    .where('session_id', 'in', [...sessionIds])
    .orderBy('session_id')
    .orderBy(sql`coalesce(occurred_at, reported_at)`)
    .orderBy('number')
    .execute();
  for (const row of rows) bySession.get(row.session_id)?.push(toSessionTask(row));
  return bySession;
}

function toSessionTask(row: {
  number: number;
  key: string | null;
  name: string | null;
  result: SessionTask['result'];
  score: number | null;
  duration_ms: number | null;
  reported_at: Date;
  occurred_at: Date | null;
}): SessionTask {
  return {
    number: row.number,
    key: row.key,
    name: row.name,
    result: row.result,
    score: row.score,
    duration_ms: row.duration_ms,
    reported_at: iso(row.reported_at),
    occurred_at: isoOrNull(row.occurred_at),
  };
}
