import { Checkbox, ScrollArea, Table, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeepPageInRange, type TableState } from '../lib/list-state';
import classes from './DataTable.module.css';
import { Pager } from './Pager';

/**
 * The id of a row-actions column: pinned to the card's right edge while the table scrolls, except
 * on a phone, where it would cover the data.
 */
export const ACTIONS_COLUMN_ID = 'actions';

/** Rows per page of the tables (the specification's 10). */
export const PAGE_SIZE = 10;

export interface DataTableProps<T> {
  /** The rows of the current page, as the server answered them. */
  rows: T[];
  /** Rows on every page (the answer's `total`). */
  total: number;
  columns: ColumnDef<T, unknown>[];
  getRowId: (row: T) => string;
  /** Page and sort, usually the URL's (useListState). */
  state: TableState;
  /** The rows shown are the previous answer's while the next one loads. */
  loading?: boolean;
  onRowClick?: (row: T) => void;
  empty?: ReactNode;
  /**
   * What stands under the table in place of the numbered pager: a list paged by cursor (the audit
   * log) knows no page count.
   */
  pager?: ReactNode;
  /** Multi-select within the page: the ids of the selected rows, and whether a row may be selected. */
  selection?: {
    selected: RowSelectionState;
    onChange: (selected: RowSelectionState) => void;
    canSelect?: (row: T) => boolean;
  };
}

/** A column's id as TanStack Table gives it: its `id`, else its `accessorKey`. */
function columnId<T>(column: ColumnDef<T, unknown>): string | undefined {
  if (column.id) return column.id;
  return 'accessorKey' in column && typeof column.accessorKey === 'string'
    ? column.accessorKey
    : undefined;
}

/**
 * The console's tables: the server pages and sorts (TanStack Table's manual modes), 10 rows a
 * page, Previous/Next, and the number of rows on every page. A column sorts when its id is one of
 * the list's sort fields; the arrows toggle as TanStack Table does (text ascending first, figures
 * descending first, a third click back to the list's default order).
 *
 * Layout: compact cells, headers on one line; a table wider than its card scrolls sideways inside
 * the card (never the page), with the column whose id is `actions` pinned to the right edge on
 * screens of 768 px and wider.
 */
export function DataTable<T>({
  rows,
  total,
  columns,
  getRowId,
  state,
  loading = false,
  onRowClick,
  empty,
  pager,
  selection,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const sorting: SortingState = state.sort
    ? [{ id: state.sort, desc: state.order === 'desc' }]
    : [];

  const selectColumn: ColumnDef<T, unknown> = {
    id: '__select',
    enableSorting: false,
    header: ({ table }) => (
      <Checkbox
        aria-label={t('common:selectAll')}
        checked={table.getIsAllPageRowsSelected()}
        indeterminate={table.getIsSomePageRowsSelected()}
        onChange={table.getToggleAllPageRowsSelectedHandler()}
      />
    ),
    cell: ({ row }) => (
      <Checkbox
        aria-label={t('common:selectRow')}
        checked={row.getIsSelected()}
        disabled={!row.getCanSelect()}
        onClick={(event) => event.stopPropagation()}
        onChange={row.getToggleSelectedHandler()}
      />
    ),
  };

  const { sortFields } = state;
  const sortableColumns = useMemo(
    () =>
      columns.map((column) => {
        const id = columnId(column);
        return { ...column, enableSorting: id !== undefined && sortFields.includes(id) };
      }),
    [columns, sortFields],
  );

  const table = useReactTable({
    data: rows,
    columns: selection ? [selectColumn, ...sortableColumns] : sortableColumns,
    getRowId,
    rowCount: total,
    state: {
      sorting,
      pagination: { pageIndex: state.pageIndex, pageSize: state.pageSize },
      rowSelection: selection?.selected ?? {},
    },
    manualPagination: true,
    manualSorting: true,
    enableMultiSort: false,
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      const first = next[0];
      state.setSort(first?.id, first?.desc ? 'desc' : 'asc');
    },
    enableRowSelection: selection ? (row) => selection.canSelect?.(row.original) ?? true : false,
    onRowSelectionChange: (updater) => {
      if (!selection) return;
      selection.onChange(typeof updater === 'function' ? updater(selection.selected) : updater);
    },
    getCoreRowModel: getCoreRowModel(),
  });

  useKeepPageInRange(state, rows.length, total);

  if (rows.length === 0 && empty) return <>{empty}</>;

  return (
    <>
      <ScrollArea type="auto" scrollbars="x" offsetScrollbars="present">
        <Table
          className={classes.table}
          striped
          highlightOnHover={Boolean(onRowClick)}
          verticalSpacing="sm"
          horizontalSpacing="xs"
          fz="sm"
          miw={600}
          aria-busy={loading || undefined}
          style={loading ? { opacity: 0.6, transition: 'opacity 150ms' } : undefined}
        >
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  const sortable = header.column.getCanSort();
                  return (
                    <Table.Th
                      key={header.id}
                      className={[
                        classes.header,
                        header.column.id === ACTIONS_COLUMN_ID ? classes.sticky : '',
                        sortable ? classes.sortable : '',
                      ].join(' ')}
                      // The whole cell sorts, not only its words; the button inside is what the
                      // keyboard reaches (its Enter or Space click comes here, once).
                      onClick={sortable ? header.column.getToggleSortingHandler() : undefined}
                      aria-sort={
                        sorted === 'asc'
                          ? 'ascending'
                          : sorted === 'desc'
                            ? 'descending'
                            : undefined
                      }
                    >
                      {sortable ? (
                        <UnstyledButton className={classes.sortButton}>
                          {label}
                          {sorted === 'asc' ? (
                            <IconArrowUp size={14} />
                          ) : sorted === 'desc' ? (
                            <IconArrowDown size={14} />
                          ) : (
                            <IconArrowsSort size={14} opacity={0.4} />
                          )}
                        </UnstyledButton>
                      ) : (
                        label
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Thead>
          <Table.Tbody>
            {table.getRowModel().rows.map((row) => (
              <Table.Tr
                key={row.id}
                onClick={onRowClick ? () => onRowClick(row.original) : undefined}
                style={onRowClick ? { cursor: 'pointer' } : undefined}
              >
                {row.getVisibleCells().map((cell) => (
                  <Table.Td
                    key={cell.id}
                    className={cell.column.id === ACTIONS_COLUMN_ID ? classes.sticky : undefined}
                  >
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pager ?? (
        <Pager
          total={total}
          pageIndex={state.pageIndex}
          pageSize={state.pageSize}
          onPageChange={state.setPage}
        />
      )}
    </>
  );
}
