import { sql, type RawBuilder } from 'kysely';
import { endedSql, succeededSql } from '../platform/database/session-outcome.ts';

/**
 * Aggregate expressions over a sessions alias, shared by the statistics and the organisation
 * figures so both count the same way. Every aggregate is cast: pg hands bigint and numeric back
 * as strings.
 *
 * - Ended: any status but active.
 * - success_rate: successes (success = true, only ever set on completed sessions) over ended
 *   sessions, percent, one decimal; 0 when none ended.
 * - average_completion: mean of completed_tasks / max_tasks over ended sessions (max_tasks
 *   treated as at least 1, the ratio capped at 1), percent, one decimal; 0 when none ended.
 * - average_duration_seconds: mean duration of ended sessions that have one, whole seconds.
 */
// The rule of an ended and a successful session lives below the domains: qualifications count
// completions by it too.
export { endedSql, succeededSql };

export function successRateSql(sessionAlias: string): RawBuilder<number> {
  return sql<number>`coalesce(round(
    100.0 * (count(*) FILTER (WHERE ${succeededSql(sessionAlias)}))
      / nullif(count(*) FILTER (WHERE ${endedSql(sessionAlias)}), 0),
    1), 0)::float8`;
}

export function averageCompletionSql(sessionAlias: string): RawBuilder<number> {
  const completed = sql.ref(`${sessionAlias}.completed_tasks`);
  const max = sql.ref(`${sessionAlias}.max_tasks`);
  const status = sql.ref(`${sessionAlias}.status`);
  return sql<number>`coalesce(round(
    100 * avg(least(${completed}::numeric / greatest(${max}, 1), 1)) FILTER (WHERE ${status} <> 'active'),
    1), 0)::float8`;
}

export function averageDurationSql(sessionAlias: string): RawBuilder<number> {
  const duration = sql.ref(`${sessionAlias}.duration_seconds`);
  const status = sql.ref(`${sessionAlias}.status`);
  return sql<number>`coalesce(round(
    avg(${duration}) FILTER (WHERE ${status} <> 'active' AND ${duration} IS NOT NULL)), 0)::int`;
}

/**
 * Rows are grouped by what a session ran on (its scenario, VR user or device) while that still
 * exists, and by the name recorded with the session once it was deleted (the id is then null).
 * `currentName` is the column of the joined live row; while the id is set, that row exists (the
 * foreign keys null the id on delete), so its current name wins over older recorded names.
 */
export function groupedNameSql(currentName: string, recordedName: string): RawBuilder<string> {
  return sql<string>`coalesce(max(${sql.ref(currentName)}), max(${sql.ref(recordedName)}))`;
}

/**
 * An optional name (the English one) of the same groups: the live row's, even when it has none
 * (its admin removed it), else the one recorded with the sessions.
 */
export function groupedOptionalNameSql(
  liveId: string,
  currentName: string,
  recordedName: string,
): RawBuilder<string | null> {
  return sql<string | null>`CASE WHEN count(${sql.ref(liveId)}) > 0
    THEN max(${sql.ref(currentName)}) ELSE max(${sql.ref(recordedName)}) END`;
}

/**
 * groupedNameSql's rule for a group already summed, with its live row joined afterwards (no row
 * when the group's id is null): the live row's current name, else the name recorded with it.
 */
export function currentNameSql(liveName: string, recordedName: string): RawBuilder<string> {
  return sql<string>`coalesce(${sql.ref(liveName)}, ${sql.ref(recordedName)})`;
}

/** groupedOptionalNameSql's rule for one group already summed, as currentNameSql. */
export function currentOptionalNameSql(
  liveId: string,
  currentName: string,
  recordedName: string,
): RawBuilder<string | null> {
  return sql<string | null>`CASE WHEN ${sql.ref(liveId)} IS NOT NULL
    THEN ${sql.ref(currentName)} ELSE ${sql.ref(recordedName)} END`;
}

/** The grouping key `(id, recorded name when the id is null)`, see groupedNameSql. */
export function groupKeySql(id: string, recorded: string): RawBuilder<unknown>[] {
  return [sql`${sql.ref(id)}`, sql`CASE WHEN ${sql.ref(id)} IS NULL THEN ${sql.ref(recorded)} END`];
}

/** Which sessions a figure covers: one organisation, and/or started in [startedFrom, startedBefore). */
export interface SessionFilter {
  organizationId?: string;
  startedFrom?: Date;
  startedBefore?: Date;
}

/** The filter as one SQL condition on the sessions alias (true when it filters nothing). */
export function sessionFilterSql(sessionAlias: string, filter: SessionFilter): RawBuilder<boolean> {
  const conditions: RawBuilder<unknown>[] = [];
  if (filter.organizationId !== undefined) {
    conditions.push(sql`${sql.ref(`${sessionAlias}.organization_id`)} = ${filter.organizationId}`);
  }
  if (filter.startedFrom !== undefined) {
    conditions.push(sql`${sql.ref(`${sessionAlias}.started_at`)} >= ${filter.startedFrom}`);
  }
  if (filter.startedBefore !== undefined) {
    conditions.push(sql`${sql.ref(`${sessionAlias}.started_at`)} < ${filter.startedBefore}`);
  }
  return conditions.length === 0
    ? sql<boolean>`true`
    : sql<boolean>`(${sql.join(conditions, sql` AND `)})`;
}
