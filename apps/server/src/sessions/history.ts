import { Readable } from 'node:stream';
import {
  CSV_BOM,
  addDays,
  parseIsoDate,
  SESSION_LIST_DEFAULT_LIMIT,
  csvRecord,
  csvSeparator,
  csvText,
  historyCsvHeadings,
  historyCsvRow,
  type CsvReader,
  safeFileNamePart,
  type SessionExportQuery,
  type SessionList,
  type SessionListQuery,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import type { Db } from '../platform/database/db.ts';
import { AppError } from '../platform/service/errors.ts';
import { countRows, inListOrder, pageOf, pageRead } from '../platform/database/paging.ts';
import { toHistorySession } from './sessions.service.ts';

/**
 * The History tab: an organisation's sessions, newest first, filtered as the tab and its export
 * allow. Every read is served by an index on (organization_id, [status,] started_at DESC, id DESC):
 * a page reads its rows only, however deep (the ids come from the index, the rows after), and the
 * total comes from the daily rollup when the filters allow, else from an indexed count.
 */

type SessionFilter = SessionExportQuery;

function checkDays(filter: SessionFilter) {
  if (filter.from && filter.to && filter.from > filter.to) {
    throw new AppError('validation_error', 'querystring.from must not be after to', {
      details: { field: 'from' },
    });
  }
}

/** The organisation's sessions matching the filters (ended ones when no status is given). */
function matching(db: Db, caller: Caller, filter: SessionFilter) {
  let query = db.selectFrom('sessions as s').where('s.organization_id', '=', caller.organizationId);
  query = filter.status
    ? query.where('s.status', '=', filter.status)
    : query.where('s.status', '<>', 'active');
  if (filter.from) query = query.where('s.started_at', '>=', parseIsoDate(filter.from));
  if (filter.to) {
    query = query.where('s.started_at', '<', addDays(parseIsoDate(filter.to), 1));
  }
  if (filter.vr_user_id) query = query.where('s.vr_user_id', '=', filter.vr_user_id);
  if (filter.device_id) query = query.where('s.device_id', '=', filter.device_id);
  if (filter.scenario_id) query = query.where('s.scenario_id', '=', filter.scenario_id);
  return query;
}

/**
 * How many sessions match: from the daily rollup when only status and days filter (exact, ~365
 * rows a year), else counted through the matching index.
 */
async function historyTotal(
  db: Db,
  caller: Caller,
  filter: SessionFilter,
  rows: ReturnType<typeof matching>,
): Promise<number> {
  if (filter.vr_user_id || filter.device_id || filter.scenario_id) return countRows(rows);
  const counted = filter.status ? sql.ref(`r.${filter.status}`) : sql`r.sessions - r.active`;
  let query = db
    .selectFrom('session_daily as r')
    .select(sql<string>`coalesce(sum(${counted}), 0)`.as('total'))
    .where('r.organization_id', '=', caller.organizationId);
  if (filter.from) query = query.where(sql`r.day`, '>=', sql`${filter.from}::date`);
  if (filter.to) query = query.where(sql`r.day`, '<=', sql`${filter.to}::date`);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.total);
}

export async function listHistory(
  ctx: ServiceContext,
  caller: Caller,
  query: SessionListQuery,
): Promise<SessionList> {
  checkDays(query);
  const page = pageOf(query, SESSION_LIST_DEFAULT_LIMIT);
  const filtered = matching(ctx.db, caller, query);
  const total = await historyTotal(ctx.db, caller, query, filtered);
  const read = pageRead(page, total);
  if (page.offset >= total) return { sessions: [], total, ...page };
  const descending = (query.order !== 'asc') !== read.reversed;
  const direction = descending ? sql`DESC` : sql`ASC`;
  // The page's ids from the index alone, then their rows: a deep offset skips index entries, not
  // table rows.
  const ids = filtered
    .select('s.id')
    .orderBy(sql`s.started_at ${direction}, s.id ${direction}`)
    .limit(read.limit)
    .offset(read.offset)
    .as('page');
  const rows = await ctx.db
    .selectFrom(ids)
    .innerJoin('sessions', 'sessions.id', 'page.id')
    .selectAll('sessions')
    .orderBy(sql`sessions.started_at ${direction}, sessions.id ${direction}`)
    .execute();
  return { sessions: inListOrder(rows, read).map(toHistorySession), total, ...page };
}

