import '@mantine/dates/styles.css';
import 'dayjs/locale/ru';
import { Button, Card, Group } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { IconFileSpreadsheet, IconFilterOff, IconHistory, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { exportSessionHistory, useSessionHistory } from '../../api/sessions';
import { DataTable } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { QueryState } from '../../components/QueryState';
import { SessionDetailModal } from '../../components/SessionDetailModal';
import { useUrlDialog } from '../../lib/list-state-dialog';
import { csvReaderQuery, useFileExport } from '../../lib/use-file-export';
import { useHistoryColumns } from './history-columns';
import { historyFilters, NO_HISTORY_FILTERS, useHistoryList } from './history-list';
import { HistoryFilters } from './HistoryFilters';

/**
 * The History tab: ended sessions a page at a time from the server, filtered by status, days
 * (UTC, of the start), VR user, headset and scenario; the page, sort and filters live in the URL.
 * The CSV export is the server's file of every session under the same filters.
 */
export function SessionHistory() {
  const { t, i18n } = useTranslation();
  const list = useHistoryList();
  const exportFilters = historyFilters(list);
  const history = useSessionHistory({ ...exportFilters, ...list.query });
  // The session whose detail (task timeline) is open.
  const detail = useUrlDialog('session');
  const columns = useHistoryColumns(detail.open);
  const rows = history.data?.sessions ?? [];
  const total = history.data?.total ?? 0;
  const filtered = Object.keys(list.filters).length > 0;
  const clearFilters = () => list.setFilters(NO_HISTORY_FILTERS);

  const csv = useFileExport({
    isEmpty: () => total === 0,
    // Content names in the file as the console shows them.
    download: () => exportSessionHistory({ ...exportFilters, ...csvReaderQuery() }),
    doneText: () => t('sessions:history.exported', { count: total }),
    failedText: () => t('sessions:history.exportFailed'),
  });

  return (
    <DatesProvider settings={{ locale: i18n.language === 'en' ? 'en' : 'ru', firstDayOfWeek: 1 }}>
      <Card withBorder radius="lg" p="md">
        <HistoryFilters list={list} rows={rows} />
        <Group justify="flex-end" mb="md" gap="sm">
          {/* With nothing left, the empty state offers it instead. */}
          {filtered && total > 0 ? (
            <Button
              variant="subtle"
              color="gray"
              leftSection={<IconFilterOff size={16} />}
              onClick={clearFilters}
            >
              {t('sessions:history.showAll')}
            </Button>
          ) : null}
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={history.isFetching && !history.isPending}
            onClick={() => history.refetch()}
          >
            {t('common:refresh')}
          </Button>
          <Button
            leftSection={<IconFileSpreadsheet size={16} />}
            variant="light"
            onClick={csv.start}
            loading={csv.exporting}
            disabled={history.isPending}
          >
            {t('sessions:history.export')}
          </Button>
        </Group>
        <QueryState
          isPending={history.isPending}
          error={history.data ? null : history.error}
          onRetry={() => history.refetch()}
        >
          <DataTable
            rows={rows}
            total={total}
            loading={history.isPlaceholderData}
            state={list}
            columns={columns}
            getRowId={(row) => row.id}
            onRowClick={(row) => detail.open(row.id)}
            empty={
              <Empty
                icon={<IconHistory size={28} />}
                title={t('sessions:history.emptyTitle')}
                description={
                  filtered
                    ? t('sessions:history.emptyFilteredText')
                    : t('sessions:history.emptyText')
                }
                action={
                  filtered ? (
                    <Button
                      variant="light"
                      leftSection={<IconFilterOff size={16} />}
                      onClick={clearFilters}
                    >
                      {t('sessions:history.showAll')}
                    </Button>
                  ) : undefined
                }
              />
            }
          />
        </QueryState>
      </Card>
      <SessionDetailModal sessionId={detail.id} onClose={detail.close} />
    </DatesProvider>
  );
}
