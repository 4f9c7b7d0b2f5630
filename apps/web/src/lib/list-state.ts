import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The state of a list the server pages, sorts and searches (contract: listQueryFields), kept in
 * the URL's query string so a reload or a shared link shows the same page:
 *
 *   page   1-based page number (absent on page 1)
 *   sort   one of the list's sortable fields, order asc|desc (absent: the list's default)
 *   q      the search text, written 300 ms after the last keystroke
 *   …      the screen's own filters, under their own names (status, organization_id, …)
 *
 * Changing the search, a filter or the sort goes back to page 1. Parameters the list does not own
 * (a screen's tab, say) are left as they are.
 */

export type SortOrder = 'asc' | 'desc';

export const SEARCH_DEBOUNCE_MS = 300;

const PAGE = 'page';
const SORT = 'sort';
const ORDER = 'order';
const SEARCH = 'q';

/** Parameters to set (a string) or remove (null or ''). */
export type ParamChanges = Record<string, string | null | undefined>;

/** What a table needs to show and change its page and sort. */
export interface TableState {
  /** 0-based. */
  pageIndex: number;
  pageSize: number;
  setPage(pageIndex: number): void;
  /** Columns whose id is one of these sort on the server; the others do not sort. */
  sortFields: readonly string[];
  sort: string | undefined;
  order: SortOrder;
  /** `undefined` goes back to the list's default order. */
  setSort(sort: string | undefined, order: SortOrder): void;
}

export interface ListQuery<Sort extends string> {
  limit: number;
  offset: number;
  sort?: Sort;
  order?: SortOrder;
  q?: string;
}

/** A screen's filters: URL parameter → whether a value is acceptable (others are ignored). */
export type FilterSpec = Record<string, (value: string) => boolean>;

/** The filters' values: a type guard's type (oneOf), else text. */
export type FilterValues<F extends FilterSpec> = {
  [K in keyof F]?: F[K] extends ((value: string) => value is infer V extends string) ? V : string;
};

export interface ListState<Sort extends string, F extends FilterSpec> extends TableState {
  sort: Sort | undefined;
  setSort(sort: Sort | undefined, order: SortOrder): void;
  /** The search the list was asked for (the URL's `q`). */
  q: string;
  /** The search box's text, ahead of `q` while the user types. */
  search: string;
  setSearch(text: string): void;
  /** The filters present in the URL with an acceptable value. */
  filters: FilterValues<F>;
  /** Sets or removes filters, back to page 1. */
  setFilters(changes: { [K in keyof F]?: string | null }): void;
  /** Any other parameters of the screen (`resetList` also clears page, sort and search). */
  setParams(changes: ParamChanges, options?: { resetList?: boolean; replace?: boolean }): void;
  /** True when a search or a filter narrows the list. */
  filtered: boolean;
  /** limit, offset, sort, order and q for the list's endpoint. */
  query: ListQuery<Sort>;
}

export interface ListStateOptions<Sort extends string, F extends FilterSpec> {
  pageSize: number;
  sortFields: readonly Sort[];
  /** The order the server uses when asked for none: the table shows it as sorted so. */
  defaultSort?: { sort: Sort; order: SortOrder };
  filters?: F;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Filter validators for the usual kinds of value. */
export const isUuid = (value: string) => UUID.test(value);
export const isIsoDay = (value: string) => DAY.test(value) && !Number.isNaN(Date.parse(value));
export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: string): value is T =>
    (values as readonly string[]).includes(value);

/**
 * A search box's text, typing ahead of the search the list was asked for (`q`): `commit` gets the
 * trimmed text 300 ms after the last keystroke. A `q` changed by other means (back, a link, a
 * reset) shows in the box.
 */
function useDebouncedSearch(
  q: string,
  commit: (text: string) => void,
): [search: string, setSearch: (text: string) => void] {
  const [search, setSearch] = useState(q);
  const committed = useRef(q);
  useEffect(() => {
    if (q !== committed.current) {
      committed.current = q;
      setSearch(q);
    }
  }, [q]);
  useEffect(() => {
    const text = search.trim();
    if (text === committed.current) return;
    const timer = setTimeout(() => {
      committed.current = text;
      commit(text);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, commit]);
  return [search, setSearch];
}

/** Where a list's page, sort and search are held (the URL, or the component). */
interface HeldListState<Sort extends string> {
  pageSize: number;
  sortFields: readonly Sort[];
  pageIndex: number;
  setPage(pageIndex: number): void;
  sort: Sort | undefined;
  order: SortOrder;
  setSort(sort: Sort | undefined, order: SortOrder): void;
  q: string;
  /** Takes the search box's text, once typing has paused. */
  commitSearch(text: string): void;
}

/**
 * What every list state builds on the page, sort and search it holds: the search box typing ahead
 * of `q`, and limit, offset, sort, order and q for the list's endpoint.
 */
function useHeldList<Sort extends string>(held: HeldListState<Sort>) {
  // Picked one by one: the caller may hand in more (its options) than the state it returns.
  const { pageSize, sortFields, pageIndex, setPage, sort, order, setSort, q, commitSearch } = held;
  const [search, setSearch] = useDebouncedSearch(q, commitSearch);
  const query = useMemo<ListQuery<Sort>>(
    () => ({
      limit: pageSize,
      offset: pageIndex * pageSize,
      ...(sort ? { sort, order } : {}),
      ...(q ? { q } : {}),
    }),
    [pageSize, pageIndex, sort, order, q],
  );
  return {
    pageSize,
    sortFields,
    pageIndex,
    setPage,
    sort,
    order,
    setSort,
    q,
    search,
    setSearch,
    query,
  };
}

/**
 * The URL's query string and a writer of changes to it: a change builds on the newest parameters,
 * even two in one event or one from a timer, and a change that changes nothing is not written.
 */
export function useParamWriter() {
  const [searchParams, setSearchParams] = useSearchParams();
  // Kept in render (not an effect): the effects of the tables below run first and may write already.
  const latest = useRef(searchParams);
  latest.current = searchParams;
  const setSearchParamsRef = useRef(setSearchParams);
  setSearchParamsRef.current = setSearchParams;
  const write = useCallback(
    (changes: ParamChanges, navigate: { replace?: boolean; state?: unknown } = {}) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null || value === undefined || value === '') next.delete(key);
        else next.set(key, value);
      }
      if (next.toString() === latest.current.toString()) return;
      latest.current = next;
      setSearchParamsRef.current(next, navigate);
    },
    [],
  );
  return { searchParams, write };
}

