import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ACCESS_EXPIRY_COLORS, accessExpiryState, daysUntil } from '../lib/expiry';

/**
 * The state of an access that may end (lib/expiry.ts): expired, expiring in N days, active, or
 * never. `namespace` names the screen's words for the states (`<namespace>:state.*`): the
 * organisation's scenario list and the admin's access screen word "active" each their own way.
 */
export function ExpiryBadge({
  expiresAt,
  now = new Date(),
  namespace,
}: {
  expiresAt: string | null;
  now?: Date;
  namespace: 'scenarios' | 'adminAccess';
}) {
  const { t } = useTranslation(namespace);
  const state = accessExpiryState(expiresAt, now);
  return (
    <Badge
      color={ACCESS_EXPIRY_COLORS[state]}
      variant="light"
      data-state={state}
      style={{ flexShrink: 0 }}
    >
      {state === 'expiring' && expiresAt
        ? t('state.expiringIn', { count: daysUntil(expiresAt, now) })
        : t(`state.${state}`)}
    </Badge>
  );
}
