/**
 * A list endpoint as the server answers it, for the tests' fake servers: `q` matched
 * case-insensitively in the given fields, the filters applied, sorted by `sort`/`order` (nulls
 * last), then `limit`/`offset` (default 50/0); the rows under their key with total, limit, offset.
 */
export interface FakeListOptions<T> {
  /** Fields `q` is matched in. */
  search?: ReadonlyArray<keyof T>;
  /** The order without `sort`. */
  defaultSort?: keyof T;
  defaultOrder?: 'asc' | 'desc';
  /** Query parameter → whether a row passes the parameter's value. */
  filters?: Record<string, (row: T, value: string) => boolean>;
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a).localeCompare(String(b), 'en', { sensitivity: 'base' });
}

export function listAnswer<K extends string, T>(
  key: K,
  rows: readonly T[],
  url: URL,
  options: FakeListOptions<T> = {},
): Record<K, T[]> & { total: number; limit: number; offset: number } {
  const params = url.searchParams;
  const q = (params.get('q') ?? '').trim().toLocaleLowerCase();
  let matched = rows.filter(
    (row) =>
      !q ||
      (options.search ?? []).some((field) =>
        String(row[field] ?? '')
          .toLocaleLowerCase()
          .includes(q),
      ),
  );
  for (const [name, passes] of Object.entries(options.filters ?? {})) {
    const value = params.get(name);
    if (value) matched = matched.filter((row) => passes(row, value));
  }
  const sort = (params.get('sort') as keyof T | null) ?? options.defaultSort;
  const order = params.get('order') ?? options.defaultOrder ?? 'asc';
  if (sort) {
    matched = [...matched].sort((a, b) => {
      const byValue = compare(a[sort], b[sort]);
      // Nulls stay last whichever the order.
      if (a[sort] === null || b[sort] === null) return byValue;
      return order === 'desc' ? -byValue : byValue;
    });
  }
  const limit = Number(params.get('limit') ?? 50);
  const offset = Number(params.get('offset') ?? 0);
  return {
    [key]: matched.slice(offset, offset + limit),
    total: matched.length,
    limit,
    offset,
  } as Record<K, T[]> & { total: number; limit: number; offset: number };
}
