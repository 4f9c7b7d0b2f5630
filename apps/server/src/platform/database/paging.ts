import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';

/** The paging part of a list query (contract: listQueryFields). */
export interface ListQuery<Field extends string> {
  limit?: number;
  offset?: number;
  sort?: Field;
  order?: 'asc' | 'desc';
  q?: string;
}

export interface Page {
  limit: number;
  offset: number;
}

export function pageOf(query: { limit?: number; offset?: number }, defaultLimit = 50): Page {
  return { limit: query.limit ?? defaultLimit, offset: query.offset ?? 0 };
}

/**
 * ORDER BY for a list: the chosen column (or the list's default), then `tiebreak` columns in the
 * same direction, so rows that sort equal keep one order and pages never overlap. Text columns
 * sort case-insensitively when their expression says so (lower(name)).
 */
export function orderBySql<Field extends string>(
  query: ListQuery<Field>,
  columns: Record<Field, RawBuilder<unknown>>,
  defaultField: Field,
  tiebreak: RawBuilder<unknown>[],
  /** The exact reverse of the list's order (a page read from the far end, see pageRead). */
  reversed = false,
): RawBuilder<unknown> {
  const descending = (query.order === 'desc') !== reversed;
  const direction = descending ? sql`DESC` : sql`ASC`;
  // NULLs (never seen, no session yet) come last either way: they are the least informative.
  const nulls = reversed ? sql`NULLS FIRST` : sql`NULLS LAST`;
  const keys = [columns[query.sort ?? defaultField], ...tiebreak];
  return sql.join(
    keys.map((key) => sql`${key} ${direction} ${nulls}`),
    sql`, `,
  );
}

/** How to read a page: from the list's start, or from its end in reverse. */
export interface PageRead {
  limit: number;
  offset: number;
  /** Read in the reverse order; the rows read then go back into the list's order. */
  reversed: boolean;
}

/**
 * Offset paging costs the rows it skips. A page past the middle of its list is read from the far
 * end instead, in the reverse order: offset 90,000 of 100,000 skips 9,990 index entries, not
 * 90,000, and no page skips more than half the list. `total` must count exactly the rows the page
 * is chosen from.
 */
export function pageRead(page: Page, total: number): PageRead {
  const fromEnd = total - page.offset - page.limit;
  if (page.offset >= total || page.offset <= fromEnd) return { ...page, reversed: false };
  return {
    limit: Math.min(page.limit, total - page.offset),
    offset: Math.max(0, fromEnd),
    reversed: true,
  };
}

/** The rows of a page read by `pageRead`, in the list's order. */
export const inListOrder = <Row>(rows: Row[], read: PageRead): Row[] =>
  read.reversed ? rows.reverse() : rows;

/** `q` as a case-insensitive substring pattern, with LIKE's wildcards taken literally. */
export function containsPattern(q: string): string {
  return `%${q.trim().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** True when the search text has anything to match. */
export const hasSearch = (q: string | undefined): q is string => !!q && q.trim().length > 0;

/**
 * The rows matching `matching` (a query before its select list) and the total over all pages: the
 * page's rows carry it in a `count(*) OVER ()` column; an empty page past the end counts apart.
 */
export async function totalOf<DB, TB extends keyof DB>(
  rows: Array<{ total: number | string }>,
  page: Page,
  matching: SelectQueryBuilder<DB, TB, object>,
): Promise<number> {
  if (rows.length > 0) return Number(rows[0]!.total);
  if (page.offset === 0) return 0;
  return countRows(matching);
}

/** How many rows `matching` (a query before its select list) selects. */
export async function countRows<DB, TB extends keyof DB>(
  matching: SelectQueryBuilder<DB, TB, object>,
): Promise<number> {
  const counted = (await matching.select(sql<string>`count(*)`.as('count')).executeTakeFirst()) as
    { count: string } | undefined;
  return Number(counted?.count ?? 0);
}

/** The window column that carries the total on every row of a page. */
export const totalColumn = () => sql<number>`count(*) OVER ()`.as('total');

/** Where a list read newest first by (time, id) goes on: after the last row shown. */
export interface Keyset {
  at: Date;
  id: string;
}

/** A cursor: the last row's time and id, opaque to clients. */
export const encodeCursor = (position: Keyset): string =>
  Buffer.from(`${position.at.toISOString()}|${position.id}`).toString('base64url');

/** The position a cursor names; undefined when it is not one a list answered. */
export function decodeCursor(cursor: string): Keyset | undefined {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const time = at ? new Date(at) : undefined;
  if (!time || Number.isNaN(time.getTime()) || !id || !/^[0-9a-f-]{36}$/i.test(id)) {
    return undefined;
  }
  return { at: time, id };
}

/** The rows after `position` of a list newest first by (timeColumn, id). */
export const afterKeyset = (timeColumn: string, position: Keyset) =>
  sql<boolean>`(${sql.ref(timeColumn)}, id) < (${position.at}, ${position.id}::uuid)`;

/** The order of a list read by keyset: newest first, the id breaking ties. */
export const newestFirst = (timeColumn: string) => sql`${sql.ref(timeColumn)} DESC, id DESC`;

/**
 * One page of a list newest first by (timeColumn, id), from the cursor on: one row more than the
 * page is read, to know whether another page follows. Undefined when the cursor is not one a
 * list answered (the caller refuses it as bad input).
 */
export async function readKeysetPage<DB, TB extends keyof DB, Row extends { id: string }>(
  query: SelectQueryBuilder<DB, TB, Row>,
  page: { timeColumn: string; cursor?: string; limit: number },
  positionOf: (row: Row) => Keyset,
): Promise<{ rows: Row[]; nextCursor: string | null } | undefined> {
  let rows = query;
  if (page.cursor) {
    const after = decodeCursor(page.cursor);
    if (!after) return undefined;
    rows = rows.where(afterKeyset(page.timeColumn, after));
  }
  const read = (await rows
    .orderBy(newestFirst(page.timeColumn))
    .limit(page.limit + 1)
    .execute()) as Row[];
  const more = read.length > page.limit;
  const shown = more ? read.slice(0, page.limit) : read;
  return { rows: shown, nextCursor: more ? encodeCursor(positionOf(shown.at(-1)!)) : null };
}
