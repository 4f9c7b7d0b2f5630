import '@mantine/charts/styles.css';
import { Button, Grid, SegmentedControl, Stack } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { usePhoneLayout } from '../../components/phone-layout';
import { formatDateRange } from '../../lib/format';
import { csvReaderQuery, useFileExport } from '../../lib/use-file-export';
import { exportStatsCsv, useGlobalStats, useStatsRange } from '../../api/stats';
import { DailySessionsChart } from './DailySessionsChart';
import { DeviceDistribution } from './DeviceDistribution';
import { useUrlParam } from '../../lib/list-state';
import {
  DEFAULT_STATS_PERIOD,
  isStatsPeriod,
  PERIOD_PARAM,
  periodRange,
  STATS_PERIODS,
  type StatsPeriod,
} from './period';
import { ScenarioStats } from './ScenarioStats';
import { EndedSessions, StatsCards, TopOrganizations } from './stats-panels';

export function GlobalStatsPage() {
  const { t, i18n } = useTranslation('adminStats');
  const phone = usePhoneLayout();
  // In the URL (?period=7): a reload, back and a shared link show the same period.
  const [periodParam, setPeriodParam] = useUrlParam(
    PERIOD_PARAM,
    isStatsPeriod,
    `${DEFAULT_STATS_PERIOD}`,
  );
  const period = Number(periodParam) as StatsPeriod;
  // The period ends today (UTC); recomputed when the period changes.
  const range = useMemo(() => periodRange(period), [period]);
  const stats = useStatsRange(range);
  const global = useGlobalStats();
  const data = stats.data;
  const rangeLabel = formatDateRange(range.start_date, range.end_date, i18n.language, {
    timeZone: 'UTC',
  });

  const csv = useFileExport({
    isEmpty: () => data?.total_sessions === 0,
    download: () => exportStatsCsv(range, csvReaderQuery()),
    doneText: () => t('exported'),
    failedText: () => t('exportFailed'),
  });

  function refresh() {
    void stats.refetch();
    void global.refetch();
  }

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle', { range: rangeLabel })}
        actions={
          <>
            <SegmentedControl
              // "365 дней" and its three siblings overflow a 360 px screen at the default size.
              size={phone ? 'xs' : 'sm'}
              aria-label={t('period')}
              value={String(period)}
              onChange={(value) => {
                if (isStatsPeriod(value)) setPeriodParam(value);
              }}
              data={STATS_PERIODS.map((days) => ({
                value: String(days),
                label: t('days', { count: days }),
              }))}
            />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={(stats.isFetching || global.isFetching) && !stats.isPending}
              onClick={refresh}
            >
              {t('common:refresh')}
            </Button>
            <Button
              leftSection={<IconDownload size={16} />}
              loading={csv.exporting}
              onClick={csv.start}
            >
              {t('export')}
            </Button>
          </>
        }
      />
      <QueryState
        isPending={stats.isPending}
        error={data ? null : stats.error}
        errorText={t('loadFailed')}
        onRetry={refresh}
      >
        {data ? (
          <Stack
            gap="lg"
            style={{ opacity: stats.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
          >
            <StatsCards data={data} global={global.data} />

            <Grid>
              <Grid.Col span={{ base: 12, lg: 8 }}>
                <DailySessionsChart daily={data.daily} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 4 }}>
                <DeviceDistribution deviceTypes={data.device_types} />
              </Grid.Col>
            </Grid>

            <Grid>
              <Grid.Col span={{ base: 12, md: 7 }}>
                <TopOrganizations data={data} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <EndedSessions data={data} />
              </Grid.Col>
            </Grid>

            <ScenarioStats stats={data.scenario_stats} />
          </Stack>
        ) : null}
      </QueryState>
    </>
  );
}
