import { ActionIcon, Badge, Code, Stack, Text } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import type { Delivery, Integration } from '@vrtc/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { FULL_LABEL_BADGE } from '../../components/StatusBadge';
import { Tooltip } from '../../components/Tooltip';
import { formatDateTime } from '../../lib/format';
import {
  DELIVERY_STATUS_COLORS,
  deliveryErrorLabel,
  deliveryStatusLabel,
  eventLabel,
} from './integration-labels';

/** The last answer's first bytes, or why there was none. */
export function Answer({ delivery }: { delivery: Delivery }) {
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

export function StatusCell({ delivery }: { delivery: Delivery }) {
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

export function RedeliverButton({
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

export const durationText = (t: TFunction, ms: number | null) =>
  ms === null ? t('common:none') : t('log.durationMs', { ms });
