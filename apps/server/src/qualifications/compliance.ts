import { Readable } from 'node:stream';
import {
  COMPLIANCE_CSV_COLUMNS,
  CSV_BOM,
  csvText,
  neutralizeCsvCell,
  QUALIFICATION_STATUS_LABELS,
  QUALIFICATION_STATUSES,
  safeFileNamePart,
  type ComplianceExportQuery,
  type CompliancePage,
  type ComplianceQuery,
  type ComplianceRow,
  type ComplianceTotals,
  type QualificationStatus,
} from '@vrtc/contract';
import type { Caller } from '../platform/http/caller.ts';
import { containsPattern, hasSearch, pageOf } from '../platform/database/paging.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { isoOrNull } from '../platform/service/serialize.ts';
import { isHeld, standingAt, type Standing } from './derive.ts';
import {
  awardKey,
  certificateCodes,
  pieceRecords,
  qualificationFacts,
  recordOf,
} from './standing.ts';

/**
 * The compliance view (GET /v1/compliance): every assignment of an active qualification with the
 * trainee's status at `as_of` (default now), derived from the record at that moment. Totals count
 * the rows matching every filter but status and overdue, so each can be chosen from them.
 */

interface Derived {
  vrUserId: string;
  vrUserName: string;
  qualificationId: string;
  qualificationName: string;
  dueAt: Date | null;
  standing: Standing;
  overdue: boolean;
}

type Filters = Omit<ComplianceQuery, 'limit' | 'offset'>;

async function derivedRows(ctx: ServiceContext, caller: Caller, query: Filters, t: Date) {
  let assignments = ctx.db
    .selectFrom('qualification_assignments as a')
    .innerJoin('qualifications as q', 'q.id', 'a.qualification_id')
    .innerJoin('vr_users as v', 'v.id', 'a.vr_user_id')
    .select([
      'a.vr_user_id',
      'a.qualification_id',
      'a.due_at',
      'v.name as vr_user_name',
      'q.name as qualification_name',
    ])
    .where('a.organization_id', '=', caller.organizationId)
    .where('q.archived_at', 'is', null);
  if (query.qualification_id)
    assignments = assignments.where('a.qualification_id', '=', query.qualification_id);
  if (query.vr_user_id) assignments = assignments.where('a.vr_user_id', '=', query.vr_user_id);
  if (hasSearch(query.q))
    assignments = assignments.where('v.name', 'ilike', containsPattern(query.q));
  const rows = await assignments.execute();
  const qualificationIds = [...new Set(rows.map((row) => row.qualification_id))];
  const facts = await qualificationFacts(ctx.db, caller.organizationId, qualificationIds);
  const records = await pieceRecords(
    ctx.db,
    caller.organizationId,
    [...new Set(rows.map((row) => row.vr_user_id))],
    qualificationIds,
    t,
  );
  return rows.map((row): Derived => {
    const requirement = facts.get(row.qualification_id)!.requirement;
    const standing = standingAt(
      requirement,
      recordOf(records, row.vr_user_id, row.qualification_id),
      t,
    );
    return {
      vrUserId: row.vr_user_id,
      vrUserName: row.vr_user_name,
      qualificationId: row.qualification_id,
      qualificationName: row.qualification_name,
      dueAt: row.due_at,
      standing,
      overdue: row.due_at !== null && row.due_at < t && !isHeld(standing.status),
    };
  });
}

function totalsOf(rows: Derived[]): ComplianceTotals {
  const totals = Object.fromEntries(QUALIFICATION_STATUSES.map((status) => [status, 0])) as Record<
    QualificationStatus,
    number
  >;
  for (const row of rows) totals[row.standing.status] += 1;
  return { ...totals, overdue: rows.filter((row) => row.overdue).length };
}

const STATUS_ORDER = new Map(QUALIFICATION_STATUSES.map((status, i) => [status, i]));
const time = (at: Date | null) => at?.getTime() ?? null;
const SORT_KEYS: Record<NonNullable<Filters['sort']>, (row: Derived) => string | number | null> = {
  vr_user_name: (row) => row.vrUserName.toLowerCase(),
  qualification_name: (row) => row.qualificationName.toLowerCase(),
  status: (row) => STATUS_ORDER.get(row.standing.status)!,
  valid_until: (row) => time(row.standing.validUntil),
  due_at: (row) => time(row.dueAt),
};

