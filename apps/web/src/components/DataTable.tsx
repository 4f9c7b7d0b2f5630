import { Card, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  columnIdOf,
  flexRender,
  createTable,
  type CardPlace,
  type Cell,
  type ColumnDef,
  type RowSelectionState,
  type SortingState,
} from './table-model';
import { useMemo, type ReactNode } from 'react';
import { useKeepPageInRange, type TableState } from '../lib/list-state';
import classes from './DataTable.module.css';
import { Pager } from './Pager';
import { usePhoneLayout } from './phone-layout';

/**
 * Where a column's cell stands on a phone's card: the card's `title` (by default the first
 * column), its `status` (by default the column named status or active), a labelled `fact` under them, or
 * nowhere (`hidden`, the default for the others). The actions column is the card's action.
 */
export type { CardPlace };

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
  /**
   * Multi-select within the page: the ids of the selected rows, whether a row may be selected, and
   * the checkboxes' column (useSelectColumn(), components/select-column.tsx).
   */
  selection?: {
    selected: RowSelectionState;
    onChange: (selected: RowSelectionState) => void;
    canSelect?: (row: T) => boolean;
    column: ColumnDef<T>;
  };
  /** The width below which rows are cards (the phone's by default: under 600 px). */
  cardsBelow?: string;
  /** A name for the list of cards (read by screen readers). */
  label?: string;
  /** The table's least width: a wider table scrolls sideways inside its card (600 px). */
  minWidth?: number;
}

/**
 * The console's tables: the server pages and sorts (components/table-model.ts, TanStack Table's model as far as used), 10 rows a
 * page, Previous/Next, and the number of rows on every page. A column sorts when its id is one of
 * the list's sort fields; the arrows toggle as TanStack Table does (text ascending first, figures
 * descending first, a third click back to the list's default order).
 *
 * Layout: compact cells, headers on one line; a table wider than its card scrolls sideways inside
 * the card (never the page), with the column whose id is `actions` pinned to the right edge on
 * screens of 768 px and wider. Below 600 px (`cardsBelow`) each row is a card instead: its title,
 * its status and its action (the columns' `meta.card` says which cell goes where), so a phone
 * reads every row without scrolling sideways.
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
  cardsBelow,
  label,
  minWidth = 600,
}: DataTableProps<T>) {
  const cards = usePhoneLayout(cardsBelow);
  const sorting: SortingState = state.sort
    ? [{ id: state.sort, desc: state.order === 'desc' }]
    : [];

  const { sortFields } = state;
  const sortableColumns = useMemo(
    () =>
      columns.map((column) => {
        const id = columnIdOf(column);
        return { ...column, enableSorting: id !== undefined && sortFields.includes(id) };
      }),
    [columns, sortFields],
  );

  const table = createTable({
    data: rows,
    columns: selection ? [selection.column, ...sortableColumns] : sortableColumns,
    getRowId,
    state: { sorting, rowSelection: selection?.selected ?? {} },
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
  });

  useKeepPageInRange(state, rows.length, total);

  if (rows.length === 0 && empty) return <>{empty}</>;

  const pagerBelow = pager ?? (
    <Pager
      total={total}
      pageIndex={state.pageIndex}
      pageSize={state.pageSize}
      onPageChange={state.setPage}
    />
  );

  if (cards) {
    return (
      <>
        <Stack
          component="ul"
          gap="sm"
          p={0}
          m={0}
          className={classes.cards}
          aria-label={label}
          aria-busy={loading || undefined}
          style={loading ? { opacity: 0.6, transition: 'opacity 150ms' } : undefined}
          data-testid="list-cards"
        >
          {table.getRowModel().rows.map((row) => (
            <RowCard
              key={row.id}
              cells={row.getVisibleCells()}
              onClick={onRowClick ? () => onRowClick(row.original) : undefined}
            />
          ))}
        </Stack>
        {pagerBelow}
      </>
    );
  }

  return (
    <>
      {/* A native scroller, not Mantine's ScrollArea, which would bring floating-ui with every
          list (issue #27); DataTable.module.css gives it a thin bar. */}
      <div className={classes.scroll}>
        <Table
          className={classes.table}
          striped
          highlightOnHover={Boolean(onRowClick)}
          verticalSpacing="sm"
          horizontalSpacing="xs"
          fz="sm"
          miw={minWidth}
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
      </div>
      {pagerBelow}
    </>
  );
}

/** The id of the checkboxes' column (components/select-column.tsx). */
export const SELECT_COLUMN_ID = '__select';

/** Where each cell of a row goes on its card (see CardPlace). */
function cardPlaces<T>(cells: Cell<T>[]) {
  const data = cells.filter(
    (cell) => cell.column.id !== SELECT_COLUMN_ID && cell.column.id !== ACTIONS_COLUMN_ID,
  );
  const placeOf = (cell: Cell<T>): CardPlace => {
    const place = cell.column.columnDef.meta?.card;
    if (place) return place;
    if (cell === data[0]) return 'title';
    return cell.column.id === 'status' || cell.column.id === 'active' ? 'status' : 'hidden';
  };
  return {
    select: cells.find((cell) => cell.column.id === SELECT_COLUMN_ID),
    title: data.filter((cell) => placeOf(cell) === 'title'),
    status: data.filter((cell) => placeOf(cell) === 'status'),
    facts: data.filter((cell) => placeOf(cell) === 'fact'),
    action: cells.find((cell) => cell.column.id === ACTIONS_COLUMN_ID),
  };
}

/** A fact's label: the column's card label, else its header when that is plain text. */
function factLabel<T>(cell: Cell<T>): string {
  const { meta, header } = cell.column.columnDef;
  return meta?.cardLabel ?? (typeof header === 'string' ? header : cell.column.id);
}

/** One row as a card: selection, title and status on top, facts under them, the action last. */
function RowCard<T>({ cells, onClick }: { cells: Cell<T>[]; onClick?: () => void }) {
  const place = cardPlaces(cells);
  const render = (cell: Cell<T>) => flexRender(cell.column.columnDef.cell, cell.getContext());
  return (
    <Card
      component="li"
      withBorder
      radius="md"
      p="sm"
      onClick={onClick}
      style={onClick ? { cursor: 'pointer' } : undefined}
      data-testid="list-card"
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Group gap="xs" align="flex-start" wrap="nowrap" miw={0} style={{ flex: 1 }}>
          {place.select ? <div>{render(place.select)}</div> : null}
          <Stack gap={2} miw={0} style={{ flex: 1, overflowWrap: 'anywhere' }}>
            {place.title.map((cell) => (
              <div key={cell.id} data-card="title">
                {render(cell)}
              </div>
            ))}
          </Stack>
        </Group>
        {place.status.length > 0 ? (
          <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
            {place.status.map((cell) => (
              <div key={cell.id} data-card="status">
                {render(cell)}
              </div>
            ))}
          </Stack>
        ) : null}
      </Group>
      {place.facts.length > 0 ? (
        <Stack component="dl" gap={6} mt="xs" mb={0}>
          {place.facts.map((cell) => (
            <div key={cell.id} data-card="fact">
              <Text component="dt" size="xs" c="dimmed">
                {factLabel(cell)}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                {render(cell)}
              </Text>
            </div>
          ))}
        </Stack>
      ) : null}
      {place.action ? (
        <Group justify="flex-end" mt={4} data-card="action">
          {render(place.action)}
        </Group>
      ) : null}
    </Card>
  );
}
