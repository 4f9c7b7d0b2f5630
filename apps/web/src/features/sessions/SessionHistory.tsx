import {
  Badge,
  Box,
  Button,
  Card,
  EmptyState,
  Group,
  Progress,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { IconFileSpreadsheet, IconHistory, IconRefresh } from '@tabler/icons-react';
import type { ColumnDef } from '@tanstack/react-table';
import type { HistorySession } from '@vrtc/contract';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../auth/AuthProvider';
import { DataTable } from '../../components/DataTable';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../../components/StatusBadge';
import {
  formatDateTime,
  formatDateTimeShort,
  formatDuration,
  progressPercent,
} from '../../lib/format';
import { notifySuccess, notifyWarning } from '../../lib/notify';
import { HISTORY_STATUS_FILTERS, useSessionHistory, type HistoryStatusFilter } from './api';
import { buildSessionsCsv, sessionsCsvFileName } from './history-csv';

function downloadCsv(content: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([content], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function SessionHistory() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const [status, setStatus] = useState<HistoryStatusFilter>('all');
  const history = useSessionHistory(status);
  const rows = history.data?.sessions ?? [];
  const total = history.data?.total ?? 0;

  function exportCsv() {
    if (rows.length === 0) {
      notifyWarning(t('common:noDataToExport'));
      return;
    }
    downloadCsv(buildSessionsCsv(rows), sessionsCsvFileName(user.organization_name, new Date()));
    notifySuccess(t('sessions:history.exported', { count: rows.length }));
  }

  const columns = useMemo<ColumnDef<HistorySession, unknown>[]>(
    () => [
      {
        accessorKey: 'vr_user_name',
        header: t('sessions:history.col.vrUser'),
        cell: ({ row: { original: s } }) => (
          <Stack gap={0} miw={110}>
            <Text size="sm" fw={500} lineClamp={2} title={s.vr_user_name}>
              {s.vr_user_name}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={2} title={s.device_name}>
              {s.device_name}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'content',
        accessorFn: (row) => `${row.scenario_name} ${row.module_name} ${row.level_name}`,
        header: t('sessions:history.col.content'),
        cell: ({ row: { original: s } }) => (
          <Stack gap={0} miw={130}>
            <Text size="sm" lineClamp={2} title={s.scenario_name}>
              {s.scenario_name}
            </Text>
            <Text size="xs" c="dimmed" lineClamp={2} title={`${s.module_name} - ${s.level_name}`}>
              {s.module_name} - {s.level_name}
            </Text>
          </Stack>
        ),
      },
      {
        accessorKey: 'status',
        header: t('sessions:history.col.status'),
        cell: (c) => (
          <Box w="max-content">
            <StatusBadge status={c.row.original.status} />
          </Box>
        ),
      },
      {
        id: 'progress',
        accessorFn: (row) => progressPercent(row.completed_tasks, row.total_tasks),
        header: t('sessions:history.col.progress'),
        cell: ({ row: { original: s } }) => {
          const percent = progressPercent(s.completed_tasks, s.total_tasks);
          return (
            <Stack gap={4} miw={84}>
              <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
                {s.completed_tasks}/{s.total_tasks} ({percent}%)
              </Text>
              <Progress value={percent} size="sm" aria-label={`${percent}%`} />
            </Stack>
          );
        },
      },
      {
        accessorKey: 'started_at',
        header: () => (
          <span title={t('sessions:history.col.timeHint')}>{t('sessions:history.col.time')}</span>
        ),
        cell: ({ row: { original: s } }) => (
          <Stack gap={0} style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm" title={t('sessions:history.col.startedAt')}>
              {formatDateTime(s.started_at, i18n.language)}
            </Text>
            <Text
              size="xs"
              c="dimmed"
              title={`${t('sessions:history.col.duration')}: ${formatDuration(t, s.duration_seconds)} · ${t('sessions:history.col.endedAt')}: ${formatDateTime(s.ended_at, i18n.language)}`}
            >
              {formatDuration(t, s.duration_seconds)} ·{' '}
              {t('sessions:history.endedAt', {
                date: formatDateTimeShort(s.ended_at, s.started_at, i18n.language),
              })}
            </Text>
          </Stack>
        ),
      },
      {
        accessorKey: 'started_by_email',
        header: t('sessions:history.col.startedBy'),
        cell: (c) => (
          <Text size="sm" truncate maw={130} title={c.row.original.started_by_email ?? undefined}>
            {c.row.original.started_by_email ?? t('common:none')}
          </Text>
        ),
      },
      {
        id: 'success',
        accessorFn: (row) => (row.success === null ? -1 : row.success ? 1 : 0),
        header: t('sessions:history.col.success'),
        cell: ({ row: { original: s } }) =>
          s.success === null ? (
            t('common:none')
          ) : (
            <Badge variant="dot" color={s.success ? 'green' : 'red'} style={{ flexShrink: 0 }}>
              {s.success ? t('common:yes') : t('common:no')}
            </Badge>
          ),
      },
    ],
    [t, i18n.language],
  );

  return (
    <Card withBorder radius="lg" p="md">
      <Group justify="space-between" align="flex-end" mb="md" gap="sm">
        <Group align="flex-end" gap="sm">
          <Select
            label={t('sessions:history.statusFilter')}
            value={status}
            onChange={(value) => setStatus((value as HistoryStatusFilter | null) ?? 'all')}
            allowDeselect={false}
            w={220}
            data={HISTORY_STATUS_FILTERS.map((value) => ({
              value,
              label:
                value === 'all' ? t('sessions:history.allStatuses') : t(`common:status.${value}`),
            }))}
          />
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={history.isFetching && !history.isPending}
            onClick={() => history.refetch()}
          >
            {t('common:refresh')}
          </Button>
        </Group>
        <Button
          leftSection={<IconFileSpreadsheet size={16} />}
          variant="light"
          onClick={exportCsv}
          disabled={history.isPending}
        >
          {t('sessions:history.export')}
        </Button>
      </Group>
      {total > rows.length ? (
        <Text size="xs" c="dimmed" mb="sm">
          {t('sessions:history.truncated', { shown: rows.length, total })}
        </Text>
      ) : null}
      <QueryState
        isPending={history.isPending}
        error={history.error}
        onRetry={() => history.refetch()}
      >
        <DataTable
          key={status}
          data={rows}
          columns={columns}
          getRowId={(row) => row.id}
          initialSorting={[{ id: 'started_at', desc: true }]}
          empty={
            <EmptyState
              py="xl"
              icon={<IconHistory size={28} />}
              withIndicatorBackground
              title={t('sessions:history.emptyTitle')}
              description={
                status === 'all'
                  ? t('sessions:history.emptyText')
                  : t('sessions:history.emptyFilteredText')
              }
            >
              {status !== 'all' ? (
                <EmptyState.Actions>
                  <Button variant="light" onClick={() => setStatus('all')}>
                    {t('sessions:history.showAll')}
                  </Button>
                </EmptyState.Actions>
              ) : null}
            </EmptyState>
          }
        />
      </QueryState>
    </Card>
  );
}