/**
 * One setting of a screen that is not a list (the statistics period, say), kept in the URL like a
 * list's filters: a reload, back and a shared link show the same. The default leaves the URL
 * without the parameter; a value `accepts` refuses reads as the default.
 */
export function useUrlParam<T extends string>(
  name: string,
  accepts: (value: string) => value is T,
  fallback: T,
): [value: T, setValue: (value: T) => void] {
  const { searchParams, write } = useParamWriter();
  const raw = searchParams.get(name);
  const value = raw !== null && accepts(raw) ? raw : fallback;
  const setValue = useCallback(
    (next: T) => write({ [name]: next === fallback ? null : next }),
    [write, name, fallback],
  );
  return [value, setValue];
}

export function useListState<Sort extends string, F extends FilterSpec = Record<never, never>>(
  options: ListStateOptions<Sort, F>,
): ListState<Sort, F> {
  const { sortFields, defaultSort } = options;
  const { searchParams, write } = useParamWriter();

  const pageNumber = Number.parseInt(searchParams.get(PAGE) ?? '', 10);
  const pageIndex = Number.isFinite(pageNumber) && pageNumber > 1 ? pageNumber - 1 : 0;
  const sortParam = searchParams.get(SORT);
  const explicitSort = sortFields.find((field) => field === sortParam);
  const orderParam = searchParams.get(ORDER);
  const sort = explicitSort ?? defaultSort?.sort;
  const order: SortOrder =
    orderParam === 'asc' || orderParam === 'desc'
      ? orderParam
      : explicitSort
        ? 'asc'
        : (defaultSort?.order ?? 'asc');
  const q = (searchParams.get(SEARCH) ?? '').trim();

  const filterSpec = options.filters;
  const filterKey = filterSpec
    ? Object.keys(filterSpec)
        .map((name) => `${name}=${searchParams.get(name) ?? ''}`)
        .join('&')
    : '';
  const filters = useMemo(() => {
    const result: Record<string, string> = {};
    for (const [name, accepts] of Object.entries(filterSpec ?? {})) {
      const value = searchParams.get(name);
      if (value && accepts(value)) result[name] = value;
    }
    // Each value passed its filter's check: it has the type FilterValues gives it.
    return result as FilterValues<F>;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the filters change when their parameters do (filterKey), not with every render's new search params
  }, [filterKey]);

  // The search box types ahead of the URL; the URL follows 300 ms after the last keystroke.
  const commitSearch = useCallback(
    (text: string) => write({ [SEARCH]: text, [PAGE]: null }, { replace: true }),
    [write],
  );
  const setPage = useCallback(
    (index: number) => write({ [PAGE]: index > 0 ? String(index + 1) : null }),
    [write],
  );
  const setSort = useCallback(
    (field: Sort | undefined, direction: SortOrder) => {
      // The default order needs no parameters: the link stays short.
      const isDefault = !field || (field === defaultSort?.sort && direction === defaultSort.order);
      write({
        [SORT]: isDefault ? null : field,
        [ORDER]: isDefault ? null : direction,
        [PAGE]: null,
      });
    },
    [write, defaultSort?.sort, defaultSort?.order],
  );
  const setFilters = useCallback(
    (changes: { [K in keyof F]?: string | null }) =>
      write({ ...(changes as ParamChanges), [PAGE]: null }),
    [write],
  );
  const setParams = useCallback(
    (changes: ParamChanges, how: { resetList?: boolean; replace?: boolean } = {}) =>
      write(
        how.resetList
          ? { [PAGE]: null, [SORT]: null, [ORDER]: null, [SEARCH]: null, ...changes }
          : changes,
        { replace: how.replace },
      ),
    [write],
  );

  const held = useHeldList({
    ...options,
    pageIndex,
    setPage,
    sort,
    order,
    setSort,
    q,
    commitSearch,
  });
  return {
    ...held,
    filters,
    setFilters,
    setParams,
    filtered: Boolean(q) || Object.keys(filters).length > 0,
  };
}

