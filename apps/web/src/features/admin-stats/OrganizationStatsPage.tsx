import '@mantine/charts/styles.css';
import { Button, Grid, Stack } from '@mantine/core';
import { IconDownload, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { formatDateRange } from '../../lib/format';
import { csvReaderQuery, useFileExport } from '../../lib/use-file-export';
import { exportOrganizationStatsCsv, useOrganizationStats } from '../../api/stats';
import { DailySessionsChart } from './DailySessionsChart';
import { DeviceDistribution } from './DeviceDistribution';
import { PeriodSwitch, useStatsPeriod } from './PeriodSwitch';
import { ScenarioStats } from './ScenarioStats';
import { EndedSessions, StatsCards } from './stats-panels';

/**
 * The signed-in account's organisation's statistics (staff and the auditor, issue #42): the
 * global screen's figures, periods, charts and CSV over its own sessions, counted over the same
 * UTC days as the global screen and the admin's organisation analytics.
 */
export function OrganizationStatsPage() {
  const { t, i18n } = useTranslation('orgStats');
  const { period, range, setPeriod } = useStatsPeriod();
  const stats = useOrganizationStats(range);
  const data = stats.data;
  const rangeLabel = formatDateRange(range.start_date, range.end_date, i18n.language, {
    timeZone: 'UTC',
  });

  const csv = useFileExport({
    isEmpty: () => data?.total_sessions === 0,
    download: () => exportOrganizationStatsCsv(range, csvReaderQuery()),
    doneText: () => t('adminStats:exported'),
    failedText: () => t('adminStats:exportFailed'),
  });

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={
          data
            ? t('subtitle', { organization: data.organization_name, range: rangeLabel })
            : t('subtitleLoading', { range: rangeLabel })
        }
        actions={
          <>
            <PeriodSwitch period={period} onChange={setPeriod} />
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={stats.isFetching && !stats.isPending}
              onClick={() => void stats.refetch()}
            >
              {t('common:refresh')}
            </Button>
            <Button
              leftSection={<IconDownload size={16} />}
              loading={csv.exporting}
              onClick={csv.start}
            >
              {t('adminStats:export')}
            </Button>
          </>
        }
      />
      <QueryState
        isPending={stats.isPending}
        error={data ? null : stats.error}
        errorText={t('adminStats:loadFailed')}
        onRetry={() => void stats.refetch()}
      >
        {data ? (
          <Stack
            gap="lg"
            style={{ opacity: stats.isPlaceholderData ? 0.6 : 1, transition: 'opacity 150ms' }}
          >
            <StatsCards data={data} global={data} />
            <Grid>
              <Grid.Col span={{ base: 12, lg: 8 }}>
                <DailySessionsChart daily={data.daily} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, lg: 4 }}>
                <DeviceDistribution deviceTypes={data.device_types} />
              </Grid.Col>
            </Grid>
            <Grid>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <EndedSessions data={data} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }}>
                <ScenarioStats stats={data.scenario_stats} />
              </Grid.Col>
            </Grid>
          </Stack>
        ) : null}
      </QueryState>
    </>
  );
}
