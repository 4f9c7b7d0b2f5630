import { BarChart } from '@mantine/charts';
import { Card, Group, Text, Title } from '@mantine/core';
import type { DailyStat } from '@vrtc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDayMonth } from '../../lib/format';

/** Sessions started per day over the period (every day, zeros included), completed ones stacked first. */
export function DailySessionsChart({ daily }: { daily: DailyStat[] }) {
  const { t, i18n } = useTranslation('adminStats');
  const language = i18n.language;
  const data = useMemo(
    () =>
      daily.map((day) => ({
        day: formatDayMonth(day.date, language, { timeZone: 'UTC' }),
        completed: day.completed,
        other: Math.max(0, day.sessions - day.completed),
      })),
    [daily, language],
  );
  const total = daily.reduce((sum, day) => sum + day.sessions, 0);
  const peak = daily.reduce<DailyStat | undefined>(
    (best, day) => (!best || day.sessions > best.sessions ? day : best),
    undefined,
  );

  return (
    <Card withBorder radius="lg" p="md" h="100%">
      <Group justify="space-between" align="flex-start" mb="md" gap="xs">
        <div>
          <Title order={5}>{t('daily.title')}</Title>
          <Text size="xs" c="dimmed" data-testid="daily-summary">
            {peak && peak.sessions > 0
              ? t('daily.summary', {
                  count: total,
                  days: daily.length,
                  peak: peak.sessions,
                  date: formatDate(peak.date, language, { timeZone: 'UTC' }),
                })
              : t('daily.none')}
          </Text>
        </div>
      </Group>
      <BarChart
        h={280}
        data={data}
        dataKey="day"
        type="stacked"
        withLegend
        legendProps={{ verticalAlign: 'bottom', height: 36 }}
        series={[
          { name: 'completed', label: t('daily.completed'), color: 'teal.6' },
          { name: 'other', label: t('daily.other'), color: 'blue.4' },
        ]}
        tickLine="y"
        gridAxis="x"
        yAxisProps={{ allowDecimals: false, width: 36 }}
        xAxisProps={{ minTickGap: 16 }}
        maxBarWidth={28}
      />
    </Card>
  );
}
