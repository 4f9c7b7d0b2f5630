import { sql, type RawBuilder } from 'kysely';
import {
  QUALIFICATION_STATUSES,
  type ComplianceTotals,
  type QualificationStatus,
} from '@vrtc/contract';
import type { Db, Tx } from '../platform/database/db.ts';
import { hasSearch } from '../platform/database/paging.ts';
import {
  derivedSql,
  overdueOfSql,
  statusOfSql,
  thresholdsSql,
  type ComplianceFilters,
} from './compliance-sql.ts';

/**
 * The compliance view's totals: how many rows matching every filter but status and overdue have
 * each status and overdue at T, and how many the status and overdue filters keep.
 *
 * Without a trainee or a search, they are counted without reading every assignment (migration
 * 0031): the kinds of kept pieces per qualification are kept counts; a complete set's status at T
 * is a range of its oldest piece in an index (expired up to T − validity, expiring up to that +
 * expiring_within_days, qualified the rest); overdue reads the assignments due before T. Those
 * are the statuses the kept pieces give at T; the pairs with a piece after T (as_of in the past)
 * are then counted again by the version of their pieces in force at T (their kept history), their
 * kept status taken away: the work grows with the pairs changed after T, one index entry each,
 * not with the organisation. With a trainee or a search, the matching rows are derived and
 * grouped (derivedSql).
 */

interface Cell {
  status: QualificationStatus;
  overdue: boolean;
  count: number;
}

/** Per status and overdue, the rows the kept pieces give at T (all pairs, changed or not). */
function keptCellsSql(organizationId: string, query: ComplianceFilters, t: Date) {
  const at = sql`${t.toISOString()}::timestamptz`;
  const only = query.qualification_id
    ? sql`WHERE q.id = ${query.qualification_id}`
    : sql`WHERE TRUE`;
  return sql`
    WITH q AS (SELECT * FROM ${thresholdsSql(organizationId, at)} q ${only}),
    kinds AS (
      SELECT c.kind, sum(c.assignments)::int AS n FROM qualification_standing_counts c
      JOIN q ON q.id = c.qualification_id GROUP BY c.kind
    ), complete AS (
      SELECT coalesce(sum(r.expired), 0)::int AS expired, coalesce(sum(r.expiring), 0)::int AS expiring
      FROM q CROSS JOIN LATERAL (
        SELECT
          (SELECT count(*) FROM qualification_assignments a WHERE a.qualification_id = q.id
            AND a.standing_kind = 'complete' AND a.standing_oldest_at <= q.lapsed_before) AS expired,
          (SELECT count(*) FROM qualification_assignments a WHERE a.qualification_id = q.id
            AND a.standing_kind = 'complete' AND a.standing_oldest_at > q.lapsed_before
            AND a.standing_oldest_at <= q.expiring_before) AS expiring
      ) r
    ), due AS (
      SELECT ${statusOfSql('p')} AS status, count(*)::int AS n
      FROM (SELECT a.due_at, a.standing_kind AS kind, a.standing_oldest_at AS oldest_at,
          q.lapsed_before, q.expiring_before
        FROM q JOIN qualification_assignments a ON a.qualification_id = q.id
        WHERE a.due_at IS NOT NULL AND a.due_at < ${at}) p
      WHERE ${overdueOfSql('p', at)}
      GROUP BY 1
    )
    SELECT kind AS status, FALSE AS overdue, n AS count FROM kinds WHERE kind <> 'complete'
    UNION ALL SELECT 'expired', FALSE, expired FROM complete
    UNION ALL SELECT 'expiring', FALSE, expiring FROM complete
    UNION ALL SELECT 'qualified', FALSE,
      coalesce((SELECT n FROM kinds WHERE kind = 'complete'), 0) - expired - expiring FROM complete
    UNION ALL SELECT status, TRUE, n FROM due
    UNION ALL SELECT status, FALSE, -n FROM due`;
}

/**
 * The pairs with a piece after T, from their kept history alone (migration 0033): + the status of
 * the version in force at T (closed after T, begun at or before it), − the status the version in
 * force now (begun after T: the kept pieces) gives at T.
 */
function changedCellsSql(organizationId: string, query: ComplianceFilters, t: Date) {
  const at = sql`${t.toISOString()}::timestamptz`;
  const only = query.qualification_id
    ? sql`AND h.qualification_id = ${query.qualification_id}`
    : sql``;
  const versions = (inForce: RawBuilder<unknown>) => sql`
    SELECT ${statusOfSql('p')} AS status, ${overdueOfSql('p', at)} AS overdue, count(*)::int AS n
    FROM (SELECT h.kind, h.oldest_at, h.due_at, q.lapsed_before, q.expiring_before
      FROM qualification_standing_history h
        JOIN ${thresholdsSql(organizationId, at)} q ON q.id = h.qualification_id
      WHERE h.organization_id = ${organizationId} AND ${inForce} ${only}) p
    GROUP BY 1, 2`;
  return sql`
    SELECT status, overdue, n AS count
    FROM (${versions(sql`h.until < 'infinity' AND h.until > ${at} AND h.since <= ${at}`)}) was
    UNION ALL
    SELECT status, overdue, -n FROM (${versions(sql`h.until = 'infinity' AND h.since > ${at}`)}) now`;
}

async function cellsOf(db: Db | Tx, organizationId: string, query: ComplianceFilters, t: Date) {
  const counted =
    query.vr_user_id || hasSearch(query.q)
      ? sql`SELECT d.status, d.overdue, count(*)::int AS count
          FROM (${derivedSql(organizationId, query, t, { names: false })}) d GROUP BY 1, 2`
      : sql`SELECT c.status, c.overdue, c.count FROM (${keptCellsSql(organizationId, query, t)}
          UNION ALL ${changedCellsSql(organizationId, query, t)}) c`;
  const { rows } = await sql<Cell>`
    SELECT x.status, x.overdue, sum(x.count)::int AS count FROM (${counted}) x
    GROUP BY x.status, x.overdue`.execute(db);
  return rows;
}

/** Totals by status and overdue, and how many rows the status and overdue filters keep. */
export async function countRows(
  db: Db | Tx,
  organizationId: string,
  query: ComplianceFilters,
  t: Date,
) {
  const totals = Object.fromEntries(QUALIFICATION_STATUSES.map((status) => [status, 0])) as Record<
    QualificationStatus,
    number
  >;
  let overdue = 0;
  let matching = 0;
  for (const row of await cellsOf(db, organizationId, query, t)) {
    totals[row.status] += row.count;
    if (row.overdue) overdue += row.count;
    if (
      (!query.status || row.status === query.status) &&
      (query.overdue === undefined || row.overdue === query.overdue)
    )
      matching += row.count;
  }
  return { totals: { ...totals, overdue } satisfies ComplianceTotals, matching };
}
