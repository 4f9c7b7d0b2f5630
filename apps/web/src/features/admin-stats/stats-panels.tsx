import { Card, Paper, Progress, SimpleGrid, Stack, Group, Text, Title } from '@mantine/core';
import {
  IconActivity,
  IconCalendarEvent,
  IconCalendarMonth,
  IconCalendarWeek,
  IconChartPie,
  IconCircleCheck,
  IconClock,
  IconPlayerPlay,
  IconTarget,
} from '@tabler/icons-react';
import type { EndedSessionStatus, GlobalStats, StatsRange } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { Empty } from '../../components/Empty';
import { StatCard } from '../../components/StatCard';
import { statusColor } from '../../components/StatusBadge';
import { formatDuration, formatPercent } from '../../lib/format';

const ENDED: EndedSessionStatus[] = ['completed', 'cancelled', 'disconnected', 'timeout'];

function endedCount(stats: GlobalStats, status: EndedSessionStatus): number {
  return stats[`${status}_sessions`];
}

/**
 * The period's figures (the global ones, or an organisation's), and the sessions started today,
 * this week and this month (`global`: all-time figures, or the organisation's own).
 */
export function StatsCards({
  data,
  global,
}: {
  data: GlobalStats;
  global: GlobalStats | undefined;
}) {
  const { t, i18n } = useTranslation('adminStats');
  const percent = (value: number) => formatPercent(value, i18n.language);
  const started = (
    key: keyof Pick<GlobalStats, 'sessions_today' | 'sessions_this_week' | 'sessions_this_month'>,
  ) => (global ? global[key] : t('common:none'));
  return (
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
  );
}

/** The five organisations with the most sessions of the period, each with its success rate. */
export function TopOrganizations({ data }: { data: StatsRange }) {
  const { t, i18n } = useTranslation('adminStats');
  const percent = (value: number) => formatPercent(value, i18n.language);
  return (
    <Card withBorder radius="lg" p="md" h="100%">
      <Title order={5} mb="md">
        {t('top.title')}
      </Title>
      {data.top_organizations.length === 0 ? (
        <Empty title={t('top.empty')} />
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
  );
}

/** How the period's ended sessions ended: completed, cancelled, disconnected, timed out. */
export function EndedSessions({ data }: { data: GlobalStats }) {
  const { t } = useTranslation('adminStats');
  return (
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
  );
}
