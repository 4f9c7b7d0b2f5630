import { Button, Stack } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/QueryState';
import { PeriodSwitch } from './PeriodSwitch';
import type { StatsPeriod } from './period';

/**
 * The statistics screens' header actions (the global and the organisation's): the period switch,
 * a refresh that spins while a fetch runs behind shown figures, and the CSV export.
 */
export function StatsHeaderActions({
  period,
  onPeriodChange,
  refreshing,
  onRefresh,
  exporting,
  onExport,
}: {
  period: StatsPeriod;
  onPeriodChange: (days: `${StatsPeriod}`) => void;
  refreshing: boolean;
  onRefresh: () => void;
  exporting: boolean;
  onExport: () => void;
}) {
  const { t } = useTranslation('adminStats');
  return (
    <>
      <PeriodSwitch period={period} onChange={onPeriodChange} />
      <Button
        variant="default"
        leftSection={<IconRefresh size={16} />}
        loading={refreshing}
        onClick={onRefresh}
      >
        {t('common:refresh')}
      </Button>
      <Button leftSection={<IconDownload size={16} />} loading={exporting} onClick={onExport}>
        {t('export')}
      </Button>
    </>
  );
}

/**
 * The statistics screens' body: loading and failed-load states of the period's figures, then the
 * panels, dimmed while the previous period's figures stand in for the next one's.
 */
export function StatsQueryState<T>({
  stats,
  onRetry,
  children,
}: {
  stats: { isPending: boolean; error: unknown; data: T | undefined; isPlaceholderData: boolean };
  onRetry: () => void;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation('adminStats');
  const data = stats.data;
  return (
    <QueryState
      isPending={stats.isPending}
      error={data ? null : stats.error}
      errorText={t('loadFailed')}
      onRetry={onRetry}
    >
      {data ? (
        <Stack
          gap="lg"
          style={{ opacity: stats.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
        >
          {children(data)}
        </Stack>
      ) : null}
    </QueryState>
  );
}
