import { Accordion, Badge, Button, Group, Progress, Text } from '@mantine/core';
import { IconKeyOff, IconPlus } from '@tabler/icons-react';
import type { ScenarioAccessEntry, ScenarioAccessOrganization } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import { GrantsTable } from './GrantsTable';

/**
 * One scenario's line: how many organisations have access (of all), and opened, its grants with
 * buttons to grant more and to revoke them all.
 */
export function ScenarioAccessItem({
  entry,
  onGrant,
  onRevoke,
  onRevokeAll,
}: {
  entry: ScenarioAccessEntry;
  onGrant: () => void;
  onRevoke: (organization: ScenarioAccessOrganization) => void;
  onRevokeAll: () => void;
}) {
  const { t } = useTranslation('adminAccess');
  const content = useContentText();
  const share = entry.total_organizations
    ? (entry.organizations_with_access / entry.total_organizations) * 100
    : 0;
  return (
    <Accordion.Item value={entry.scenario_id}>
      <Accordion.Control>
        <Group justify="space-between" wrap="wrap" gap="xs" pr="sm">
          <Text fw={600}>{content.text(entry.scenario_name, entry.scenario_name_en)}</Text>
          <Group gap="sm" wrap="nowrap">
            <Progress value={share} w={90} size="sm" radius="xl" aria-hidden visibleFrom="xs" />
            <Badge
              variant="light"
              size="lg"
              tt="none"
              color={entry.organizations_with_access > 0 ? 'blue' : 'gray'}
              data-testid="access-count"
            >
              {t('withAccessCount', {
                with: entry.organizations_with_access,
                total: entry.total_organizations,
              })}
            </Badge>
          </Group>
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Group justify="flex-end" gap="xs" mb="sm">
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={onGrant}>
            {t('grantAccess')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconKeyOff size={14} />}
            disabled={entry.organizations_with_access === 0}
            onClick={onRevokeAll}
          >
            {t('revokeAll')}
          </Button>
        </Group>
        <GrantsTable entry={entry} onRevoke={onRevoke} />
      </Accordion.Panel>
    </Accordion.Item>
  );
}