/** A timestamp as the API writes it (ISO 8601, UTC, milliseconds), formatted by the database. */
const isoText = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * What the History CSV is made of (HistoryCsvSession), and the keyset's id. Timestamps come as
 * text: a Date parsed and formatted again per row was a fifth of the export's garbage.
 */
const EXPORT_COLUMNS = [
  's.id',
  's.vr_user_name',
  's.device_name',
  's.scenario_name',
  's.module_name',
  's.level_name',
  's.scenario_name_en',
  's.module_name_en',
  's.level_name_en',
  's.status',
  's.completed_tasks',
  's.max_tasks as total_tasks',
  's.duration_seconds',
  's.started_by_email',
  isoText('s.started_at').as('started_at'),
  isoText('s.ended_at').as('ended_at'),
  's.success',
  's.late_result',
  's.level_revision',
] as const;

/** Rows fetched per round trip while exporting: memory stays flat whatever the history's size. */
const EXPORT_BATCH = 1000;
/**
 * Rows per piece of text written: about 45 KB, under V8's large-object size, so a written piece is
 * young garbage, collected at once, not old garbage left for the next full collection.
 */
const EXPORT_CHUNK = 250;

function exportFileName(caller: Caller, filter: SessionFilter, today: string): string {
  const parts = [
    'sessions',
    safeFileNamePart(caller.organizationName),
    today,
    filter.status,
    filter.from || filter.to ? `${filter.from ?? ''}..${filter.to ?? ''}` : undefined,
    filter.vr_user_id ? 'vr-user' : undefined,
    filter.device_id ? 'headset' : undefined,
    filter.scenario_id ? 'scenario' : undefined,
  ];
  return `${parts.filter(Boolean).join('_')}.csv`;
}

/** One batch of the History CSV after the session `afterId` (from the start when absent). */
async function exportBatch(
  db: Db,
  caller: Caller,
  filter: SessionFilter,
  afterId: string | undefined,
  firstNumber: number,
  reader: CsvReader | null,
): Promise<{ chunks: string[]; rows: number; lastId: string | undefined }> {
  const separator = csvSeparator(reader);
  let batch = matching(db, caller, filter);
  if (afterId) {
    // The last row's own timestamp, read by the database: exact to the microsecond, which a
    // JavaScript Date is not (a bulk import stamps many sessions within one millisecond).
    const at = db.selectFrom('sessions').select('started_at').where('id', '=', afterId);
    batch = batch
      .where('s.started_at', '<=', at)
      .where((eb) => eb.or([eb('s.started_at', '<', at), eb('s.id', '<', afterId)]));
  }
  // Only the file's columns: not a whole row's options parsed from JSON, ids and the rest.
  const rows = await batch
    .select(EXPORT_COLUMNS)
    .orderBy('s.started_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(EXPORT_BATCH)
    .execute();
  const chunks: string[] = [];
  for (let start = 0; start < rows.length; start += EXPORT_CHUNK) {
    const records = rows
      .slice(start, start + EXPORT_CHUNK)
      .map((row, i) =>
        csvRecord(historyCsvRow(row, firstNumber + start + i + 1, reader), separator),
      );
    chunks.push(`${records.join('\r\n')}\r\n`);
  }
  return { chunks, rows: rows.length, lastId: rows.at(-1)?.id };
}

/**
 * The History CSV of every session matching the filters, newest first, as the specification
 * defines the file (byte-order mark, its 16 columns and the late-result mark, formula-safe cells), streamed in batches read
 * by keyset from the history index: constant memory, whatever the number of rows. The generator
 * holds a batch's text alone while the response drains, never its rows.
 */
export async function exportHistory(
  ctx: ServiceContext,
  caller: Caller,
  filter: SessionExportQuery,
  reader: CsvReader | null = null,
): Promise<{ fileName: string; stream: Readable }> {
  checkDays(filter);
  const separator = csvSeparator(reader);
  const fileName = exportFileName(caller, filter, ctx.clock.now().toISOString().slice(0, 10));
  const db = ctx.db;
  async function* lines() {
    yield `${CSV_BOM}${csvText([historyCsvHeadings(reader)], separator)}`;
    let afterId: string | undefined;
    let written = 0;
    for (;;) {
      const batch = await exportBatch(db, caller, filter, afterId, written, reader);
      if (batch.rows === 0) return;
      written += batch.rows;
      afterId = batch.lastId;
      yield* batch.chunks;
      if (batch.rows < EXPORT_BATCH) return;
    }
  }
  return { fileName, stream: Readable.from(lines()) };
}
