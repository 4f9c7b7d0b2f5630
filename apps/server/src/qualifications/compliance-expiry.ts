import { sql, type RawBuilder } from 'kysely';
import type { Db, Tx } from '../platform/database/db.ts';
import { hasSearch } from '../platform/database/paging.ts';
import {
  matchingSql,
  overdueOfSql,
  statusOfSql,
  thresholdsSql,
  type ComplianceFilters,
  type DerivedRow,
} from './compliance-sql.ts';

/**
 * A page of the list sorted by `valid_until` without deriving and sorting every row. Within one
 * qualification valid_until is its oldest piece + validity_days, so the order is the order of
 * qualification_assignments_complete_idx (migration 0031): each qualification gives its first
 * `offset + limit` matching rows by that index (WITH TIES, so rows equal to the last are all in),
 * and the page is taken from those few hundred. A row the page needs is always among them: any
 * row before it in the list from its own qualification is before it in that index.
 *
 * Only when the kept pieces are the record at T (no pair of the organisation has a piece after
 * T) and the page lies among the rows that have a valid_until (they come first either way,
 * NULLs last): otherwise undefined, and the caller derives the list in full.
 */
const MOST = 1000;

export async function pageByValidUntil(
  db: Db | Tx,
  organizationId: string,
  query: ComplianceFilters,
  t: Date,
  read: { limit: number; offset: number; reversed: boolean },
): Promise<DerivedRow[] | undefined> {
  const wanted = read.offset + read.limit;
  if (read.reversed || wanted > MOST || query.vr_user_id || hasSearch(query.q)) return undefined;
  // Only complete sets have a valid_until; each status of theirs is a range of the index.
  const ranges: Partial<Record<string, RawBuilder<unknown>>> = {
    expired: sql`AND a.standing_oldest_at <= q.lapsed_before`,
    expiring: sql`AND a.standing_oldest_at > q.lapsed_before
      AND a.standing_oldest_at <= q.expiring_before`,
    qualified: sql`AND a.standing_oldest_at > q.expiring_before`,
    all: sql``,
  };
  const range = ranges[query.status ?? 'all'];
  if (!range) return undefined;
  // Overdue and complete: expired, and due before T.
  const overdue = query.overdue
    ? sql`AND a.standing_oldest_at <= q.lapsed_before AND a.due_at < ${t.toISOString()}::timestamptz`
    : sql``;
  const at = sql`${t.toISOString()}::timestamptz`;
  const { rows: changed } = await sql`SELECT 1 FROM qualification_assignments
    WHERE organization_id = ${organizationId} AND standing_since > ${at} LIMIT 1`.execute(db);
  if (changed.length > 0) return undefined;
  const descending = query.order === 'desc';
  const direction = descending ? sql`DESC` : sql`ASC`;
  const only = query.qualification_id ? sql`AND q.id = ${query.qualification_id}` : sql``;
  const { rows } = await sql<DerivedRow>`
    SELECT d.vr_user_id, d.qualification_id, d.due_at, v.name AS vr_user_name,
      lower(v.name) AS vr_user_sort, d.qualification_name, d.qualification_sort, d.status,
      d.earned_at, d.valid_until, d.overdue
    FROM ${thresholdsSql(organizationId, at)} q
      CROSS JOIN LATERAL (
        SELECT d.* FROM (
          SELECT p.vr_user_id, p.qualification_id, p.due_at, p.oldest_at,
            q.name AS qualification_name, q.sort_name AS qualification_sort,
            ${statusOfSql('p')} AS status, p.earned_at, p.oldest_at + q.valid_for AS valid_until,
            ${overdueOfSql('p', at)} AS overdue
          FROM (SELECT a.vr_user_id, a.qualification_id, a.due_at, a.standing_kind AS kind,
              a.standing_oldest_at AS oldest_at, a.standing_earned_at AS earned_at,
              q.lapsed_before, q.expiring_before
            FROM qualification_assignments a
            WHERE a.qualification_id = q.id AND a.standing_kind = 'complete' ${range} ${overdue}) p
        ) d
        WHERE ${matchingSql(query)}
        ORDER BY d.oldest_at ${direction}
        FETCH FIRST ${wanted} ROWS WITH TIES
      ) d
      JOIN vr_users v ON v.id = d.vr_user_id
    WHERE q.valid_for IS NOT NULL ${only}
    ORDER BY d.valid_until ${direction}, lower(v.name) ${direction}, d.qualification_sort ${direction},
      d.vr_user_id ${direction}, d.qualification_id ${direction}`.execute(db);
  if (rows.length < wanted) return undefined;
  return rows.slice(read.offset, wanted);
}
