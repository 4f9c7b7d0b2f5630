import { ActionIcon, Progress, Text } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import type { VrUserSession } from '@vrtc/contract';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useColumns } from '../../components/use-columns';
import { ACTIONS_COLUMN_ID, DataTable } from '../../components/DataTable';
import { Empty } from '../../components/Empty';
import { QueryState } from '../../components/QueryState';
import { SessionDetailModal } from '../../components/SessionDetailModal';
import { useUrlDialog } from '../../lib/list-state-dialog';
import { LateResultMark } from '../../components/LateResultMark';
import { StatusBadge } from '../../components/StatusBadge';
import { useContentText } from '../../lib/content-text';
import { formatDateTime, formatDuration, progressPercent } from '../../lib/format';
import type { TableState } from '../../lib/list-state';
import { SESSIONS_PAGE_SIZE, useVrUserSessions } from '../../api/vr-users';
import { Tooltip } from '../../components/Tooltip';
import { EmailWithBreak } from './TrainingRecordParts';

/**
 * A VR user's sessions, newest first, paged as the specification's session list (50 a page), each
 * opening its detail: in the VR users screen's dialog and on the trainee's page. The console's one
 * list: a table, cards on a phone (the scenario, module and level, the status, the detail button;
 * the start, the headset and who started it under them). At 1440 px the table fits its card: the
 * start's date and time whole, and the detail button in sight.
 */
export function VrUserSessionTimeline({
  vrUserId,
  miw = 900,
}: {
  vrUserId?: string;
  miw?: number;
}) {
  const { t, i18n } = useTranslation();
  const content = useContentText();
  const [offset, setOffset] = useState(0);
  // The session whose detail (task timeline) is open over the list.
  const detail = useUrlDialog('session');
  useEffect(() => setOffset(0), [vrUserId]);
  const sessions = useVrUserSessions(vrUserId, offset);
  const rows = sessions.data?.sessions ?? [];
  const total = sessions.data?.total ?? 0;

  // Paged by offset, newest first: no sort to choose.
  const state = useMemo<TableState>(
    () => ({
      pageIndex: offset / SESSIONS_PAGE_SIZE,
      pageSize: SESSIONS_PAGE_SIZE,
      setPage: (pageIndex) => setOffset(pageIndex * SESSIONS_PAGE_SIZE),
      sortFields: [],
      sort: undefined,
      order: 'desc',
      setSort: () => {},
    }),
    [offset],
  );

  const columns = useColumns<VrUserSession>(
    t,
    () => [
      {
        accessorKey: 'started_at',
        header: t('vrUsers:col.startedAt'),
        meta: { card: 'fact' },
        // Date and time whole: a column that only fits "26.11.202" tells an inspector nothing.
        cell: ({ row: { original: s } }) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(s.started_at, i18n.language)}
          </Text>
        ),
      },
      {
        id: 'content',
        header: `${t('vrUsers:col.scenario')} / ${t('vrUsers:col.module')} / ${t('vrUsers:col.level')}`,
        meta: { card: 'title' },
        cell: ({ row: { original: s } }) => (
          <>
            <Text size="sm" fw={500}>
              {content.text(s.scenario_name, s.scenario_name_en)}
            </Text>
            <Text size="xs">
              {content.text(s.module_name, s.module_name_en)} —{' '}
              {content.text(s.level_name, s.level_name_en)}
            </Text>
            <Text size="xs" c="dimmed">
              {t('common:levelRevision', { number: s.level_number, revision: s.level_revision })}
            </Text>
          </>
        ),
      },
      {
        accessorKey: 'device_name',
        header: t('vrUsers:col.device'),
        meta: { card: 'fact' },
      },
      {
        accessorKey: 'status',
        header: t('vrUsers:col.status'),
        cell: ({ row: { original: s } }) => (
          <>
            <StatusBadge status={s.status} />
            <LateResultMark session={s} />
          </>
        ),
      },
      {
        id: 'progress',
        header: t('vrUsers:col.progress'),
        cell: ({ row: { original: s } }) => {
          const percent = progressPercent(s.completed_tasks, s.max_tasks);
          return (
            <div style={{ minWidth: 100 }}>
              <Text size="xs">
                {s.completed_tasks}/{s.max_tasks} ({percent}%)
              </Text>
              <Progress value={percent} size="sm" mt={4} aria-label={`${percent}%`} />
            </div>
          );
        },
      },
      {
        id: 'duration',
        header: t('vrUsers:col.duration'),
        cell: ({ row: { original: s } }) => formatDuration(t, s.duration_seconds),
      },
      {
        accessorKey: 'started_by_email',
        header: t('vrUsers:col.startedBy'),
        meta: { card: 'fact' },
        cell: ({ row: { original: s } }) => (
          // A long address breaks rather than widen the table past its card.
          <Text size="sm" maw={180} style={{ overflowWrap: 'anywhere' }}>
            {s.started_by_email ? <EmailWithBreak email={s.started_by_email} /> : t('common:none')}
          </Text>
        ),
      },
      {
        id: ACTIONS_COLUMN_ID,
        header: t('common:actions'),
        meta: { cardLabel: t('common:actions') },
        cell: ({ row: { original: s } }) => (
          <Tooltip label={t('common:sessionDetail.open')}>
            <ActionIcon
              variant="subtle"
              onClick={() => detail.open(s.id)}
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

  return (
    <>
      <QueryState
        isPending={sessions.isPending}
        error={sessions.error}
        onRetry={() => sessions.refetch()}
      >
        <DataTable
          rows={rows}
          total={total}
          loading={sessions.isPlaceholderData}
          state={state}
          columns={columns}
          getRowId={(session) => session.id}
          minWidth={miw}
          label={t('vrUsers:record.sessions')}
          empty={<Empty title={t('vrUsers:noSessions')} />}
        />
      </QueryState>
      <SessionDetailModal sessionId={detail.id} onClose={detail.close} />
    </>
  );
}
