import {
  CSV_BOM,
  csvSeparator,
  csvText,
  safeFileNamePart,
  trainingRecordCsvHeadings,
  trainingRecordCsvRows,
  type CsvReader,
  type TrainingRecord,
  type TrainingRecordLevel,
  type TrainingResult,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { notFound } from '../platform/service/errors.ts';
import { recordQualifications } from '../qualifications/record.ts';
import { endedSql, succeededSql } from './stats-sql.ts';

/**
 * A trainee's training record (GET /v1/vr-users/:id/record): their ended sessions grouped by the
 * level they ran. Attempts are ended sessions, as the History lists them; completions are
 * successes, as the statistics count them (stats-sql.ts: the same SQL, not a second rule): the
 * record, the History and its CSV and the statistics agree to the session.
 *
 * A group is the level while it exists, else the names it ran under (the foreign key nulls the
 * id when the level is deleted), like the statistics' groups; names are the latest session's, as
 * it ran them, never the level's current ones: the record says what was trained.
 */

/** An instant as the API writes it (ISO 8601, UTC, milliseconds), formatted by the database. */
const isoText = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const result = (alias: string) => sql<TrainingResult>`json_build_object(
  'session_id', ${sql.ref(`${alias}.id`)},
  'completed_tasks', ${sql.ref(`${alias}.completed_tasks`)},
  'max_tasks', ${sql.ref(`${alias}.max_tasks`)},
  'success', ${succeededSql(alias)},
  'started_at', ${isoText(`${alias}.started_at`)},
  'ended_at', ${isoText(`${alias}.ended_at`)})`;

interface LevelRow extends Omit<TrainingRecordLevel, 'best' | 'last'> {
  best: TrainingResult;
  last: TrainingResult;
}

export async function trainingRecord(
  ctx: ServiceContext,
  caller: Caller,
  vrUserId: string,
): Promise<TrainingRecord> {
  const vrUser = await ctx.db
    .selectFrom('vr_users')
    .select(['id', 'name'])
    .where('id', '=', vrUserId)
    .where('organization_id', '=', caller.organizationId)
    .executeTakeFirst();
  if (!vrUser) throw notFound('VR user');
  const { rows } = await sql<LevelRow>`
    WITH s AS (
      SELECT s.*, coalesce(s.level_id::text, concat_ws(chr(31), s.scenario_name, s.module_name,
        s.level_number::text, s.level_name)) AS g
      FROM sessions s
      WHERE s.vr_user_id = ${vrUser.id} AND s.organization_id = ${caller.organizationId}
        AND ${endedSql('s')}
    ), totals AS (
      SELECT g, count(*)::int AS attempts,
        (count(*) FILTER (WHERE ${succeededSql('s')}))::int AS completions,
        min(s.ended_at) FILTER (WHERE ${succeededSql('s')}) AS first_completed,
        max(s.ended_at) FILTER (WHERE ${succeededSql('s')}) AS last_completed,
        array_agg(DISTINCT s.level_revision ORDER BY s.level_revision) AS revisions,
        coalesce(sum(s.duration_seconds), 0)::int AS training_seconds
      FROM s GROUP BY g
    ), last AS (
      SELECT DISTINCT ON (g) * FROM s ORDER BY g, s.started_at DESC, s.id DESC
    ), best AS (
      SELECT DISTINCT ON (g) * FROM s
      ORDER BY g, ${succeededSql('s')} DESC,
        least(s.completed_tasks::numeric / greatest(s.max_tasks, 1), 1) DESC,
        s.completed_tasks DESC, s.started_at, s.id
    )
    SELECT last.level_id, last.scenario_name, last.module_name, last.level_name,
      last.scenario_name_en, last.module_name_en, last.level_name_en, last.level_number,
      totals.revisions, totals.attempts, totals.completions,
      ${result('best')} AS best, ${result('last')} AS last,
      ${isoText('totals.first_completed')} AS first_completed_at,
      ${isoText('totals.last_completed')} AS last_completed_at,
      totals.training_seconds
    FROM totals JOIN last USING (g) JOIN best USING (g)
    ORDER BY lower(last.scenario_name), lower(last.module_name), last.level_number,
      lower(last.level_name), g`.execute(ctx.db);
  const levels = rows.map((row) => ({ ...row, revisions: row.revisions.map(Number) }));
  return {
    vr_user: vrUser,
    organization_name: caller.organizationName,
    levels,
    totals: {
      attempts: sum(levels, (level) => level.attempts),
      completions: sum(levels, (level) => level.completions),
      levels_attempted: levels.length,
      levels_completed: levels.filter((level) => level.completions > 0).length,
      training_seconds: sum(levels, (level) => level.training_seconds),
    },
    qualifications: await recordQualifications(ctx, caller, vrUser.id),
  };
}

const sum = <T>(items: T[], of: (item: T) => number) =>
  items.reduce((total, item) => total + of(item), 0);

/**
 * The record as CSV: one row per level, then the totals; for a reader in their language and
 * offset, each row naming the trainee and the organisation (csv-reader.ts in the contract).
 */
export async function exportTrainingRecord(
  ctx: ServiceContext,
  caller: Caller,
  vrUserId: string,
  reader: CsvReader | null,
): Promise<{ fileName: string; body: string }> {
  const record = await trainingRecord(ctx, caller, vrUserId);
  const today = ctx.clock.now().toISOString().slice(0, 10);
  const fileName = `training-record_${safeFileNamePart(record.vr_user.name)}_${today}.csv`;
  const rows = [trainingRecordCsvHeadings(reader), ...trainingRecordCsvRows(record, reader)];
  return { fileName, body: CSV_BOM + csvText(rows, csvSeparator(reader)) };
}
