import { BarChart } from '@mantine/charts';
import { Card, Group, Text, Title } from '@mantine/core';
import type { DailyStat } from '@vrtc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateLocale } from '../../i18n';

/** Sessions started per day over the period (every day, zeros included), completed ones stacked first. */
export function DailySessionsChart({ daily }: { daily: DailyStat[] }) {
  const { t, i18n } = useTranslation('adminStats');
  const format = useMemo(
    () =>
      new Intl.DateTimeFormat(dateLocale(i18n.language), {
        day: 'numeric',
        month: 'short',
        timeZone: 'UTC',
      }),
    [i18n.language],
  );
  const data = useMemo(
    () =>
      daily.map((day) => ({
        day: format.format(Date.parse(day.date)),
        completed: day.completed,
        other: Math.max(0, day.sessions - day.completed),
      })),
    [daily, format],
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
                  date: format.format(Date.parse(peak.date)),
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
