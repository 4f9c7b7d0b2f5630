import { Button, Code, Group, Modal, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFilter } from '@tabler/icons-react';
import { AUDIT_REDACTED, type AuditEvent } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useOrganization } from '../../api/organizations';
import { Fact } from '../../components/Fact';
import { formatDateTime } from '../../lib/format';
import { actionLabel, actorText, changeValueText, targetText } from './audit-labels';
import { OutcomeBadge } from './OutcomeBadge';
import type { AuditFilterChanges } from './audit-list-state';

/** A value before or after: a secret in words, not as the marker the server stores. */
function ChangeValue({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const text = changeValueText(t, value);
  if (value === AUDIT_REDACTED) {
    return (
      <Text size="sm" fs="italic" c="dimmed" span>
        {text}
      </Text>
    );
  }
  return (
    <Text size="sm" span style={{ overflowWrap: 'break-word', whiteSpace: 'pre-wrap' }}>
      {text}
    </Text>
  );
}

/**
 * The changed fields, one row each: field, before, after. On a phone each field stands as its
 * own block, before over after: three columns of 100 px would break every name mid-word.
 */
export function ChangesTable({ changes }: { changes: AuditEvent['changes'] }) {
  const { t } = useTranslation();
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  const fields = Object.entries(changes);
  if (fields.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('audit:detail.noChanges')}
      </Text>
    );
  }
  if (narrow) {
    return (
      <Stack gap="xs" data-testid="audit-changes">
        <Text size="sm" fw={600} component="h3" m={0}>
          {t('audit:detail.changes')}
        </Text>
        {fields.map(([field, [before, after]]) => (
          <Paper key={field} withBorder radius="sm" p="xs" data-field={field}>
            <Code>{field}</Code>
            <SimpleGrid cols={1} spacing={4} mt={6} component="dl" m={0}>
              <Fact label={t('audit:detail.before')}>
                <ChangeValue value={before} />
              </Fact>
              <Fact label={t('audit:detail.after')}>
                <ChangeValue value={after} />
              </Fact>
            </SimpleGrid>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table verticalSpacing="xs" data-testid="audit-changes" layout="fixed" captionSide="top">
      <Table.Caption ta="start" fw={600} c="var(--mantine-color-text)">
        {t('audit:detail.changes')}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="24%">{t('audit:detail.field')}</Table.Th>
          <Table.Th>{t('audit:detail.before')}</Table.Th>
          <Table.Th>{t('audit:detail.after')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.map(([field, [before, after]]) => (
          <Table.Tr key={field} data-field={field}>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Code>{field}</Code>
            </Table.Td>
            <Table.Td>
              <ChangeValue value={before} />
            </Table.Td>
            <Table.Td>
              <ChangeValue value={after} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * One event in full: who, what, the outcome, the target, the changed fields before → after, and
 * where the request came from. From here the list narrows to the event's actor or target.
 */
export function AuditEventDetail({
  event,
  admin,
  onClose,
  onFilter,
}: {
  event: AuditEvent | undefined;
  admin: boolean;
  onClose: () => void;
  onFilter: (changes: AuditFilterChanges) => void;
}) {
  const { t, i18n } = useTranslation();
  // Only an admin sees other organisations' events, and only an admin may name them.
  const organization = useOrganization(admin ? (event?.organization_id ?? undefined) : undefined);
  const target = event ? targetText(t, event.target, i18n.language) : undefined;
  const none = t('common:none');
  return (
    <Modal
      opened={Boolean(event)}
      onClose={onClose}
      size="xl"
      title={event ? actionLabel(t, event.action) : t('audit:detail.open')}
    >
      {event && target ? (
        <Stack gap="lg" data-testid="audit-event-detail">
          <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm" component="dl" m={0}>
            <Fact label={t('audit:detail.time')}>{formatDateTime(event.at, i18n.language)}</Fact>
            <Fact label={t('audit:detail.actor')}>{actorText(t, event.actor)}</Fact>
            <Fact label={t('audit:detail.action')}>
              {actionLabel(t, event.action)} <Code>{event.action}</Code>
            </Fact>
            <Fact label={t('audit:detail.outcome')}>
              <OutcomeBadge outcome={event.outcome} />
            </Fact>
            <Fact label={t('audit:detail.target')}>
              {target.type}: {target.label}
            </Fact>
            {admin ? (
              <Fact label={t('audit:detail.organization')}>
                {event.organization_id
                  ? (organization.data?.name ?? event.organization_id)
                  : t('audit:detail.platform')}
              </Fact>
            ) : null}
          </SimpleGrid>
          <ChangesTable changes={event.changes} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" component="dl" m={0}>
            <Fact label={t('audit:detail.ip')}>{event.ip ?? none}</Fact>
            <Fact label={t('audit:detail.requestId')}>{event.request_id ?? none}</Fact>
            <Fact label={t('audit:detail.userAgent')}>{event.user_agent ?? none}</Fact>
            <Fact label={t('audit:detail.eventId')}>{event.id}</Fact>
          </SimpleGrid>
          <Group gap="sm">
            {event.actor.id ? (
              <Button
                variant="light"
                leftSection={<IconFilter size={16} />}
                onClick={() => onFilter({ actor_id: event.actor.id })}
              >
                {t('audit:detail.byActor')}
              </Button>
            ) : null}
            {event.target.id ? (
              <Button
                variant="light"
                leftSection={<IconFilter size={16} />}
                onClick={() => onFilter({ target_id: event.target.id })}
              >
                {t('audit:detail.aboutTarget')}
              </Button>
            ) : null}
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