/**
 * A page past the end (the last rows were deleted, or the link is old) moves to the last page
 * that exists. `rowCount` is the page's rows, `total` the list's.
 */
export function useKeepPageInRange(
  state: Pick<TableState, 'pageIndex' | 'pageSize' | 'setPage'>,
  rowCount: number,
  total: number | undefined,
) {
  const { pageIndex, pageSize, setPage } = state;
  useEffect(() => {
    if (total === undefined || rowCount > 0 || pageIndex === 0) return;
    setPage(Math.max(0, Math.ceil(total / pageSize) - 1));
  }, [rowCount, total, pageIndex, pageSize, setPage]);
}

export interface LocalListState<Sort extends string> extends TableState {
  sort: Sort | undefined;
  setSort(sort: Sort | undefined, order: SortOrder): void;
  q: string;
  search: string;
  setSearch(text: string): void;
  /** True while the list shows its default view: first page, default order, no search. */
  atStart: boolean;
  query: ListQuery<Sort>;
}

/**
 * The same state as useListState, held by the component instead of the URL: for a table inside a
 * screen that shows several at once (one per expanded scenario, say), which a link need not keep.
 */
export function useLocalListState<Sort extends string>(
  options: Omit<ListStateOptions<Sort, never>, 'filters'>,
): LocalListState<Sort> {
  const { defaultSort } = options;
  const [pageIndex, setPage] = useState(0);
  const [sorting, setSorting] = useState<{ sort?: Sort; order: SortOrder }>({
    sort: defaultSort?.sort,
    order: defaultSort?.order ?? 'asc',
  });
  const [q, setQ] = useState('');
  const commitSearch = useCallback((text: string) => {
    setQ(text);
    setPage(0);
  }, []);
  const setSort = useCallback(
    (sort: Sort | undefined, order: SortOrder) => {
      setSorting(
        sort ? { sort, order } : { sort: defaultSort?.sort, order: defaultSort?.order ?? 'asc' },
      );
      setPage(0);
    },
    [defaultSort?.sort, defaultSort?.order],
  );
  const { sort, order } = sorting;
  const held = useHeldList({
    ...options,
    pageIndex,
    setPage,
    sort,
    order,
    setSort,
    q,
    commitSearch,
  });
  return {
    ...held,
    atStart:
      pageIndex === 0 &&
      !q &&
      sort === defaultSort?.sort &&
      order === (defaultSort?.order ?? 'asc'),
  };
}

/** Where a list paged by cursor stands, and how to move: useCursorPages. */
export interface CursorPages {
  /** True on the newest page (no cursor). */
  atNewest: boolean;
  /** A page newer than this one is known (paged to in this visit). */
  hasNewer: boolean;
  showNewest: () => void;
  showNewer: () => void;
  showOlder: (nextCursor: string) => void;
  /** Forgets the newer pages: a change of filters starts the list again from the top. */
  forgetNewer: () => void;
}

/**
 * Paging by cursor, newest first, the page's cursor kept in the URL (`cursor`, written by
 * `writeCursor`): a list that only grows would shift under offsets. Older follows the page's
 * next_cursor, Newer goes back to the cursor it came from (remembered for this visit), Newest starts
 * again from the top. A page opened from a link knows no newer cursor.
 */
export function useCursorPages(
  cursor: string | undefined,
  writeCursor: (cursor: string | null) => void,
): CursorPages {
  // The cursors of the pages before this one in this visit, the newest first.
  const [newer, setNewer] = useState<Array<string | undefined>>([]);

  // Back in the browser lands on the page a Newer click would: that cursor leaves the stack.
  useEffect(() => {
    if (!cursor) {
      setNewer([]);
      return;
    }
    setNewer((stack) =>
      stack.length > 0 && stack[stack.length - 1] === cursor ? stack.slice(0, -1) : stack,
    );
  }, [cursor]);

  const showOlder = useCallback(
    (nextCursor: string) => {
      setNewer((stack) => [...stack, cursor]);
      writeCursor(nextCursor);
    },
    [cursor, writeCursor],
  );
  const showNewer = useCallback(() => {
    const previous = newer[newer.length - 1];
    setNewer(newer.slice(0, -1));
    writeCursor(previous ?? null);
  }, [newer, writeCursor]);
  const showNewest = useCallback(() => {
    setNewer([]);
    writeCursor(null);
  }, [writeCursor]);
  const forgetNewer = useCallback(() => setNewer([]), []);

  return {
    atNewest: !cursor,
    hasNewer: Boolean(cursor) && newer.length > 0,
    showNewest,
    showNewer,
    showOlder,
    forgetNewer,
  };
}
