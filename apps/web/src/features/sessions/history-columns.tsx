import { ActionIcon, Badge, Progress, Stack, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import type { HistorySession } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { ACTIONS_COLUMN_ID } from '../../components/DataTable';
import { LateResultMark } from '../../components/LateResultMark';
import { FULL_LABEL_BADGE, StatusBadge } from '../../components/StatusBadge';
import { Tooltip } from '../../components/Tooltip';
import { useColumns } from '../../components/use-columns';
import { useContentText } from '../../lib/content-text';
import {
  formatDateTime,
  formatDateTimeShort,
  formatDuration,
  progressPercent,
} from '../../lib/format';

/** An address that may wrap after its "@" (a <wbr>: nothing is added to what is copied). */
function EmailWithBreak({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/** The History table's columns: who, what, how it ended and when; the last opens the detail. */
export function useHistoryColumns(onOpen: (sessionId: string) => void) {
  const { t, i18n } = useTranslation();
  const content = useContentText();
  return useColumns<HistorySession>(
    t,
    () => [
      {
        accessorKey: 'vr_user_name',
        header: t('sessions:history.col.vrUser'),
        cell: ({ row: { original: s } }) => (
          <Stack gap={0} miw={110}>
            <Text size="sm" fw={500}>
              {s.vr_user_name}
            </Text>
            <Text size="xs" c="dimmed">
              {s.device_name}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'content',
        header: t('sessions:history.col.content'),
        meta: { card: 'fact' },
        cell: ({ row: { original: s } }) => {
          const scenario = content.text(s.scenario_name, s.scenario_name_en);
          const moduleLevel = `${content.text(s.module_name, s.module_name_en)} - ${content.text(s.level_name, s.level_name_en)}`;
          return (
            // The whole names, wrapped: a phone has no hover to show a clipped one's title.
            <Stack gap={0} miw={150}>
              <Text size="sm">{scenario}</Text>
              <Text size="xs" c="dimmed">
                {moduleLevel}
              </Text>
              <Text size="xs" c="dimmed">
                {t('common:levelRevision', { number: s.level_number, revision: s.level_revision })}
              </Text>
            </Stack>
          );
        },
      },
      {
        accessorKey: 'status',
        header: t('sessions:history.col.status'),
        cell: (c) => (
          <Stack gap={4} w="max-content">
            <StatusBadge status={c.row.original.status} />
            <LateResultMark session={c.row.original} />
          </Stack>
        ),
      },
      {
        id: 'progress',
        header: t('sessions:history.col.progress'),
        cell: ({ row: { original: s } }) => {
          const percent = progressPercent(s.completed_tasks, s.total_tasks);
          return (
            <Stack gap={4} miw={84}>
              <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
                {s.completed_tasks}/{s.total_tasks} ({percent}%)
              </Text>
              <Progress value={percent} size="sm" aria-label={`${percent}%`} />
            </Stack>
          );
        },
      },
      {
        accessorKey: 'started_at',
        // Newest first is the default: a click turns it to oldest first, and back.
        sortDescFirst: true,
        meta: { card: 'fact', cardLabel: t('sessions:history.col.time') },
        header: () => (
          <span title={t('sessions:history.col.timeHint')}>{t('sessions:history.col.time')}</span>
        ),
        cell: ({ row: { original: s } }) => (
          <Stack gap={0} style={{ whiteSpace: 'nowrap' }}>
            <Text size="sm" title={t('sessions:history.col.startedAt')}>
              {formatDateTime(s.started_at, i18n.language)}
            </Text>
            <Text
              size="xs"
              c="dimmed"
              title={`${t('sessions:history.col.duration')}: ${formatDuration(t, s.duration_seconds)} · ${t('sessions:history.col.endedAt')}: ${formatDateTime(s.ended_at, i18n.language)}`}
            >
              {formatDuration(t, s.duration_seconds)} ·{' '}
              {t('sessions:history.endedAt', {
                date: formatDateTimeShort(s.ended_at, s.started_at, i18n.language),
              })}
            </Text>
          </Stack>
        ),
      },
      {
        accessorKey: 'started_by_email',
        header: t('sessions:history.col.startedBy'),
        cell: (c) => (
          // A long address breaks after its "@" (or where it must) rather than end in "…": a
          // phone has no hover to show a clipped one's title.
          <Text size="sm" maw={160} style={{ overflowWrap: 'anywhere' }}>
            {c.row.original.started_by_email ? (
              <EmailWithBreak email={c.row.original.started_by_email} />
            ) : (
              t('common:none')
            )}
          </Text>
        ),
      },
      {
        id: 'success',
        header: t('sessions:history.col.success'),
        cell: ({ row: { original: s } }) =>
          s.success === null ? (
            t('common:none')
          ) : (
            <Badge
              variant="dot"
              color={s.success ? 'green' : 'red'}
              styles={FULL_LABEL_BADGE}
              style={{ flexShrink: 0 }}
            >
              {s.success ? t('common:yes') : t('common:no')}
            </Badge>
          ),
      },
      {
        id: ACTIONS_COLUMN_ID,
        header: t('common:actions'),
        enableSorting: false,
        cell: ({ row: { original: s } }) => (
          <Tooltip label={t('common:sessionDetail.open')}>
            <ActionIcon
              variant="subtle"
              onClick={(event) => {
                event.stopPropagation();
                onOpen(s.id);
              }}
              aria-label={t('common:sessionDetail.open')}
            >
              <IconListDetails size={18} />
            </ActionIcon>
          </Tooltip>
        ),
      },
    ],
    [content],
  );
}
