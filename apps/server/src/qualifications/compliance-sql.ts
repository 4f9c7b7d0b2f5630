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
 * A pair with a piece or revocation after T (as_of in the past) reads the version of its pieces
 * in force at T from their kept history instead (migration 0033, kept by the same triggers).
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

/**
 * The qualifications of the organisation with their thresholds at T: a complete set whose oldest
 * piece is at or before `lapsed_before` has expired (oldest + validity_days ≤ T), at or before
 * `expiring_before` is expiring. Computed once per qualification, so each row only compares.
 */
export function thresholdsSql(organizationId: string, at: RawBuilder<unknown>) {
  return sql`(SELECT id, name, lower(name) AS sort_name, valid_for,
      ${at} - valid_for AS lapsed_before, ${at} - valid_for + expiring_for AS expiring_before
    FROM (SELECT *, validity_days * interval '24 hours' AS valid_for,
        expiring_within_days * interval '24 hours' AS expiring_for
      FROM qualifications WHERE organization_id = ${organizationId} AND archived_at IS NULL) q)`;
}

export interface DerivedOptions {
  /** The rows' names too (a page); without, the trainees are joined only to search them. */
  names?: boolean;
  /**
   * The trainee is the outer query's `v` (a walk along the trainees' name index, vr_users):
   * only its rows, with its name; the search is the outer query's.
   */
  outerTrainee?: boolean;
}

/** The kind of pieces a status needs (statusOfSql the other way round). */
const kindOf = (status: QualificationStatus) =>
  status === 'qualified' || status === 'expiring' || status === 'expired' ? 'complete' : status;

/** A row's status at T from its pieces `p` (kind, oldest_at) and its qualification's thresholds. */
export const statusOfSql = (p: string) =>
  sql`CASE
        WHEN ${sql.ref(`${p}.kind`)} <> 'complete' THEN ${sql.ref(`${p}.kind`)}
        WHEN ${sql.ref(`${p}.lapsed_before`)} IS NULL THEN 'qualified'
        WHEN ${sql.ref(`${p}.oldest_at`)} <= ${sql.ref(`${p}.lapsed_before`)} THEN 'expired'
        WHEN ${sql.ref(`${p}.oldest_at`)} <= ${sql.ref(`${p}.expiring_before`)} THEN 'expiring'
        ELSE 'qualified'
      END`;

/** Overdue at T: due before T and not held (qualified or expiring) then. */
export const overdueOfSql = (p: string, at: RawBuilder<unknown>) =>
  sql`(${sql.ref(`${p}.due_at`)} < ${at} AND NOT (${sql.ref(`${p}.kind`)} = 'complete'
        AND (${sql.ref(`${p}.lapsed_before`)} IS NULL
          OR ${sql.ref(`${p}.oldest_at`)} > ${sql.ref(`${p}.lapsed_before`)}))) IS TRUE`;