/** The list's order: the chosen key (nulls last either way), then trainee, qualification, ids. */
function sortRows(rows: Derived[], query: Filters): Derived[] {
  const key = SORT_KEYS[query.sort ?? 'vr_user_name'];
  const direction = query.order === 'desc' ? -1 : 1;
  const compare = (a: string, b: string) => (a === b ? 0 : a < b ? -1 : 1);
  return rows.sort((a, b) => {
    const [keyA, keyB] = [key(a), key(b)];
    if (keyA !== keyB) {
      if (keyA === null) return 1;
      if (keyB === null) return -1;
      return (keyA < keyB ? -1 : 1) * direction;
    }
    return (
      compare(a.vrUserName.toLowerCase(), b.vrUserName.toLowerCase()) ||
      compare(a.qualificationName.toLowerCase(), b.qualificationName.toLowerCase()) ||
      compare(a.vrUserId, b.vrUserId) ||
      compare(a.qualificationId, b.qualificationId)
    );
  });
}

async function complianceRows(ctx: ServiceContext, caller: Caller, query: Filters, t: Date) {
  const all = await derivedRows(ctx, caller, query, t);
  const totals = totalsOf(all);
  const matching = all.filter(
    (row) =>
      (!query.status || row.standing.status === query.status) &&
      (query.overdue === undefined || row.overdue === query.overdue),
  );
  return { totals, rows: sortRows(matching, query) };
}

/** Certificate codes of the rows' awards (made the first time an award is derived). */
async function toComplianceRows(
  ctx: ServiceContext,
  caller: Caller,
  rows: Derived[],
): Promise<ComplianceRow[]> {
  const awards = rows
    .filter((row) => row.standing.earnedAt)
    .map((row) => ({
      vrUserId: row.vrUserId,
      qualificationId: row.qualificationId,
      earnedAt: row.standing.earnedAt!,
    }));
  const codes = await certificateCodes(ctx.db, caller.organizationId, awards);
  return rows.map((row) => ({
    vr_user_id: row.vrUserId,
    vr_user_name: row.vrUserName,
    qualification_id: row.qualificationId,
    qualification_name: row.qualificationName,
    status: row.standing.status,
    earned_at: isoOrNull(row.standing.earnedAt),
    valid_until: isoOrNull(row.standing.validUntil),
    due_at: isoOrNull(row.dueAt),
    overdue: row.overdue,
    certificate_code: row.standing.earnedAt
      ? (codes.get(
          awardKey({
            vrUserId: row.vrUserId,
            qualificationId: row.qualificationId,
            earnedAt: row.standing.earnedAt,
          }),
        ) ?? null)
      : null,
  }));
}

export async function listCompliance(
  ctx: ServiceContext,
  caller: Caller,
  query: ComplianceQuery,
): Promise<CompliancePage> {
  const t = query.as_of ? new Date(query.as_of) : ctx.clock.now();
  const page = pageOf(query);
  const { totals, rows } = await complianceRows(ctx, caller, query, t);
  const pageRows = rows.slice(page.offset, page.offset + page.limit);
  return {
    rows: await toComplianceRows(ctx, caller, pageRows),
    totals,
    as_of: t.toISOString(),
    total: rows.length,
    ...page,
  };
}

const EXPORT_BATCH = 500;

/** The compliance view as CSV, every matching row, written a batch at a time. */
export async function exportCompliance(
  ctx: ServiceContext,
  caller: Caller,
  query: ComplianceExportQuery,
): Promise<{ fileName: string; stream: Readable }> {
  const t = query.as_of ? new Date(query.as_of) : ctx.clock.now();
  const lang = query.lang ?? 'ru';
  const { rows } = await complianceRows(ctx, caller, query, t);
  const labels = QUALIFICATION_STATUS_LABELS[lang];
  const yes = lang === 'ru' ? 'да' : 'yes';
  const no = lang === 'ru' ? 'нет' : 'no';
  async function* lines() {
    yield `${CSV_BOM}${csvText([COMPLIANCE_CSV_COLUMNS[lang]])}`;
    for (let start = 0; start < rows.length; start += EXPORT_BATCH) {
      const batch = await toComplianceRows(ctx, caller, rows.slice(start, start + EXPORT_BATCH));
      yield csvText(
        batch.map((row) =>
          [
            row.vr_user_name,
            row.qualification_name,
            labels[row.status],
            row.earned_at,
            row.valid_until,
            row.due_at,
            row.overdue ? yes : no,
            row.certificate_code,
          ].map(neutralizeCsvCell),
        ),
      );
    }
  }
  const day = t.toISOString().slice(0, 10);
  const fileName = `compliance_${safeFileNamePart(caller.organizationName)}_${day}.csv`;
  return { fileName, stream: Readable.from(lines()) };
}
