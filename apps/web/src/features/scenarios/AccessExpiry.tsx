import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ExpiryBadge } from '../../components/ExpiryBadge';
import { accessExpiryState, formatExpiryDay } from '../../lib/expiry';

/** The day a scenario's access ends ("Access until …", "Access ended …"), and its state. */
export function AccessExpiry({ expiresAt, now }: { expiresAt: string | null; now: Date }) {
  const { t, i18n } = useTranslation();
  const expired = accessExpiryState(expiresAt, now) === 'expired';
  return (
    <Group gap={8} wrap="nowrap">
      {expiresAt ? (
        <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="access-expiry">
          {t(expired ? 'scenarios:expiredOn' : 'scenarios:expiresOn', {
            date: formatExpiryDay(expiresAt, i18n.language),
          })}
        </Text>
      ) : null}
      <ExpiryBadge expiresAt={expiresAt} now={now} namespace="scenarios" />
    </Group>
  );
}
