import { Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import type { ScenarioStat } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import { formatPercent } from '../../lib/format';

/** Sessions and success of each scenario in the period, most sessions first. */
export function ScenarioStats({ stats }: { stats: ScenarioStat[] }) {
  const { t, i18n } = useTranslation('adminStats');
  const content = useContentText();
  const rows = [...stats].sort((a, b) => b.total_sessions - a.total_sessions);
  return (
    <Card withBorder radius="lg" p="md" h="100%">
      <Title order={5} mb="md">
        {t('scenarios.title')}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" py="xl">
          {t('scenarios.empty')}
        </Text>
      ) : (
        <Stack gap="md">
          {rows.map((scenario) => {
            const name = content.text(scenario.scenario_name, scenario.scenario_name_en);
            const rate = formatPercent(scenario.success_rate, i18n.language);
            return (
              <div key={scenario.scenario_name} data-testid="scenario-stat">
                {/* On a narrow screen the figures go under the name, which stays whole. */}
                <Group justify="space-between" wrap="wrap" gap={4} mb={4}>
                  <Text size="sm" fw={500} style={{ overflowWrap: 'break-word', minWidth: 0 }}>
                    {name}
                  </Text>
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {t('scenarios.figures', { count: scenario.total_sessions, rate })}
                  </Text>
                </Group>
                <Progress
                  value={scenario.success_rate}
                  color="teal"
                  size="sm"
                  radius="xl"
                  aria-label={`${name}: ${rate}`}
                />
              </div>
            );
          })}
        </Stack>
      )}
    </Card>
  );
}
