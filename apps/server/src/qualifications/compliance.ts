import { Readable } from 'node:stream';
import {
  COMPLIANCE_CSV_COLUMNS,
  CSV_BOM,
  csvLocalDateTime,
  csvSeparator,
  csvText,
  csvTimeHeading,
  csvYesNo,
  neutralizeCsvCell,
  QUALIFICATION_STATUS_LABELS,
  QUALIFICATION_STATUSES,
  safeFileNamePart,
  type ComplianceExportQuery,
  type CompliancePage,
  type ComplianceQuery,
  type ComplianceRow,
  type CsvReader,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import {
  containsPattern,
  hasSearch,
  inListOrder,
  pageOf,
  pageRead,
} from '../platform/database/paging.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { isoOrNull } from '../platform/service/serialize.ts';
import {
  complianceOrderSql,
  derivedSql,
  keysetSql,
  matchingSql,
  type ComplianceFilters,
  type DerivedRow,
} from './compliance-sql.ts';
import { pageByValidUntil } from './compliance-expiry.ts';
import { countRows } from './compliance-totals.ts';
import { awardKey, certificateCodes } from './standing.ts';

/**
 * The compliance view (GET /v1/compliance): every assignment of an active qualification with the
 * trainee's status at `as_of` (default now), derived from the record at that moment in SQL
 * (compliance-sql.ts). Totals count the rows matching every filter but status and overdue, so
 * each can be chosen from them.
 */

/**
 * A status filter matching few rows reads the rows of that kind of pieces and sorts them rather
 * than walking the trainees in order: a status held by a handful (revoked) would walk every
 * trainee for its page. Chosen when the matching rows are fewer than the walk would read (the
 * page's end over their share of all rows), and at most this many.
 */
const SPARSE_ROWS = 2000;

/** The rows the status filter keeps, and the rows of every status (the totals' sum). */
interface Counted {
  matching: number;
  all: number;
}

const isSparse = (query: ComplianceFilters, read: { limit: number; offset: number }, n?: Counted) =>
  query.status !== undefined &&
  n !== undefined &&
  n.matching <= SPARSE_ROWS &&
  n.matching * n.matching < (read.offset + read.limit) * n.all;

/** The matching rows in the list's order, `limit` of them from `offset`. */
async function pageOfRows(
  db: Db | Tx,
  caller: Caller,
  query: ComplianceFilters,
  t: Date,
  read: { limit: number; offset: number; reversed: boolean },
  counted?: Counted,
): Promise<DerivedRow[]> {
  const sparse = isSparse(query, read, counted);
  if ((query.sort ?? 'vr_user_name') === 'vr_user_name' && !sparse)
    return inListOrder(await pageByTrainee(db, caller, query, t, read), read);
  if (query.sort === 'valid_until') {
    const rows = await pageByValidUntil(db, caller.organizationId, query, t, read);
    if (rows) return rows;
  }
  const { rows } = await sql<DerivedRow>`
    SELECT d.* FROM (${derivedSql(caller.organizationId, query, t)}) d
    WHERE ${matchingSql(query)}
    ORDER BY ${complianceOrderSql(query, read.reversed)}
    LIMIT ${read.limit} OFFSET ${read.offset}`.execute(db);
  return inListOrder(rows, read);
}

/**
 * The page in the trainees' order, read along their name index (vr_users_organization_name_idx):
 * each trainee's rows are derived in turn, and the read stops once the page is full, however
 * many rows the organisation has. Names are never NULL, so the index's own order of NULLs is the
 * list's.
 */
async function pageByTrainee(
  db: Db | Tx,
  caller: Caller,
  query: ComplianceFilters,
  t: Date,
  read: { limit: number; offset: number; reversed: boolean },
): Promise<DerivedRow[]> {
  const direction = (query.order === 'desc') !== read.reversed ? sql`DESC` : sql`ASC`;
  const conditions = [sql`v.organization_id = ${caller.organizationId}`];
  if (hasSearch(query.q)) conditions.push(sql`v.name ILIKE ${containsPattern(query.q)}`);
  if (query.vr_user_id) conditions.push(sql`v.id = ${query.vr_user_id}`);
  const { rows } = await sql<DerivedRow>`
    SELECT d.* FROM vr_users v
      CROSS JOIN LATERAL (${derivedSql(caller.organizationId, query, t, { outerTrainee: true })}) d
    WHERE ${sql.join(conditions, sql` AND `)} AND ${matchingSql(query)}
    ORDER BY lower(v.name) ${direction}, d.qualification_sort ${direction}, v.id ${direction},
      d.qualification_id ${direction}
    LIMIT ${read.limit} OFFSET ${read.offset}`.execute(db);
  return rows;
}

const dateOrNull = (value: Date | string | null) => (value === null ? null : new Date(value));

const CODES_BATCH = 500;

/** Certificate codes of the rows' awards (made the first time an award is derived). */
async function toComplianceRows(
  db: Db | Tx,
  caller: Caller,
  rows: DerivedRow[],
): Promise<ComplianceRow[]> {
  const awards = rows
    .filter((row) => row.earned_at !== null)
    .map((row) => ({
      vrUserId: row.vr_user_id,
      qualificationId: row.qualification_id,
      earnedAt: new Date(row.earned_at!),
    }));
  // A few hundred awards per statement: each is one term of the codes' lookup.
  const codes = new Map<string, string>();
  for (let start = 0; start < awards.length; start += CODES_BATCH) {
    const batch = awards.slice(start, start + CODES_BATCH);
    for (const [key, code] of await certificateCodes(db, caller.organizationId, batch))
      codes.set(key, code);
  }
  return rows.map((row) => {
    const earnedAt = dateOrNull(row.earned_at);
    return {
      vr_user_id: row.vr_user_id,
      vr_user_name: row.vr_user_name,
      qualification_id: row.qualification_id,
      qualification_name: row.qualification_name,
      status: row.status,
      earned_at: isoOrNull(earnedAt),
      valid_until: isoOrNull(dateOrNull(row.valid_until)),
      due_at: isoOrNull(dateOrNull(row.due_at)),
      overdue: row.overdue,
      certificate_code: earnedAt
        ? (codes.get(
            awardKey({
              vrUserId: row.vr_user_id,
              qualificationId: row.qualification_id,
              earnedAt,
            }),
          ) ?? null)
        : null,
    };
  });
}

export async function listCompliance(
  ctx: ServiceContext,
  caller: Caller,
  query: ComplianceQuery,
): Promise<CompliancePage> {
  const t = query.as_of ? new Date(query.as_of) : ctx.clock.now();
  const page = pageOf(query);
  // The totals and the page are two reads of the same rows: asked together, on two connections
  // when the pool has them. With a status or overdue filter the totals come first: a page of
  // rows that match nothing (or that the count says lie past the end) is never walked for.
  const filtered = query.status !== undefined || query.overdue !== undefined;
  const [{ totals, matching }, firstRows] = await Promise.all([
    countRows(ctx.db, caller.organizationId, query, t),
    page.offset === 0 && !filtered
      ? pageOfRows(ctx.db, caller, query, t, { ...page, reversed: false })
      : undefined,
  ]);
  const rows =
    firstRows ??
    (page.offset >= matching
      ? []
      : await pageOfRows(ctx.db, caller, query, t, pageRead(page, matching), {
          matching,
          all: QUALIFICATION_STATUSES.reduce((sum, status) => sum + totals[status], 0),
        }));
  return {
    rows: await toComplianceRows(ctx.db, caller, rows),
    totals,
    as_of: t.toISOString(),
    total: matching,
    ...page,
  };
}

/** Rows per read of the export: its memory is one batch's rows and text, whatever the total. */
const EXPORT_BATCH = 5000;

/** The matching rows in the list's order after `last`, read by keyset (keysetSql). */
async function exportBatch(
  db: Db | Tx,
  caller: Caller,
  query: ComplianceFilters,
  t: Date,
  last: Record<string, unknown> | undefined,
) {
  const keyset = keysetSql(query);
  const { rows } = await sql<DerivedRow & Record<string, unknown>>`
    SELECT d.*, ${keyset.select} FROM (${derivedSql(caller.organizationId, query, t)}) d
    WHERE ${matchingSql(query)} ${last ? sql`AND ${keyset.after(last)}` : sql``}
    ORDER BY ${keyset.order}
    LIMIT ${EXPORT_BATCH}`.execute(db);
  return rows;
}

/** The columns' headings: date columns name the reader's offset; Russian for no reader. */
function complianceHeadings(reader: CsvReader | null): string[] {
  const headings: string[] = [...COMPLIANCE_CSV_COLUMNS[reader?.language ?? 'ru']];
  if (!reader) return headings;
  // Earned at, valid until, due at: date-times in the reader's offset.
  return headings.map((heading, i) =>
    i >= 3 && i <= 5 ? csvTimeHeading(heading, reader) : heading,
  );
}

/** One row's cells: words in the reader's language, times local; as it always was for none. */
function complianceCells(row: ComplianceRow, reader: CsvReader | null) {
  const language = reader?.language ?? 'ru';
  const time = (iso: string | null) => (reader ? csvLocalDateTime(iso, reader) : iso);
  return [
    row.vr_user_name,
    row.qualification_name,
    QUALIFICATION_STATUS_LABELS[language][row.status],
    time(row.earned_at),
    time(row.valid_until),
    time(row.due_at),
    csvYesNo(row.overdue, language),
    row.certificate_code,
  ].map(neutralizeCsvCell);
}

/**
 * The compliance view as CSV, every matching row, read and written a batch at a time, for its
 * reader (csv-reader.ts): a client naming no language gets the file as it always was.
 */
export async function exportCompliance(
  ctx: ServiceContext,
  caller: Caller,
  query: ComplianceExportQuery,
  reader: CsvReader | null = null,
): Promise<{ fileName: string; stream: Readable }> {
  const t = query.as_of ? new Date(query.as_of) : ctx.clock.now();
  const separator = csvSeparator(reader);
  async function* lines() {
    yield `${CSV_BOM}${csvText([complianceHeadings(reader)], separator)}`;
    let last: Record<string, unknown> | undefined;
    for (;;) {
      const derived = await exportBatch(ctx.db, caller, query, t, last);
      const batch = await toComplianceRows(ctx.db, caller, derived);
      yield csvText(
        batch.map((row) => complianceCells(row, reader)),
        separator,
      );
      if (derived.length < EXPORT_BATCH) return;
      last = derived.at(-1);
    }
  }
  const day = t.toISOString().slice(0, 10);
  const fileName = `compliance_${safeFileNamePart(caller.organizationName)}_${day}.csv`;
  return { fileName, stream: Readable.from(lines()) };
}
