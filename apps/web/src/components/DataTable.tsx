import { Button, Checkbox, Group, ScrollArea, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type PaginationState,
  type RowSelectionState,
  type SortingState,
} from '@tanstack/react-table';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './DataTable.module.css';

/** The id of a row-actions column: it stays pinned to the card's right edge while the table scrolls. */
export const ACTIONS_COLUMN_ID = 'actions';

export const PAGE_SIZE = 10;

export interface DataTableProps<T> {
  data: T[];
  columns: ColumnDef<T, unknown>[];
  getRowId: (row: T) => string;
  initialSorting?: SortingState;
  onRowClick?: (row: T) => void;
  empty?: ReactNode;
  /** Multi-select: the ids of the selected rows, and whether a row may be selected. */
  selection?: {
    selected: RowSelectionState;
    onChange: (selected: RowSelectionState) => void;
    canSelect?: (row: T) => boolean;
  };
  /** Rows per page; admin tables use the specification's 10. */
  pageSize?: number;
}

/**
 * The admin tables' shared behaviour: client-side sorting, 10 rows a page, Previous/Next. Sorting,
 * page and selection survive data refreshes (polling never resets what the user chose).
 *
 * Layout: compact cells, headers on one line; a table wider than its card scrolls sideways inside
 * the card (never the page), with the column whose id is `actions` pinned to the right edge.
 */
export function DataTable<T>({
  data,
  columns,
  getRowId,
  initialSorting = [],
  onRowClick,
  empty,
  selection,
  pageSize = PAGE_SIZE,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize });

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

  const table = useReactTable({
    data,
    columns: selection ? [selectColumn, ...columns] : columns,
    getRowId,
    state: { sorting, pagination, rowSelection: selection?.selected ?? {} },
    onSortingChange: setSorting,
    onPaginationChange: setPagination,
    enableRowSelection: selection ? (row) => selection.canSelect?.(row.original) ?? true : false,
    onRowSelectionChange: (updater) => {
      if (!selection) return;
      selection.onChange(typeof updater === 'function' ? updater(selection.selected) : updater);
    },
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getPaginationRowModel: getPaginationRowModel(),
    autoResetPageIndex: false,
  });

  const pageCount = Math.max(1, table.getPageCount());
  // After rows disappear (deleted, filtered) the page must still exist.
  useEffect(() => {
    if (pagination.pageIndex > pageCount - 1) {
      setPagination((current) => ({ ...current, pageIndex: pageCount - 1 }));
    }
  }, [pageCount, pagination.pageIndex]);

  if (data.length === 0 && empty) return <>{empty}</>;

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
        >
          <Table.Thead>
            {table.getHeaderGroups().map((group) => (
              <Table.Tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <Table.Th
                      key={header.id}
                      className={
                        header.column.id === ACTIONS_COLUMN_ID
                          ? `${classes.header} ${classes.sticky}`
                          : classes.header
                      }
                      aria-sort={
                        sorted === 'asc'
                          ? 'ascending'
                          : sorted === 'desc'
                            ? 'descending'
                            : undefined
                      }
                    >
                      {header.column.getCanSort() ? (
                        <UnstyledButton
                          onClick={header.column.getToggleSortingHandler()}
                          style={{
                            display: 'inline-flex',
                            alignItems: 'center',
                            gap: 4,
                            fontSize: 'inherit',
                            fontWeight: 600,
                          }}
                        >
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
      <Group justify="space-between" mt="md">
        <Text size="sm" c="dimmed">
          {t('common:rowsTotal', { count: data.length })}
        </Text>
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            onClick={() => table.previousPage()}
            disabled={!table.getCanPreviousPage()}
          >
            {t('common:previous')}
          </Button>
          <Text size="sm">
            {t('common:page', { page: pagination.pageIndex + 1, pages: pageCount })}
          </Text>
          <Button
            variant="default"
            size="xs"
            onClick={() => table.nextPage()}
            disabled={!table.getCanNextPage()}
          >
            {t('common:next')}
          </Button>
        </Group>
      </Group>
    </>
  );
}
