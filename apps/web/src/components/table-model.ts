import { createElement, type ChangeEvent, type ComponentType, type ReactNode } from 'react';

/**
 * The part of TanStack Table's model the console's tables use, written out (issue #27: the
 * library was ~14 KB brotli of every list's first visit, for a table whose server pages and sorts).
 * Same names and the same behaviour as TanStack Table 8 for these: one header row, columns by
 * `accessorKey`, `accessorFn` or `id`, sorting one column at a time (text ascending first, figures
 * descending first or as `sortDescFirst` says, a third click back to no sort), row selection within
 * the page. Paging and sorting are the server's (TanStack Table's manual modes); rows come as
 * they are given.
 */

/** Where a column's cell stands on a phone's card (see DataTable). */
export type CardPlace = 'title' | 'status' | 'fact' | 'hidden';

export interface ColumnMeta {
  card?: CardPlace;
  /** A fact's label on the card, when the column's header is not plain text. */
  cardLabel?: string;
}

export interface CellContext<T> {
  row: Row<T>;
  column: Column<T>;
  getValue(): unknown;
}

export interface HeaderContext<T> {
  table: TableModel<T>;
  column: Column<T>;
}

/** A column: its value (`accessorKey` or `accessorFn`), its header and its cell. */
export interface ColumnDef<T, V = unknown> {
  id?: string;
  accessorKey?: string;
  accessorFn?: (row: T, index: number) => V;
  header?: ReactNode | ((context: HeaderContext<T>) => ReactNode);
  cell?: ReactNode | ((context: CellContext<T>) => ReactNode);
  enableSorting?: boolean;
  sortDescFirst?: boolean;
  meta?: ColumnMeta;
}

export type SortingState = Array<{ id: string; desc: boolean }>;
/** The selected rows' ids, as `{ [id]: true }`. */
export type RowSelectionState = Record<string, boolean>;
type Updater<S> = S | ((old: S) => S);

export interface Column<T> {
  id: string;
  columnDef: ColumnDef<T>;
  getCanSort(): boolean;
  getIsSorted(): false | 'asc' | 'desc';
  getToggleSortingHandler(): () => void;
}

export interface Header<T> {
  id: string;
  column: Column<T>;
  getContext(): HeaderContext<T>;
}

export interface Cell<T> {
  id: string;
  column: Column<T>;
  getValue(): unknown;
  getContext(): CellContext<T>;
}

export interface Row<T> {
  id: string;
  index: number;
  original: T;
  getValue(columnId: string): unknown;
  getVisibleCells(): Cell<T>[];
  getIsSelected(): boolean;
  getCanSelect(): boolean;
  getToggleSelectedHandler(): (event: ChangeEvent<HTMLInputElement>) => void;
}

export interface TableModel<T> {
  getHeaderGroups(): Array<{ id: string; headers: Header<T>[] }>;
  getRowModel(): { rows: Row<T>[] };
  getIsAllPageRowsSelected(): boolean;
  getIsSomePageRowsSelected(): boolean;
  getToggleAllPageRowsSelectedHandler(): (event: ChangeEvent<HTMLInputElement>) => void;
}

export interface TableOptions<T> {
  data: T[];
  columns: ColumnDef<T>[];
  getRowId: (row: T) => string;
  state: { sorting: SortingState; rowSelection: RowSelectionState };
  onSortingChange: (updater: Updater<SortingState>) => void;
  enableRowSelection: boolean | ((row: Row<T>) => boolean);
  onRowSelectionChange: (updater: Updater<RowSelectionState>) => void;
}

/** A column's id as TanStack Table gives it: its `id`, else its `accessorKey`, else its header. */
export function columnIdOf<T>(column: ColumnDef<T>): string | undefined {
  return (
    column.id ??
    column.accessorKey?.replaceAll('.', '_') ??
    (typeof column.header === 'string' ? column.header : undefined)
  );
}

function accessorOf<T>(column: ColumnDef<T>): ((row: T, index: number) => unknown) | undefined {
  if (column.accessorFn) return column.accessorFn;
  const key = column.accessorKey;
  if (key === undefined) return undefined;
  // A dotted key reads nested fields, as in TanStack Table.
  return (row) =>
    key
      .split('.')
      .reduce<unknown>(
        (value, part) => (value as Record<string, unknown> | null | undefined)?.[part],
        row,
      );
}

