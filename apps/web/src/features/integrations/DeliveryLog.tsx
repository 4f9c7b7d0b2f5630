import { ActionIcon, Button, Card, Flex, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFilterOff, IconRefresh, IconTimeline, IconX } from '@tabler/icons-react';
import {
  DELIVERY_RETENTION_DAYS,
  DELIVERY_STATUSES,
  INTEGRATION_EVENTS,
  type Delivery,
  type Integration,
} from '@vrtc/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeliveries, useRedeliver } from '../../api/integrations';
import { QueryState } from '../../components/QueryState';
import { CursorPager } from '../../components/CursorPager';
import { Empty } from '../../components/Empty';
import { errorText } from '../../lib/error-text';
import { notifyError, notifySuccess } from '../../lib/notify';
import { deliveryStatusLabel, eventLabel } from './integration-labels';
import type { IntegrationsState } from './integrations-state';
import { DeliveryCards, DeliveryTable } from './DeliveryRows';
import { Tooltip } from '../../components/Tooltip';

/** Below this width the deliveries are cards: seven columns do not fit. */
const CARDS_BELOW = '(max-width: 61.99em)';

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
  const { t } = useTranslation('integrations');
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
  const rowsProps = { rows, integration, onRedeliver: send, pendingId };

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
        {rows.length === 0 ? (
          empty
        ) : cards ? (
          <DeliveryCards {...rowsProps} />
        ) : (
          <DeliveryTable {...rowsProps} />
        )}
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
