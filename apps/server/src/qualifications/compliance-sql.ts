import { sql, type RawBuilder } from 'kysely';
import {
  QUALIFICATION_STATUSES,
  type ComplianceQuery,
  type QualificationStatus,
} from '@vrtc/contract';
import { containsPattern, hasSearch, orderBySql } from '../platform/database/paging.ts';

/**
 * The compliance view's rows in SQL: every assignment of an active qualification, with the
 * trainee's status at T derived as derive.ts derives it (docs/compliance.md), so the status
 * filter, the totals, the order and the page are the database's work, not JavaScript's over every
 * row.
 *
 * Each assignment keeps its pieces as the record holds them now (migration 0030, kept by
 * triggers in the transaction of every change to the record): at a T at or after the newest of
 * them (`standing_since`), the status is a comparison of T with the oldest piece + validity_days.
 * A pair with a piece or revocation after T (as_of in the past) is derived from the record at T
 * instead, by qualification_pieces_at over the completions index.
 */

export type ComplianceFilters = Omit<ComplianceQuery, 'limit' | 'offset'>;

export interface DerivedRow {
  vr_user_id: string;
  qualification_id: string;
  vr_user_name: string;
  qualification_name: string;
  due_at: Date | string | null;
  status: QualificationStatus;
  earned_at: Date | string | null;
  valid_until: Date | string | null;
  overdue: boolean;
}

const DAY = sql`interval '24 hours'`;

/** The rows matching every filter but status and overdue, with their status and overdue at T. */
export function derivedSql(organizationId: string, query: ComplianceFilters, t: Date) {
  const at = sql`${t.toISOString()}::timestamptz`;
  const conditions = [sql`a.organization_id = ${organizationId}`, sql`q.archived_at IS NULL`];
  if (query.qualification_id) conditions.push(sql`a.qualification_id = ${query.qualification_id}`);
  if (query.vr_user_id) conditions.push(sql`a.vr_user_id = ${query.vr_user_id}`);
  if (hasSearch(query.q)) conditions.push(sql`v.name ILIKE ${containsPattern(query.q)}`);
  const where = sql.join(conditions, sql` AND `);
  const from = sql`qualification_assignments a
    JOIN qualifications q ON q.id = a.qualification_id
    JOIN vr_users v ON v.id = a.vr_user_id`;
  const columns = sql`a.vr_user_id, a.qualification_id, a.due_at, v.name AS vr_user_name,
    q.name AS qualification_name, q.validity_days, q.expiring_within_days`;
  return sql`
    SELECT d.*, (d.due_at IS NOT NULL AND d.due_at < ${at}
        AND d.status NOT IN ('qualified', 'expiring')) AS overdue
    FROM (
      SELECT p.vr_user_id, p.qualification_id, p.due_at, p.vr_user_name, p.qualification_name,
        CASE
          WHEN p.kind <> 'complete' THEN p.kind
          WHEN p.validity_days IS NULL THEN 'qualified'
          WHEN p.oldest_at + p.validity_days * ${DAY} <= ${at} THEN 'expired'
          WHEN p.oldest_at + (p.validity_days - p.expiring_within_days) * ${DAY} <= ${at}
            THEN 'expiring'
          ELSE 'qualified'
        END AS status,
        CASE WHEN p.kind = 'complete' THEN p.earned_at END AS earned_at,
        CASE WHEN p.kind = 'complete' THEN p.oldest_at + p.validity_days * ${DAY} END
          AS valid_until
      FROM (
        SELECT ${columns}, a.standing_kind AS kind, a.standing_oldest_at AS oldest_at,
          a.standing_earned_at AS earned_at
        FROM ${from}
        WHERE ${where} AND (a.standing_since IS NULL OR a.standing_since <= ${at})
        UNION ALL
        SELECT ${columns}, r.kind, r.oldest_at, r.earned_at
        FROM ${from}
          CROSS JOIN LATERAL qualification_pieces_at(a.vr_user_id, a.qualification_id, ${at}) r
        WHERE ${where} AND a.standing_since > ${at}
      ) p
    ) d`;
}

/** The status and overdue filters, over derivedSql's rows `d`. */
export function matchingSql(query: ComplianceFilters): RawBuilder<boolean> {
  const conditions = [sql`TRUE`];
  if (query.status) conditions.push(sql`d.status = ${query.status}`);
  if (query.overdue !== undefined) conditions.push(sql`d.overdue = ${query.overdue}`);
  return sql<boolean>`${sql.join(conditions, sql` AND `)}`;
}

const STATUS_ORDER = sql`ARRAY[${sql.join(QUALIFICATION_STATUSES.map((status) => sql.lit(status)))}]::text[]`;

/** The list's order: the chosen key (nulls last either way), then trainee, qualification, ids. */
export function complianceOrderSql(query: ComplianceFilters, reversed = false) {
  return orderBySql(
    query,
    {
      vr_user_name: sql`lower(d.vr_user_name)`,
      qualification_name: sql`lower(d.qualification_name)`,
      status: sql`array_position(${STATUS_ORDER}, d.status)`,
      valid_until: sql`d.valid_until`,
      due_at: sql`d.due_at`,
    },
    'vr_user_name',
    [
      sql`lower(d.vr_user_name)`,
      sql`lower(d.qualification_name)`,
      sql`d.vr_user_id`,
      sql`d.qualification_id`,
    ],
    reversed,
  );
}
