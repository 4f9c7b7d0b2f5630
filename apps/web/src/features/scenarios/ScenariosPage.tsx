import { Accordion, Badge, Card, Group, List, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAdjustments, IconListDetails } from '@tabler/icons-react';
import type { ScenarioTree, ScenarioTreeLevel, ScenarioTreeModule } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { ExportForLmsButton } from '../../components/ExportForLmsDialog';
import { Empty } from '../../components/Empty';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useContentText } from '../../lib/content-text';
import { useNow } from '../../lib/useNow';
import { useScenarioTree } from '../../api/scenarios';
import { AccessExpiry } from './AccessExpiry';

function LevelCard({ level }: { level: ScenarioTreeLevel }) {
  const { t } = useTranslation();
  const content = useContentText();
  const description = content.description(level);
  return (
    <Paper withBorder radius="md" p="md" data-testid="level">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <ThemeIcon variant="light" radius="xl" size="md" aria-hidden>
            <Text size="xs" fw={700}>
              {level.level_number}
            </Text>
          </ThemeIcon>
          <Text fw={600} size="sm">
            {t('scenarios:levelTitle', { number: level.level_number, name: content.name(level) })}
          </Text>
        </Group>
        <Group gap="xs">
          <Badge variant="outline" color="gray" tt="none">
            {t('scenarios:maxTasks', { count: level.max_tasks })}
          </Badge>
          <ExportForLmsButton target={{ level_id: level.id }} name={content.name(level)} />
        </Group>
      </Group>
      {description ? (
        <Text size="sm" c="dimmed" mt="xs">
          {description}
        </Text>
      ) : null}
      <Stack gap={6} mt="sm">
        <Group gap={6}>
          <IconAdjustments size={14} />
          <Text size="xs" fw={600} tt="uppercase" c="dimmed">
            {t('scenarios:options')}
          </Text>
        </Group>
        {level.options.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('scenarios:noOptions')}
          </Text>
        ) : (
          <List size="sm" spacing={4} withPadding>
            {level.options.map((option) => (
              <List.Item key={option.id}>
                <Text span size="sm" fw={500}>
                  {content.name(option)}
                </Text>
                {content.description(option) ? (
                  <Text span size="sm" c="dimmed">
                    {' — '}
                    {content.description(option)}
                  </Text>
                ) : null}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Paper>
  );
}

function ModuleList({ modules }: { modules: ScenarioTreeModule[] }) {
  const { t } = useTranslation();
  const content = useContentText();
  if (modules.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('scenarios:noModules')}
      </Text>
    );
  }
  return (
    <Accordion variant="contained" radius="md" multiple chevronPosition="left">
      {modules.map((module) => (
        <Accordion.Item key={module.id} value={module.id}>
          <Accordion.Control>
            <Group justify="space-between" gap="sm" wrap="nowrap">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text fw={500} size="sm">
                  {content.name(module)}
                </Text>
                {content.description(module) ? (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {content.description(module)}
                  </Text>
                ) : null}
              </Stack>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {t('scenarios:levelCount', { count: module.levels.length })}
              </Text>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            {module.levels.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('scenarios:noLevels')}
              </Text>
            ) : (
              <Stack gap="sm">
                {module.levels.map((level) => (
                  <LevelCard key={level.id} level={level} />
                ))}
              </Stack>
            )}
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}

function ScenarioItem({ scenario, now }: { scenario: ScenarioTree; now: Date }) {
  const { t } = useTranslation();
  const content = useContentText();
  const description = content.description(scenario);
  return (
    <Accordion.Item value={scenario.id} data-testid="scenario">
      <Accordion.Control>
        <Group justify="space-between" gap="md" wrap="wrap">
          <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
            <Text fw={600}>{content.name(scenario)}</Text>
            <Text size="xs" c="dimmed">
              {t('scenarios:moduleCount', { count: scenario.modules.length })}
            </Text>
          </Stack>
          <AccessExpiry expiresAt={scenario.access_expires_at} now={now} />
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="md">
          {description ? <Text size="sm">{description}</Text> : null}
          <ModuleList modules={scenario.modules} />
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

export function ScenariosPage() {
  const { t } = useTranslation();
  const scenarios = useScenarioTree();
  const now = useNow(60_000);
  const list = scenarios.data ?? [];

  return (
    <>
      <PageHeader
        title={t('scenarios:title')}
        subtitle={t('scenarios:subtitle')}
        actions={
          scenarios.data ? (
            <Badge variant="light" size="lg">
              {t('scenarios:total', { count: list.length })}
            </Badge>
          ) : null
        }
      />
      <QueryState
        isPending={scenarios.isPending}
        error={scenarios.error}
        onRetry={() => scenarios.refetch()}
        errorText={t('scenarios:loadError')}
      >
        {list.length === 0 ? (
          <Card withBorder radius="lg" py="xl">
            <Empty
              inCard
              icon={<IconListDetails size={28} />}
              title={t('scenarios:emptyTitle')}
              description={t('scenarios:emptyText')}
            />
          </Card>
        ) : (
          <Accordion
            variant="separated"
            radius="lg"
            multiple
            chevronPosition="right"
            styles={{
              item: {
                backgroundColor: 'var(--mantine-color-body)',
                border: '1px solid var(--mantine-color-gray-3)',
              },
            }}
          >
            {list.map((scenario) => (
              <ScenarioItem key={scenario.id} scenario={scenario} now={now} />
            ))}
          </Accordion>
        )}
      </QueryState>
    </>
  );
}
