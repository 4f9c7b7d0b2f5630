import '@mantine/charts/styles.css';
import { Grid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { formatDateRange } from '../../lib/format';
import { csvReaderQuery, useFileExport } from '../../lib/use-file-export';
import { exportStatsCsv, useGlobalStats, useStatsRange } from '../../api/stats';
import { useStatsPeriod } from './PeriodSwitch';
import { ActivityCharts } from './ActivityCharts';
import { ScenarioStats } from './ScenarioStats';
import { StatsHeaderActions, StatsQueryState } from './StatsHeaderActions';
import { EndedSessions, StatsCards, TopOrganizations } from './stats-panels';

export function GlobalStatsPage() {
  const { t, i18n } = useTranslation('adminStats');
  const { period, range, setPeriod } = useStatsPeriod();
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
          <StatsHeaderActions
            period={period}
            onPeriodChange={setPeriod}
            refreshing={(stats.isFetching || global.isFetching) && !stats.isPending}
            onRefresh={refresh}
            exporting={csv.exporting}
            onExport={csv.start}
          />
        }
      />
      <StatsQueryState stats={stats} onRetry={refresh}>
        {(data) => (
          <>
            <StatsCards data={data} global={global.data} />

            <ActivityCharts data={data} />

            <Grid>
              <Grid.Col span={{ base: 12, md: 7 }}>
                <TopOrganizations data={data} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <EndedSessions data={data} />
              </Grid.Col>
            </Grid>

            <ScenarioStats stats={data.scenario_stats} />
          </>
        )}
      </StatsQueryState>
    </>
  );
}
