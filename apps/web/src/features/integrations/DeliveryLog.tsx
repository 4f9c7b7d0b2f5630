import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Code,
  Flex,
  Group,
  Select,
  Stack,
  Table,
  TableScrollContainer,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFilterOff, IconRefresh, IconRepeat, IconTimeline, IconX } from '@tabler/icons-react';
import {
  DELIVERY_RETENTION_DAYS,
  DELIVERY_STATUSES,
  INTEGRATION_EVENTS,
  type Delivery,
  type Integration,
} from '@vrtc/contract';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeliveries, useRedeliver } from '../../api/integrations';
import { QueryState } from '../../components/QueryState';
import { CursorPager } from '../../components/CursorPager';
import { Empty } from '../../components/Empty';
import { FULL_LABEL_BADGE } from '../../components/StatusBadge';
import { errorText } from '../../lib/error-text';
import { formatDateTime } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import {
  DELIVERY_STATUS_COLORS,
  deliveryErrorLabel,
  deliveryStatusLabel,
  eventLabel,
} from './integration-labels';
import type { IntegrationsState } from './integrations-state';
import { Tooltip } from '../../components/Tooltip';

/** Below this width the deliveries are cards: seven columns do not fit. */
const CARDS_BELOW = '(max-width: 61.99em)';

/** The last answer's first bytes, or why there was none. */
function Answer({ delivery }: { delivery: Delivery }) {
  const { t } = useTranslation('integrations');
  if (delivery.last_error)
    return (
      <Text size="sm" c="red">
        {deliveryErrorLabel(t, delivery.last_error)}
      </Text>
    );
  if (!delivery.last_response) return <Text size="sm">{t('common:none')}</Text>;
  return (
    <Code
      block
      title={delivery.last_response}
      style={{
        overflowWrap: 'anywhere',
        whiteSpace: 'pre-wrap',
        maxHeight: 96,
        overflow: 'auto',
      }}
    >
      {delivery.last_response}
    </Code>
  );
}

function StatusCell({ delivery }: { delivery: Delivery }) {
  const { t, i18n } = useTranslation('integrations');
  return (
    <Stack gap={2}>
      <Badge
        color={DELIVERY_STATUS_COLORS[delivery.status]}
        variant="light"
        styles={FULL_LABEL_BADGE}
      >
        {deliveryStatusLabel(t, delivery.status)}
      </Badge>
      {delivery.status === 'pending' && delivery.next_attempt_at ? (
        <Text size="xs" c="dimmed">
          {t('log.nextAttempt', { time: formatDateTime(delivery.next_attempt_at, i18n.language) })}
        </Text>
      ) : null}
    </Stack>
  );
}

function RedeliverButton({
  delivery,
  integration,
  onRedeliver,
  pending,
}: {
  delivery: Delivery;
  integration: Integration;
  onRedeliver: (delivery: Delivery) => void;
  pending: boolean;
}) {
  const { t, i18n } = useTranslation('integrations');
  const label = t('log.redeliver');
  const disabledReason = integration.enabled ? undefined : t('log.redeliverDisabled');
  return (
    <Tooltip label={disabledReason ?? label}>
      <span>
        <ActionIcon
          variant="subtle"
          onClick={() => onRedeliver(delivery)}
          disabled={Boolean(disabledReason)}
          loading={pending}
          aria-label={t('log.redeliverLabel', {
            event: eventLabel(t, delivery.event_type),
            time: formatDateTime(delivery.created_at, i18n.language),
          })}
        >
          <IconRepeat size={18} />
        </ActionIcon>
      </span>
    </Tooltip>
  );
}

const durationText = (t: TFunction, ms: number | null) =>
  ms === null ? t('common:none') : t('log.durationMs', { ms });

/**
 * An integration's delivery log (30 days), newest first: each event's time, kind, attempts,
 * status, the last answer's HTTP code, duration and first bytes, and a button to send it again.
 * Its filters (event, status) and page live in the URL.
 */
