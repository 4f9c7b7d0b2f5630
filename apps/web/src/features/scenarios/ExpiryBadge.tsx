import { Badge, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  ACCESS_EXPIRY_COLORS,
  accessExpiryState,
  daysUntil,
  formatExpiryDay,
} from '../../lib/expiry';

/** The access-expiry date of a scenario with its state: expired, expiring, active or never. */
export function ExpiryBadge({ expiresAt, now }: { expiresAt: string | null; now: Date }) {
  const { t, i18n } = useTranslation();
  const state = accessExpiryState(expiresAt, now);
  return (
    <Group gap={8} wrap="nowrap">
      {expiresAt ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="access-expiry">
          {state === 'expired'
            ? t('scenarios:expiredOn', { date: formatExpiryDay(expiresAt, i18n.language) })
            : t('scenarios:expiresOn', { date: formatExpiryDay(expiresAt, i18n.language) })}
        </Text>
      ) : null}
      <Badge
        color={ACCESS_EXPIRY_COLORS[state]}
        variant="light"
        data-state={state}
        style={{ flexShrink: 0 }}
      >
        {state === 'expiring'
          ? t('scenarios:state.expiringIn', { count: daysUntil(expiresAt!, now) })
          : t(`scenarios:state.${state}`)}
      </Badge>
    </Group>
  );
}
