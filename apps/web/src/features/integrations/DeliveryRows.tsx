import {
  Card,
  Group,
  Stack,
  Table,
  TableScrollContainer,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import type { Delivery, Integration } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { Answer, durationText, RedeliverButton, StatusCell } from './delivery-parts';
import { eventLabel } from './integration-labels';

/** What both views of the log are given. */
export interface DeliveryRowsProps {
  rows: Delivery[];
  integration: Integration;
  onRedeliver: (delivery: Delivery) => void;
  /** The delivery being sent again, if one is. */
  pendingId: string | undefined;
}

/** When a delivery was last tried (or made, before its first attempt). */
function useDeliveryTime() {
  const { i18n } = useTranslation();
  return (delivery: Delivery) =>
    formatDateTime(delivery.last_attempt_at ?? delivery.created_at, i18n.language);
}

/** The log as a table on a laptop: time, event, attempts, status, code, duration, answer. */
export function DeliveryTable({ rows, integration, onRedeliver, pendingId }: DeliveryRowsProps) {
  const { t } = useTranslation('integrations');
  const time = useDeliveryTime();
  return (
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
                  onRedeliver={onRedeliver}
                  pending={pendingId === delivery.id}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScrollContainer>
  );
}

/** The log as cards where seven columns do not fit. */
export function DeliveryCards({ rows, integration, onRedeliver, pendingId }: DeliveryRowsProps) {
  const { t } = useTranslation('integrations');
  const time = useDeliveryTime();
  return (
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
                onRedeliver={onRedeliver}
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
}
