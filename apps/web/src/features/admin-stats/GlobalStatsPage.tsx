import '@mantine/charts/styles.css';
import {
  Button,
  Card,
  Grid,
  Group,
  Paper,
  Progress,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconActivity,
  IconCalendarEvent,
  IconCalendarMonth,
  IconCalendarWeek,
  IconChartPie,
  IconCircleCheck,
  IconClock,
  IconDownload,
  IconPlayerPlay,
  IconRefresh,
  IconTarget,
} from '@tabler/icons-react';
import type { EndedSessionStatus, GlobalStats, StatsRange } from '@vrtc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatCard } from '../../components/StatCard';
import { statusColor } from '../../components/StatusBadge';
import { formatDateRange, formatDuration, formatPercent } from '../../lib/format';
import { useFileExport } from '../../lib/use-file-export';
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

const ENDED: EndedSessionStatus[] = ['completed', 'cancelled', 'disconnected', 'timeout'];

function endedCount(stats: StatsRange, status: EndedSessionStatus): number {
  return stats[`${status}_sessions`];
}

export function GlobalStatsPage() {
  const { t, i18n } = useTranslation('adminStats');
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
  const percent = (value: number) => formatPercent(value, i18n.language);
  const rangeLabel = formatDateRange(range.start_date, range.end_date, i18n.language, {
    timeZone: 'UTC',
  });

  const csv = useFileExport({
    isEmpty: () => data?.total_sessions === 0,
    download: () => exportStatsCsv(range),
    doneText: () => t('exported'),
    failedText: () => t('exportFailed'),
  });

  function refresh() {
    void stats.refetch();
    void global.refetch();
  }

  const started = (
    key: keyof Pick<GlobalStats, 'sessions_today' | 'sessions_this_week' | 'sessions_this_month'>,
  ) => (global.data ? global.data[key] : t('common:none'));

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle', { range: rangeLabel })}
        actions={
          <>
            <SegmentedControl
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
            <SimpleGrid cols={{ base: 2, lg: 3 }}>
              <StatCard
                label={t('metric.total')}
                value={data.total_sessions}
                icon={<IconActivity size={20} />}
              />
              <StatCard
                label={t('metric.active')}
                value={data.active_sessions}
                color="blue"
                icon={<IconPlayerPlay size={20} />}
              />
              <StatCard
                label={t('metric.completed')}
                value={data.completed_sessions}
                color="green"
                icon={<IconCircleCheck size={20} />}
              />
              <StatCard
                label={t('metric.successRate')}
                value={percent(data.success_rate)}
                color="teal"
                icon={<IconTarget size={20} />}
              />
              <StatCard
                label={t('metric.averageDuration')}
                value={formatDuration(t, data.average_duration_seconds)}
                color="orange"
                icon={<IconClock size={20} />}
              />
              <StatCard
                label={t('metric.averageCompletion')}
                value={percent(data.average_completion)}
                color="grape"
                icon={<IconChartPie size={20} />}
              />
              <StatCard
                label={t('metric.today')}
                value={started('sessions_today')}
                color="cyan"
                icon={<IconCalendarEvent size={20} />}
              />
              <StatCard
                label={t('metric.week')}
                value={started('sessions_this_week')}
                color="cyan"
                icon={<IconCalendarWeek size={20} />}
              />
              <StatCard
                label={t('metric.month')}
                value={started('sessions_this_month')}
                color="cyan"
                icon={<IconCalendarMonth size={20} />}
              />
            </SimpleGrid>

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
                <Card withBorder radius="lg" p="md" h="100%">
                  <Title order={5} mb="md">
                    {t('top.title')}
                  </Title>
                  {data.top_organizations.length === 0 ? (
                    <Text size="sm" c="dimmed" ta="center" py="xl">
                      {t('top.empty')}
                    </Text>
                  ) : (
                    <Stack gap="md">
                      {data.top_organizations.slice(0, 5).map((organization, index) => (
                        <div key={organization.organization_id} data-testid="top-organization">
                          {/* On a narrow screen the figures go under the name, which stays whole. */}
                          <Group justify="space-between" wrap="wrap" gap={4} mb={4}>
                            <Text size="sm" fw={500} style={{ overflowWrap: 'break-word' }}>
                              {index + 1}. {organization.organization_name}
                            </Text>
                            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                              {t('top.figures', {
                                count: organization.total_sessions,
                                rate: percent(organization.success_rate),
                              })}
                            </Text>
                          </Group>
                          <Progress
                            value={organization.success_rate}
                            color="teal"
                            size="sm"
                            radius="xl"
                            aria-label={`${organization.organization_name}: ${percent(organization.success_rate)}`}
                          />
                        </div>
                      ))}
                    </Stack>
                  )}
                </Card>
              </Grid.Col>
              <Grid.Col span={{ base: 12, md: 5 }}>
                <Card withBorder radius="lg" p="md" h="100%">
                  <Title order={5} mb="md">
                    {t('ended.title')}
                  </Title>
                  <SimpleGrid cols={2} spacing="sm">
                    {ENDED.map((status) => (
                      <Paper
                        key={status}
                        radius="md"
                        p="md"
                        bg={`var(--mantine-color-${statusColor(status)}-light)`}
                        data-testid={`ended-${status}`}
                      >
                        <Text
                          size="xs"
                          fw={700}
                          tt="uppercase"
                          c={`var(--mantine-color-${statusColor(status)}-light-color)`}
                        >
                          {t(`common:status.${status}`)}
                        </Text>
                        <Text fz={24} fw={700} mt={4}>
                          {endedCount(data, status)}
                        </Text>
                      </Paper>
                    ))}
                  </SimpleGrid>
                </Card>
              </Grid.Col>
            </Grid>

            <ScenarioStats stats={data.scenario_stats} />
          </Stack>
        ) : null}
      </QueryState>
    </>
  );
}