/** The table's model for one render (it keeps no state: it is all in `options.state`). */
export function createTable<T>(options: TableOptions<T>): TableModel<T> {
  const { sorting, rowSelection } = options.state;
  const selection = options.enableRowSelection;

  const columns: Column<T>[] = options.columns.map((definition) => {
    const columnDef: ColumnDef<T> = { header: defaultHeader, cell: defaultCell, ...definition };
    const id = columnIdOf(definition);
    if (id === undefined) throw new Error('A column needs an id, an accessorKey or a text header');
    const accessor = accessorOf(columnDef);
    const column: Column<T> = {
      id,
      columnDef,
      getCanSort: () => (columnDef.enableSorting ?? true) && accessor !== undefined,
      getIsSorted: () => {
        const sorted = sorting.find((sort) => sort.id === id);
        return sorted ? (sorted.desc ? 'desc' : 'asc') : false;
      },
      getToggleSortingHandler: () => () => {
        if (!column.getCanSort()) return;
        // The first direction: text ascending, anything else descending, unless the column says.
        const firstValue = rows[0]?.getValue(id);
        const descFirst = columnDef.sortDescFirst ?? typeof firstValue !== 'string';
        const first = descFirst ? 'desc' : 'asc';
        const sorted = column.getIsSorted();
        const next = !sorted
          ? first
          : sorted !== first
            ? false
            : sorted === 'desc'
              ? 'asc'
              : 'desc';
        options.onSortingChange(next === false ? [] : [{ id, desc: next === 'desc' }]);
      },
    };
    return column;
  });

  const table: TableModel<T> = {
    getHeaderGroups: () => [
      {
        id: '0',
        headers: columns.map((column) => ({
          id: column.id,
          column,
          getContext: () => ({ table, column }),
        })),
      },
    ],
    getRowModel: () => ({ rows }),
    getIsAllPageRowsSelected: () => {
      const selectable = rows.filter((row) => row.getCanSelect());
      return selectable.length > 0 && selectable.every((row) => rowSelection[row.id]);
    },
    getIsSomePageRowsSelected: () =>
      !table.getIsAllPageRowsSelected() &&
      rows.some((row) => row.getCanSelect() && row.getIsSelected()),
    getToggleAllPageRowsSelectedHandler: () => (event) => {
      const value = event.target.checked;
      options.onRowSelectionChange((old) => {
        const next = { ...old };
        for (const row of rows) {
          if (!value) delete next[row.id];
          else if (row.getCanSelect()) next[row.id] = true;
        }
        return next;
      });
    },
  };

  const rows: Row<T>[] = options.data.map((original, index) => {
    const rowId = options.getRowId(original);
    const values = new Map<string, unknown>();
    const getValue = (columnId: string) => {
      if (!values.has(columnId)) {
        const column = columns.find((candidate) => candidate.id === columnId);
        const accessor = column ? accessorOf(column.columnDef) : undefined;
        values.set(columnId, accessor?.(original, index));
      }
      return values.get(columnId);
    };
    const row: Row<T> = {
      id: rowId,
      index,
      original,
      getValue,
      getVisibleCells: () =>
        columns.map((column) => ({
          id: `${rowId}_${column.id}`,
          column,
          getValue: () => getValue(column.id),
          getContext: () => ({ row, column, getValue: () => getValue(column.id) }),
        })),
      getIsSelected: () => Boolean(rowSelection[rowId]),
      getCanSelect: () => (typeof selection === 'function' ? selection(row) : selection),
      getToggleSelectedHandler: () => (event) => {
        const value = event.target.checked;
        options.onRowSelectionChange((old) => {
          const next = { ...old };
          if (!value) delete next[rowId];
          else if (row.getCanSelect()) next[rowId] = true;
          return next;
        });
      },
    };
    return row;
  });

  return table;
}

/**
 * A header's or a cell's content: a function is rendered as a component of its context (so it may
 * use hooks), anything else as it is; as TanStack Table's flexRender.
 */
export function flexRender<C extends object>(
  content: ReactNode | ((context: C) => ReactNode) | undefined,
  context: C,
): ReactNode {
  if (!content) return null;
  if (typeof content === 'function') return createElement(content as ComponentType<C>, context);
  return content;
}

/** The default cell: the value as text, nothing when it is empty (as TanStack Table renders it). */
function defaultCell<T>({ getValue }: CellContext<T>): ReactNode {
  const value = getValue();
  return value === null || value === undefined ? null : String(value);
}

/** The default header: the accessor's key or the column's id. */
function defaultHeader<T>({ column }: HeaderContext<T>): ReactNode {
  return column.columnDef.accessorKey ?? (column.columnDef.accessorFn ? column.id : null);
}
