import '@mantine/charts/styles.css';
import { Grid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { formatDateRange } from '../../lib/format';
import { csvReaderQuery, useFileExport } from '../../lib/use-file-export';
import { exportOrganizationStatsCsv, useOrganizationStats } from '../../api/stats';
import { useStatsPeriod } from './PeriodSwitch';
import { ActivityCharts } from './ActivityCharts';
import { ScenarioStats } from './ScenarioStats';
import { StatsHeaderActions, StatsQueryState } from './StatsHeaderActions';
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
          <StatsHeaderActions
            period={period}
            onPeriodChange={setPeriod}
            refreshing={stats.isFetching && !stats.isPending}
            onRefresh={() => void stats.refetch()}
            exporting={csv.exporting}
            onExport={csv.start}
          />
        }
      />
      <StatsQueryState stats={stats} onRetry={() => void stats.refetch()}>
        {(data) => (
          <>
            <StatsCards data={data} global={data} />
            <ActivityCharts data={data} />
            <Grid>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <EndedSessions data={data} />
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 7 }}>
                <ScenarioStats stats={data.scenario_stats} />
              </Grid.Col>
            </Grid>
          </>
        )}
      </StatsQueryState>
    </>
  );
}
