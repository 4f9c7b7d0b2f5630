import { Badge } from '@mantine/core';
import type { AuditOutcome } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FULL_LABEL_BADGE } from '../../components/StatusBadge';

const COLORS: Record<AuditOutcome, string> = { success: 'green', failure: 'yellow', denied: 'red' };

/** Success, failed or denied, in words and colour. */
export function OutcomeBadge({ outcome }: { outcome: AuditOutcome }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={COLORS[outcome]}
      data-outcome={outcome}
      styles={FULL_LABEL_BADGE}
      style={{ flexShrink: 0 }}
    >
      {t(`audit:outcome.${outcome}`)}
    </Badge>
  );
}
