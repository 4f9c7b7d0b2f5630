import { Button, SimpleGrid, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { ColumnDef } from '../../components/table-model';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { QueryState } from '../../components/QueryState';
import type { ListState, TableState } from '../../lib/list-state';
import type { ContentItem, ContentKind } from '../../api/content';

export interface ContentTableProps<T extends ContentItem> {
  kind: ContentKind;
  /** The selects of the parents above the search box. */
  filters?: ReactNode;
  /** The parent the rows are under; null: none chosen yet, the table gives way to `pickHint`. */
  parentId?: string | null;
  pickHint?: string;
  /** The page, sort and search of the table (the URL's). */
  list: TableState & Pick<ListState<string, never>, 'q' | 'search' | 'setSearch'>;
  query: {
    data?: { total: number };
    isPending: boolean;
    isPlaceholderData: boolean;
    error: unknown;
    refetch: () => unknown;
  };
  rows: T[];
  columns: ColumnDef<T, unknown>[];
  /** Opens what is under the row in the next tab (none for options). */
  open?: (item: T) => void;
  onCreate: () => void;
}

/**
 * One tab of the content screen: its filters and search box, then one page of the server's list,
 * or a hint to choose the parent first.
 */
export function ContentTable<T extends ContentItem>(props: ContentTableProps<T>) {
  const { t } = useTranslation('adminContent');
  const { kind, list, query } = props;
  const total = query.data?.total ?? 0;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" mb="md">
        {props.filters}
        <TextInput
          label={t('common:search')}
          placeholder={t('searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={list.search}
          onChange={(event) => list.setSearch(event.currentTarget.value)}
        />
      </SimpleGrid>
      {props.parentId === null ? (
        <Text c="dimmed" ta="center" py="xl">
          {props.pickHint}
        </Text>
      ) : (
        <QueryState
          isPending={query.isPending}
          error={query.data ? null : query.error}
          errorText={t('loadFailed')}
          onRetry={() => query.refetch()}
        >
          {/* Clicking a scenario, module or level opens what is under it in the next tab. */}
          {props.open && total > 0 ? (
            <Text size="xs" c="dimmed" mb="xs">
              {t(`drillHint.${kind}`)}
            </Text>
          ) : null}
          <DataTable
            rows={props.rows}
            total={total}
            loading={query.isPlaceholderData}
            state={list}
            columns={props.columns}
            getRowId={(item) => item.id}
            onRowClick={props.open}
            empty={
              <Empty
                title={list.q ? t('noMatches') : t(`empty.${kind}`)}
                action={
                  list.q ? undefined : (
                    <Button
                      variant="light"
                      leftSection={<IconPlus size={16} />}
                      onClick={props.onCreate}
                    >
                      {t(`add.${kind}`)}
                    </Button>
                  )
                }
              />
            }
          />
        </QueryState>
      )}
    </>
  );
}
