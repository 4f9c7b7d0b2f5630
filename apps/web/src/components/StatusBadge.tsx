import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Badge colours by status, as the specification names them (success, primary, warning, ...). */
const COLORS: Record<string, string> = {
  completed: 'green', // success
  active: 'blue', // primary
  cancelled: 'yellow', // warning
  disconnected: 'red', // danger
  timeout: 'gray', // secondary
  waiting: 'green',
  in_session: 'blue',
  offline: 'gray',
};

export function statusColor(status: string): string {
  return COLORS[status] ?? 'cyan'; // info for anything unknown
}

/** Badge styles that show the whole label: a narrow table column never cuts it to an ellipsis. */
export const FULL_LABEL_BADGE = { label: { overflow: 'visible' } } as const;

export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const label =
    status in COLORS ? t(`common:status.${status}`) : status || t('common:status.unknown');
  return (
    <Badge
      color={statusColor(status)}
      variant="light"
      data-status={status}
      styles={FULL_LABEL_BADGE}
      style={{ flexShrink: 0 }}
    >
      {label}
    </Badge>
  );
}
