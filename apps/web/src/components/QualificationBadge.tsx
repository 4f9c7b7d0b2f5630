import { Badge } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { QualificationStatus } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { FULL_LABEL_BADGE } from './StatusBadge';

/**
 * A trainee's standing in a qualification (docs/compliance.md) as a badge: its words and its
 * colour, never the colour alone. The statuses are listed here rather than imported from the
 * contract's module, which carries TypeBox schemas the console does not load at run time; the
 * Record keeps the list exhaustive.
 */
export const QUALIFICATION_STATUS_COLORS: Record<QualificationStatus, string> = {
  qualified: 'green',
  expiring: 'yellow',
  expired: 'red',
  pending_evaluation: 'blue',
  not_qualified: 'gray',
  revoked: 'grape',
};

/** Every status, in the order a manager reads them (good to bad). */
export const QUALIFICATION_STATUSES = Object.keys(
  QUALIFICATION_STATUS_COLORS,
) as QualificationStatus[];

export const isQualificationStatus = (value: string): value is QualificationStatus =>
  value in QUALIFICATION_STATUS_COLORS;

/** The status's words, in the `qualifications` dictionary (loaded with the screens that show it). */
export function QualificationBadge({ status }: { status: QualificationStatus }) {
  const { t } = useTranslation('qualifications');
  return (
    <Badge
      color={QUALIFICATION_STATUS_COLORS[status]}
      variant="light"
      data-status={status}
      styles={FULL_LABEL_BADGE}
      style={{ flexShrink: 0 }}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

/** A row whose due date has passed before it was met: a word and an icon beside the status. */
export function OverdueMark() {
  const { t } = useTranslation('qualifications');
  return (
    // Red's darkest shade: the words stay readable (4.5:1) on a striped row's grey too.
    <Badge
      color="red.9"
      variant="outline"
      leftSection={<IconAlertTriangle size={12} aria-hidden />}
      styles={FULL_LABEL_BADGE}
      style={{ flexShrink: 0 }}
      data-testid="overdue-mark"
    >
      {t('overdue')}
    </Badge>
  );
}