export function DeliveryLog({
  integration,
  state,
}: {
  integration: Integration;
  state: IntegrationsState;
}) {
  const { t, i18n } = useTranslation('integrations');
  const cards = useMediaQuery(CARDS_BELOW) ?? false;
  const deliveries = useDeliveries(integration.id, state.query);
  const redeliver = useRedeliver();
  const rows = deliveries.data?.deliveries ?? [];
  const filtered = Boolean(state.filters.event || state.filters.status);
  const eventOptions = useMemo(
    () => INTEGRATION_EVENTS.map((event) => ({ value: event, label: eventLabel(t, event) })),
    [t],
  );
  const statusOptions = useMemo(
    () =>
      DELIVERY_STATUSES.map((status) => ({ value: status, label: deliveryStatusLabel(t, status) })),
    [t],
  );

  async function send(delivery: Delivery) {
    try {
      await redeliver.mutateAsync({ id: integration.id, deliveryId: delivery.id });
      notifySuccess(t('log.redelivered'));
    } catch (error) {
      notifyError(errorText(error, t('log.redeliverFailed')));
    }
  }
  const pendingId = redeliver.isPending ? redeliver.variables?.deliveryId : undefined;
  const time = (delivery: Delivery) =>
    formatDateTime(delivery.last_attempt_at ?? delivery.created_at, i18n.language);

  const empty = (
    <Empty
      icon={<IconTimeline size={28} />}
      title={t('log.emptyTitle')}
      description={filtered ? t('log.emptyFilteredText') : t('log.emptyText')}
      action={
        filtered || !state.atNewest ? (
          <Button
            variant="light"
            leftSection={<IconFilterOff size={16} />}
            onClick={() => state.setDeliveryFilters({ event: null, status: null })}
          >
            {t('log.showAll')}
          </Button>
        ) : undefined
      }
    />
  );

  const table = (
    <TableScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" data-testid="delivery-log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('log.col.time')}</Table.Th>
            <Table.Th>{t('log.col.event')}</Table.Th>
            <Table.Th>{t('log.col.attempts')}</Table.Th>
            <Table.Th>{t('log.col.status')}</Table.Th>
            <Table.Th>{t('log.col.code')}</Table.Th>
            <Table.Th>{t('log.col.duration')}</Table.Th>
            <Table.Th>{t('log.col.answer')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('log.redeliver')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((delivery) => (
            <Table.Tr key={delivery.id}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{time(delivery)}</Table.Td>
              <Table.Td>
                <Text size="sm">{eventLabel(t, delivery.event_type)}</Text>
                <Text size="xs" c="dimmed">
                  {delivery.event_type}
                </Text>
              </Table.Td>
              <Table.Td>{delivery.attempts}</Table.Td>
              <Table.Td>
                <StatusCell delivery={delivery} />
              </Table.Td>
              <Table.Td>{delivery.last_status_code ?? t('common:none')}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                {durationText(t, delivery.last_duration_ms)}
              </Table.Td>
              <Table.Td style={{ maxWidth: 280 }}>
                <Answer delivery={delivery} />
              </Table.Td>
              <Table.Td>
                <RedeliverButton
                  delivery={delivery}
                  integration={integration}
                  onRedeliver={send}
                  pending={pendingId === delivery.id}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScrollContainer>
  );

  const cardList = (
    <Stack gap="sm" data-testid="delivery-log">
      {rows.map((delivery) => (
        <Card key={delivery.id} withBorder radius="md" p="sm" component="article">
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text size="sm" fw={500}>
                  {eventLabel(t, delivery.event_type)}
                </Text>
                <Text size="xs" c="dimmed">
                  {time(delivery)}
                </Text>
              </Stack>
              <RedeliverButton
                delivery={delivery}
                integration={integration}
                onRedeliver={send}
                pending={pendingId === delivery.id}
              />
            </Group>
            <StatusCell delivery={delivery} />
            <Text size="xs">
              {t('log.col.attempts')}: {delivery.attempts} · {t('log.col.code')}:{' '}
              {delivery.last_status_code ?? t('common:none')} · {t('log.col.duration')}:{' '}
              {durationText(t, delivery.last_duration_ms)}
            </Text>
            <Answer delivery={delivery} />
          </Stack>
        </Card>
      ))}
    </Stack>
  );

  return (
    <Card
      withBorder
      radius="lg"
      p="md"
      mt="lg"
      component="section"
      aria-labelledby="delivery-log-title"
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start" mb="sm">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Title order={3} id="delivery-log-title">
            {t('log.title')}
          </Title>
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('log.of', { url: integration.url })}
          </Text>
          <Text size="xs" c="dimmed">
            {t('log.retention', { count: DELIVERY_RETENTION_DAYS })}
          </Text>
        </Stack>
        <Tooltip label={t('log.close')}>
          <ActionIcon
            variant="subtle"
            color="gray"
            onClick={state.closeLog}
            aria-label={t('log.close')}
          >
            <IconX size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Flex wrap="wrap" gap="sm" mb="sm" align="flex-end">
        <Select
          style={{ flex: '1 1 200px' }}
          label={t('log.event')}
          placeholder={t('log.allEvents')}
          data={eventOptions}
          value={state.filters.event ?? null}
          onChange={(value) => state.setDeliveryFilters({ event: value })}
          clearable
          clearButtonProps={{ 'aria-label': t('common:clear') }}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          style={{ flex: '1 1 160px' }}
          label={t('log.status')}
          placeholder={t('log.allStatuses')}
          data={statusOptions}
          value={state.filters.status ?? null}
          onChange={(value) => state.setDeliveryFilters({ status: value })}
          clearable
          clearButtonProps={{ 'aria-label': t('common:clear') }}
          comboboxProps={{ withinPortal: true }}
        />
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          loading={deliveries.isFetching && !deliveries.isPending}
          onClick={() => deliveries.refetch()}
        >
          {t('common:refresh')}
        </Button>
      </Flex>
      <QueryState
        isPending={deliveries.isPending}
        error={deliveries.data ? null : deliveries.error}
        onRetry={() => deliveries.refetch()}
      >
        {rows.length === 0 ? empty : cards ? cardList : table}
        {rows.length > 0 || !state.atNewest ? (
          <CursorPager
            pages={state}
            nextCursor={deliveries.data?.next_cursor}
            label={t('log.pager.label')}
          />
        ) : null}
      </QueryState>
    </Card>
  );
}
