import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FULL_LABEL_BADGE } from './StatusBadge';

/** What a session tells of a late result (HistorySession, SessionDetail). */
interface LateResult {
  late_result: boolean;
  ended_by_server_as: string | null;
}

/**
 * "Result arrived later": the headset's result came after the server had ended the session as
 * disconnected or timeout (docs/headset-protocol.md). Shown beside the status, which is the final
 * result; the title says how the server had ended it. Nothing for any other session.
 */
export function LateResultMark({ session }: { session: LateResult }) {
  const { t } = useTranslation();
  if (!session.late_result) return null;
  const endedAs = session.ended_by_server_as
    ? t(`common:status.${session.ended_by_server_as}`)
    : t('common:status.unknown');
  return (
    <Badge
      color="grape"
      variant="outline"
      data-late-result
      styles={FULL_LABEL_BADGE}
      style={{ flexShrink: 0 }}
      title={t('common:lateResult.explain', { status: endedAs })}
    >
      {t('common:lateResult.mark')}
    </Badge>
  );
}