/** The rows matching every filter but status and overdue, with their status and overdue at T. */
export function derivedSql(
  organizationId: string,
  query: ComplianceFilters,
  t: Date,
  options: DerivedOptions = {},
) {
  const { names = true, outerTrainee = false } = options;
  const at = sql`${t.toISOString()}::timestamptz`;
  const conditions = [sql`a.organization_id = ${organizationId}`];
  if (outerTrainee) conditions.push(sql`a.vr_user_id = v.id`);
  if (query.qualification_id) conditions.push(sql`a.qualification_id = ${query.qualification_id}`);
  if (query.vr_user_id) conditions.push(sql`a.vr_user_id = ${query.vr_user_id}`);
  if (hasSearch(query.q) && !outerTrainee)
    conditions.push(sql`v.name ILIKE ${containsPattern(query.q)}`);
  // A status is one kind of pieces (a complete set's: qualified, expiring or expired): only the
  // rows of that kind are read, along qualification_assignments_kind_idx when they are few.
  const kind = query.status && kindOf(query.status);
  const where = sql.join(conditions, sql` AND `);
  const joinVrUsers = !outerTrainee && (names || hasSearch(query.q));
  const from = sql`qualification_assignments a
    JOIN ${thresholdsSql(organizationId, at)} q ON q.id = a.qualification_id
    ${
      joinVrUsers
        ? sql`JOIN (SELECT id, name, lower(name) AS sort_name FROM vr_users
      WHERE organization_id = ${organizationId}) v ON v.id = a.vr_user_id`
        : sql``
    }`;
  const trainee = outerTrainee
    ? sql`v.name AS vr_user_name, lower(v.name) AS vr_user_sort`
    : sql`v.name AS vr_user_name, v.sort_name AS vr_user_sort`;
  const columns = sql`a.vr_user_id, a.qualification_id, a.due_at,
    ${names ? sql`${trainee}, q.name AS qualification_name, q.sort_name AS qualification_sort,` : sql``}
    q.valid_for, q.lapsed_before, q.expiring_before`;
  const kept = sql`SELECT ${columns}, a.standing_kind AS kind, a.standing_oldest_at AS oldest_at,
        a.standing_earned_at AS earned_at
      FROM ${from}`;
  const history = sql`SELECT ${columns}, h.kind, h.oldest_at, h.earned_at
      FROM ${from}
        JOIN qualification_standing_history h ON h.qualification_id = a.qualification_id
          AND h.vr_user_id = a.vr_user_id AND h.since <= ${at} AND h.until > ${at}
      WHERE ${where} AND a.standing_since > ${at} ${kind ? sql`AND h.kind = ${kind}` : sql``}`;
  const rows = sql`${kept}
      WHERE ${where} AND (a.standing_since IS NULL OR a.standing_since <= ${at})
        ${kind ? sql`AND a.standing_kind = ${kind}` : sql``}
      UNION ALL
      ${history}`;
  return sql`
    SELECT p.vr_user_id, p.qualification_id, p.due_at,
      ${names ? sql`p.vr_user_name, p.vr_user_sort, p.qualification_name, p.qualification_sort,` : sql``}
      ${statusOfSql('p')} AS status,
      CASE WHEN p.kind = 'complete' THEN p.earned_at END AS earned_at,
      CASE WHEN p.kind = 'complete' THEN p.oldest_at + p.valid_for END AS valid_until,
      ${overdueOfSql('p', at)} AS overdue
    FROM (${rows}) p`;
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
      vr_user_name: sql`d.vr_user_sort`,
      qualification_name: sql`d.qualification_sort`,
      status: sql`array_position(${STATUS_ORDER}, d.status)`,
      valid_until: sql`d.valid_until`,
      due_at: sql`d.due_at`,
    },
    'vr_user_name',
    [sql`d.vr_user_sort`, sql`d.qualification_sort`, sql`d.vr_user_id`, sql`d.qualification_id`],
    reversed,
  );
}

/** Each sort key's expression, a stand-in for its NULLs (never compared: a flag sorts them) and type. */
const SORT_KEYS: Record<
  NonNullable<ComplianceFilters['sort']>,
  [key: RawBuilder<unknown>, stand_in: RawBuilder<unknown>, type: string]
> = {
  vr_user_name: [sql`d.vr_user_sort`, sql`''`, 'text'],
  qualification_name: [sql`d.qualification_sort`, sql`''`, 'text'],
  status: [sql`array_position(${STATUS_ORDER}, d.status)`, sql`0`, 'int'],
  valid_until: [sql`d.valid_until`, sql`'-infinity'::timestamptz`, 'timestamptz'],
  due_at: [sql`d.due_at`, sql`'-infinity'::timestamptz`, 'timestamptz'],
};
const TIEBREAK_TYPES = ['text', 'text', 'uuid', 'uuid'];

/**
 * The list's order as one row of values in one direction, for reading it by keyset (the export):
 * (key IS NULL) then key ascending, or (key IS NOT NULL) then key descending, puts NULLs last as
 * complianceOrderSql does, and the row after the last one read is a single row comparison.
 */
export function keysetSql(query: ComplianceFilters) {
  const [key, standIn, type] = SORT_KEYS[query.sort ?? 'vr_user_name'];
  const descending = query.order === 'desc';
  const parts = [
    descending ? sql`(${key} IS NOT NULL)` : sql`(${key} IS NULL)`,
    sql`coalesce(${key}, ${standIn})`,
    sql`d.vr_user_sort`,
    sql`d.qualification_sort`,
    sql`d.vr_user_id`,
    sql`d.qualification_id`,
  ];
  const types = ['boolean', type, ...TIEBREAK_TYPES];
  const names = parts.map((_, i) => `keyset_${i}`);
  return {
    select: sql.join(parts.map((part, i) => sql`${part} AS ${sql.ref(names[i]!)}`)),
    order: sql.join(parts.map((part) => (descending ? sql`${part} DESC` : sql`${part} ASC`))),
    /** The rows after `last` (a row read with `select`). */
    after: (last: Record<string, unknown>) =>
      sql<boolean>`(${sql.join(parts)}) ${descending ? sql`<` : sql`>`} (${sql.join(
        names.map((name, i) => sql`${last[name]}::${sql.raw(types[i]!)}`),
      )})`,
  };
}
