import { Alert, Badge, Button, Card, Code, Group, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconKey,
  IconList,
  IconPencil,
  IconPlayerPause,
  IconPlayerPlay,
  IconSend,
  IconTrash,
} from '@tabler/icons-react';
import type { Integration, IntegrationTestResult } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FULL_LABEL_BADGE } from '../../components/StatusBadge';
import { formatDateTime } from '../../lib/format';
import { deliveryErrorLabel, eventLabel, reasonLabel } from './integration-labels';

/** What the receiver said to a test send: its status, how long it took, its answer's start. */
export function TestResult({ result }: { result: IntegrationTestResult }) {
  const { t } = useTranslation('integrations');
  const ms = result.duration_ms;
  const headline =
    result.status_code === null
      ? t('test.noAnswer', { ms, error: result.error ? deliveryErrorLabel(t, result.error) : '' })
      : result.ok
        ? t('test.ok', { code: result.status_code, ms })
        : t('test.rejected', { code: result.status_code, ms });
  return (
    <Alert
      color={result.ok ? 'green' : 'red'}
      icon={result.ok ? <IconCircleCheck /> : <IconAlertTriangle />}
      title={t('test.title')}
      role="status"
      data-testid="integration-test-result"
    >
      <Text size="sm">{headline}</Text>
      {result.status_code !== null ? (
        result.response_body ? (
          <>
            <Text size="xs" c="dimmed" mt="xs">
              {t('test.answer')}
            </Text>
            <Code
              block
              style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', maxHeight: 160 }}
            >
              {result.response_body}
            </Code>
          </>
        ) : (
          <Text size="xs" c="dimmed" mt="xs">
            {t('test.emptyAnswer')}
          </Text>
        )
      ) : null}
    </Alert>
  );
}

export interface IntegrationActions {
  edit(integration: Integration): void;
  test(integration: Integration): void;
  openLog(integration: Integration): void;
  rotate(integration: Integration): void;
  toggle(integration: Integration): void;
  remove(integration: Integration): void;
}

/**
 * One integration: its kind, where it sends, what it sends, whether it is on (and when off, why, as
 * the server says), and what can be done with it. A card rather than a table row: an address and a
 * list of events need the width a phone does not have for columns.
 */
export function IntegrationCard({
  integration,
  actions,
  testing,
  testResult,
}: {
  integration: Integration;
  actions: IntegrationActions;
  testing: boolean;
  testResult: IntegrationTestResult | undefined;
}) {
  const { t, i18n } = useTranslation('integrations');
  const webhook = integration.kind === 'webhook';
  return (
    <Card
      withBorder
      radius="md"
      p="md"
      component="article"
      aria-label={integration.url}
      data-testid="integration"
    >
      <Stack gap="sm">
        <Group gap="xs" wrap="wrap">
          <Badge variant="light" color={webhook ? 'blue' : 'grape'} styles={FULL_LABEL_BADGE}>
            {t(`kind.${integration.kind}`)}
          </Badge>
          <Badge
            variant="light"
            color={integration.enabled ? 'green' : 'gray'}
            styles={FULL_LABEL_BADGE}
          >
            {integration.enabled ? t('state.enabled') : t('state.disabled')}
          </Badge>
        </Group>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {integration.url}
        </Text>
        {!integration.enabled ? (
          <Alert
            color={integration.disabled_reason === 'by_user' ? 'gray' : 'orange'}
            icon={<IconAlertTriangle />}
            p="xs"
          >
            <Text size="sm">
              {t('disabledBecause', {
                time: formatDateTime(integration.disabled_at, i18n.language),
                reason: reasonLabel(t, integration.disabled_reason),
              })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('disabledHint')}
            </Text>
          </Alert>
        ) : null}
        <Stack gap={4}>
          <Text size="xs" c="dimmed">
            {t('events')}
          </Text>
          <Group gap={6} wrap="wrap">
            {integration.events.map((event) => (
              <Badge
                key={event}
                variant="outline"
                color="gray"
                tt="none"
                styles={FULL_LABEL_BADGE}
                title={event}
              >
                {eventLabel(t, event)}
              </Badge>
            ))}
          </Group>
        </Stack>
        {integration.xapi_key ? (
          <Text size="sm">
            {t('xapiKey')}: <Code style={{ overflowWrap: 'anywhere' }}>{integration.xapi_key}</Code>
          </Text>
        ) : null}
        <Text size="xs" c="dimmed">
          {t('includeNames')}: {integration.include_names ? t('common:yes') : t('common:no')}
        </Text>
        {integration.previous_secret_expires_at ? (
          <Text size="xs" c="dimmed">
            {t('previousSecret', {
              time: formatDateTime(integration.previous_secret_expires_at, i18n.language),
            })}
          </Text>
        ) : null}
        <Group gap="xs" wrap="wrap">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconSend size={14} />}
            loading={testing}
            onClick={() => actions.test(integration)}
          >
            {t('action.test')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconList size={14} />}
            onClick={() => actions.openLog(integration)}
          >
            {t('action.log')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPencil size={14} />}
            onClick={() => actions.edit(integration)}
          >
            {t('action.edit')}
          </Button>
          {webhook ? (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconKey size={14} />}
              onClick={() => actions.rotate(integration)}
            >
              {t('action.rotate')}
            </Button>
          ) : null}
          <Button
            size="xs"
            variant="default"
            leftSection={
              integration.enabled ? <IconPlayerPause size={14} /> : <IconPlayerPlay size={14} />
            }
            onClick={() => actions.toggle(integration)}
          >
            {integration.enabled ? t('action.disable') : t('action.enable')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} />}
            onClick={() => actions.remove(integration)}
          >
            {t('action.delete')}
          </Button>
        </Group>
        {testResult ? <TestResult result={testResult} /> : null}
      </Stack>
    </Card>
  );
}
