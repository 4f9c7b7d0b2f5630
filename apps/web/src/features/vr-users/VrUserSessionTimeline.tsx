import {
  ActionIcon,
  Progress,
  ScrollArea,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '../../components/Pager';
import { QueryState } from '../../components/QueryState';
import { SessionDetailModal } from '../../components/SessionDetailModal';
import { LateResultMark } from '../../components/LateResultMark';
import { StatusBadge } from '../../components/StatusBadge';
import { useContentText } from '../../lib/content-text';
import { formatDateTime, formatDuration, progressPercent } from '../../lib/format';
import { SESSIONS_PAGE_SIZE, useVrUserSessions } from '../../api/vr-users';

/**
 * A VR user's sessions, newest first, paged as the specification's session list (50 a page), each
 * opening its detail: in the VR users screen's dialog and on the trainee's page.
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
  const [detailId, setDetailId] = useState<string>();
  useEffect(() => setOffset(0), [vrUserId]);
  const sessions = useVrUserSessions(vrUserId, offset);
  const rows = sessions.data?.sessions ?? [];
  const total = sessions.data?.total ?? 0;

  return (
    <>
      <QueryState
        isPending={sessions.isPending}
        error={sessions.error}
        onRetry={() => sessions.refetch()}
      >
        {rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            {t('vrUsers:noSessions')}
          </Text>
        ) : (
          <Stack>
            <ScrollArea>
              <Table
                striped
                miw={miw}
                verticalSpacing="xs"
                aria-busy={sessions.isPlaceholderData || undefined}
                style={sessions.isPlaceholderData ? { opacity: 0.6 } : undefined}
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('vrUsers:col.no')}</Table.Th>
                    <Table.Th>{t('vrUsers:col.device')}</Table.Th>
                    <Table.Th>{t('vrUsers:col.scenario')}</Table.Th>
                    <Table.Th>{t('vrUsers:col.module')}</Table.Th>
                    <Table.Th>{t('vrUsers:col.level')}</Table.Th>
                    <Table.Th>{t('vrUsers:col.status')}</Table.Th>
                    <Table.Th>{t('vrUsers:col.progress')}</Table.Th>
                    <Table.Th>{t('vrUsers:col.duration')}</Table.Th>
                    <Table.Th>{t('vrUsers:col.startedAt')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common:actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((session, index) => {
                    const percent = progressPercent(session.completed_tasks, session.max_tasks);
                    return (
                      <Table.Tr key={session.id}>
                        <Table.Td>{offset + index + 1}</Table.Td>
                        <Table.Td>{session.device_name}</Table.Td>
                        <Table.Td>
                          {content.text(session.scenario_name, session.scenario_name_en)}
                        </Table.Td>
                        <Table.Td>
                          {content.text(session.module_name, session.module_name_en)}
                        </Table.Td>
                        <Table.Td>
                          {content.text(session.level_name, session.level_name_en)}
                          <Text size="xs" c="dimmed">
                            {t('common:levelRevision', {
                              number: session.level_number,
                              revision: session.level_revision,
                            })}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <StatusBadge status={session.status} />
                          <LateResultMark session={session} />
                        </Table.Td>
                        <Table.Td miw={140}>
                          <Text size="xs">
                            {session.completed_tasks}/{session.max_tasks} ({percent}%)
                          </Text>
                          <Progress value={percent} size="sm" mt={4} aria-label={`${percent}%`} />
                        </Table.Td>
                        <Table.Td>{formatDuration(t, session.duration_seconds)}</Table.Td>
                        <Table.Td>{formatDateTime(session.started_at, i18n.language)}</Table.Td>
                        <Table.Td>
                          <Tooltip label={t('common:sessionDetail.open')}>
                            <ActionIcon
                              variant="subtle"
                              onClick={() => setDetailId(session.id)}
                              aria-label={t('common:sessionDetail.open')}
                            >
                              <IconListDetails size={18} />
                            </ActionIcon>
                          </Tooltip>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </ScrollArea>
            <Pager
              total={total}
              pageIndex={offset / SESSIONS_PAGE_SIZE}
              pageSize={SESSIONS_PAGE_SIZE}
              onPageChange={(pageIndex) => setOffset(pageIndex * SESSIONS_PAGE_SIZE)}
            />
          </Stack>
        )}
      </QueryState>
      <SessionDetailModal sessionId={detailId} onClose={() => setDetailId(undefined)} />
    </>
  );
}
