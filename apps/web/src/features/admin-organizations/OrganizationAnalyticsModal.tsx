import {
  Badge,
  Card,
  Group,
  Modal,
  Progress,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { Organization } from '@vrtc/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryState } from '../../components/QueryState';
import { useContentText } from '../../lib/content-text';
import { formatDateRange, formatPercent } from '../../lib/format';
import { ANALYTICS_DAYS, useOrganizationAnalytics } from '../../api/organizations';

function Section({
  title,
  empty,
  children,
}: {
  title: string;
  empty: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation('adminOrganizations');
  return (
    <Card withBorder radius="md" p="md">
      <Title order={5} mb="sm">
        {title}
      </Title>
      {empty ? (
        <Text size="sm" c="dimmed" ta="center" py="md">
          {t('analytics.empty')}
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}

function rateColor(rate: number) {
  return rate >= 75 ? 'green' : rate >= 40 ? 'yellow' : 'red';
}

/** The organisation's last 30 days: top VR users, device usage and scenario performance. */
export function OrganizationAnalyticsModal({
  organization,
  onClose,
}: {
  organization?: Organization;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('adminOrganizations');
  const content = useContentText();
  const analytics = useOrganizationAnalytics(organization?.id);
  const data = analytics.data;
  const percent = (value: number) => formatPercent(value, i18n.language);

  return (
    <Modal
      opened={Boolean(organization)}
      onClose={onClose}
      size="xl"
      title={
        <Group gap="xs">
          <Text fw={600}>{organization?.name}</Text>
          <Badge variant="light">{t('analytics.period', { count: ANALYTICS_DAYS })}</Badge>
          {/* The statistics' period: whole UTC days, so its counts are the statistics' own. */}
          {data ? (
            <Text size="sm" c="dimmed" data-testid="analytics-range">
              {t('analytics.range', {
                range: formatDateRange(data.start_date, data.end_date, i18n.language, {
                  timeZone: 'UTC',
                }),
              })}
            </Text>
          ) : null}
        </Group>
      }
    >
      <QueryState
        isPending={analytics.isPending}
        error={analytics.error}
        errorText={t('analytics.loadFailed')}
        onRetry={() => analytics.refetch()}
      >
        {data ? (
          <Stack>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <Section title={t('analytics.topVrUsers')} empty={data.top_vr_users.length === 0}>
                <ScrollArea>
                  <Table verticalSpacing={6} striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('analytics.name')}</Table.Th>
                        <Table.Th ta="right">{t('analytics.sessions')}</Table.Th>
                        <Table.Th ta="right">{t('analytics.successRate')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.top_vr_users.map((user) => (
                        <Table.Tr key={user.vr_user_id ?? `name:${user.name}`}>
                          <Table.Td>{user.name}</Table.Td>
                          <Table.Td ta="right">{user.session_count}</Table.Td>
                          <Table.Td ta="right">{percent(user.success_rate)}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea>
              </Section>
              <Section title={t('analytics.deviceUsage')} empty={data.device_usage.length === 0}>
                <ScrollArea>
                  <Table verticalSpacing={6} striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('analytics.device')}</Table.Th>
                        <Table.Th>{t('analytics.type')}</Table.Th>
                        <Table.Th ta="right">{t('analytics.sessions')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.device_usage.map((device) => (
                        <Table.Tr key={device.device_id ?? `name:${device.device_name}`}>
                          <Table.Td>{device.device_name}</Table.Td>
                          <Table.Td>
                            {t(`common:deviceType.${device.device_type}`, {
                              defaultValue: device.device_type,
                            })}
                          </Table.Td>
                          <Table.Td ta="right">{device.session_count}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea>
              </Section>
            </SimpleGrid>
            <Section
              title={t('analytics.scenarioPerformance')}
              empty={data.scenario_stats.length === 0}
            >
              <Stack gap="sm">
                {data.scenario_stats.map((scenario) => (
                  <div key={scenario.scenario_name}>
                    <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                      <Text size="sm" fw={500} truncate>
                        {content.text(scenario.scenario_name, scenario.scenario_name_en)}
                      </Text>
                      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                        {t('analytics.scenarioFigures', {
                          count: scenario.session_count,
                          rate: percent(scenario.success_rate),
                        })}
                      </Text>
                    </Group>
                    <Progress
                      value={scenario.success_rate}
                      color={rateColor(scenario.success_rate)}
                      size="md"
                      radius="xl"
                      aria-label={`${content.text(scenario.scenario_name, scenario.scenario_name_en)}: ${percent(scenario.success_rate)}`}
                    />
                  </div>
                ))}
              </Stack>
            </Section>
          </Stack>
        ) : null}
      </QueryState>
    </Modal>
  );
}
