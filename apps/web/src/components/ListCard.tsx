import { Card, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ComponentProps, ReactNode } from 'react';
import type { TableState } from '../lib/list-state';
import { DataTable, type DataTableProps } from './DataTable';
import { Empty } from './Empty';
import { QueryState } from './QueryState';

/** What a list card reads of its screen's query (TanStack Query's answer). */
interface ListQuery {
  data?: unknown;
  isPending: boolean;
  isPlaceholderData: boolean;
  error: unknown;
  refetch: () => unknown;
}

type ListCardProps<T> = Omit<DataTableProps<T>, 'loading' | 'empty' | 'state'> & {
  query: ListQuery;
  /** The list's state (useListState): page, sort, and whether it is searched or filtered. */
  state: TableState & { filtered: boolean };
  /** The screen's own load-error text (QueryState's `errorText`). */
  errorText?: string;
  /** What stays above while the list loads or fails: the filters. */
  filters?: ReactNode;
  /** What stands above the table once the list is there: its search, a hint. */
  toolbar?: ReactNode;
  /** An empty list when searched or filtered: nothing matches. */
  noMatches: string;
  /** An empty list with no search and no filter: nothing yet, and how to add the first one. */
  empty: ComponentProps<typeof Empty>;
};

/**
 * A list screen's card: its filters, the list's loading and failed-load states, then its toolbar
 * and its table. Empty, the table says that nothing matches when the list is searched or filtered,
 * and otherwise that there is nothing yet, with the way to add the first one.
 */
export function ListCard<T>({
  query,
  errorText,
  filters,
  toolbar,
  noMatches,
  empty,
  ...table
}: ListCardProps<T>) {
  return (
    <Card withBorder radius="lg" p="md">
      {filters}
      <QueryState
        isPending={query.isPending}
        error={query.data ? null : query.error}
        errorText={errorText}
        onRetry={() => query.refetch()}
      >
        {toolbar}
        <DataTable
          {...table}
          loading={query.isPlaceholderData}
          empty={table.state.filtered ? <Empty title={noMatches} /> : <Empty {...empty} />}
        />
      </QueryState>
    </Card>
  );
}

/** A list's search box: it searches as one types, through the list's state (the URL). */
export function ListSearch({
  list,
  label,
  placeholder = label,
  mb,
  inGrid = false,
}: {
  list: { search: string; setSearch: (search: string) => void };
  label: string;
  placeholder?: string;
  mb?: 'md';
  /** In a grid's cell, which gives it its width (else the box's own: all of a phone, 320 px). */
  inGrid?: boolean;
}) {
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={list.search}
      onChange={(event) => list.setSearch(event.currentTarget.value)}
      w={inGrid ? undefined : { base: '100%', sm: 320 }}
      mb={mb}
    />
  );
}
