import { Badge, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconCheck, IconMinus, IconX } from '@tabler/icons-react';
import type { SessionDetail, SessionTask } from '@vrtc/contract';
import { useTranslation } from 'react-i18next';
import { useSessionDetail } from '../api/sessions';
import { useContentText } from '../lib/content-text';
import { formatDateTime, formatDuration, progressPercent } from '../lib/format';
import { Fact } from './Fact';
import { QueryState } from './QueryState';
import { LateResultMark } from './LateResultMark';
import { StatusBadge } from './StatusBadge';
import { taskTitle, TaskStrip } from './TaskStrip';

const RESULT_LOOK = {
  passed: { color: 'green', icon: IconCheck },
  failed: { color: 'red', icon: IconX },
  skipped: { color: 'yellow', icon: IconMinus },
} as const;

/** A task's result in words, with its own mark. */
function ResultBadge({ result }: { result: SessionTask['result'] }) {
  const { t } = useTranslation();
  const look = RESULT_LOOK[result];
  return (
    <Badge
      variant="light"
      color={look.color}
      leftSection={<look.icon size={12} aria-hidden />}
      data-result={result}
    >
      {t(`common:tasks.state.${result}`)}
    </Badge>
  );
}

function Summary({ session }: { session: SessionDetail }) {
  const { t, i18n } = useTranslation();
  const content = useContentText();
  const percent = progressPercent(session.completed_tasks, session.max_tasks);
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm" component="dl" m={0}>
      <Fact label={t('common:sessionDetail.device')}>{session.device_name}</Fact>
      <Fact label={t('common:sessionDetail.scenario')}>
        {content.text(session.scenario_name, session.scenario_name_en)}
      </Fact>
      <Fact label={t('common:sessionDetail.moduleLevel')}>
        {content.text(session.module_name, session.module_name_en)} -{' '}
        {content.text(session.level_name, session.level_name_en)}
        <Text span size="xs" c="dimmed" display="block" data-testid="level-revision">
          {t('common:levelRevision', {
            number: session.level_number,
            revision: session.level_revision,
          })}
        </Text>
      </Fact>
      <Fact label={t('common:sessionDetail.status')}>
        <Group gap={4}>
          <StatusBadge status={session.status} />
          <LateResultMark session={session} />
        </Group>
      </Fact>
      <Fact label={t('common:sessionDetail.progress')}>
        {session.completed_tasks}/{session.max_tasks} ({percent}%)
      </Fact>
      <Fact label={t('common:sessionDetail.duration')}>
        {formatDuration(t, session.duration_seconds)}
      </Fact>
      <Fact label={t('common:sessionDetail.startedAt')}>
        {formatDateTime(session.started_at, i18n.language)}
      </Fact>
      <Fact label={t('common:sessionDetail.endedAt')}>
        {formatDateTime(session.ended_at, i18n.language)}
      </Fact>
    </SimpleGrid>
  );
}

/** The tasks the headset told of, in order: result, score, time spent, when it was told. */
function TaskTimeline({ tasks }: { tasks: SessionTask[] }) {
  const { t, i18n } = useTranslation();
  const score = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <ScrollArea>
      <Table miw={560} verticalSpacing="xs" data-testid="task-timeline">
        <Table.Caption>{t('common:sessionDetail.timeline')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('common:sessionDetail.col.task')}</Table.Th>
            <Table.Th>{t('common:sessionDetail.col.result')}</Table.Th>
            <Table.Th>{t('common:sessionDetail.col.score')}</Table.Th>
            <Table.Th>{t('common:sessionDetail.col.duration')}</Table.Th>
            <Table.Th>{t('common:sessionDetail.col.reportedAt')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tasks.map((task) => (
            <Table.Tr key={task.number}>
              <Table.Td>{taskTitle(t, task.number, task)}</Table.Td>
              <Table.Td>
                <ResultBadge result={task.result} />
              </Table.Td>
              <Table.Td>
                {task.score === null ? t('common:none') : score.format(task.score)}
              </Table.Td>
              <Table.Td>
                {task.duration_ms === null
                  ? t('common:none')
                  : formatDuration(t, Math.round(task.duration_ms / 1000))}
              </Table.Td>
              <Table.Td>{formatDateTime(task.reported_at, i18n.language)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/**
 * A session's detail (GET /v1/sessions/:id), opened from the History and from a VR user's
 * sessions: what, where and when, and the task timeline with results, scores and durations. A
 * running session's tasks appear as the headset reports them.
 */
export function SessionDetailModal({
  sessionId,
  onClose,
}: {
  sessionId: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const detail = useSessionDetail(sessionId);
  const session = detail.data;
  return (
    <Modal
      opened={Boolean(sessionId)}
      onClose={onClose}
      size="xl"
      title={
        session
          ? t('common:sessionDetail.title', { name: session.vr_user_name })
          : t('common:sessionDetail.titleLoading')
      }
    >
      <QueryState
        isPending={detail.isPending}
        error={session ? null : detail.error}
        onRetry={() => detail.refetch()}
      >
        {session ? (
          <Stack gap="lg" data-testid="session-detail">
            <Summary session={session} />
            <TaskStrip
              maxTasks={session.max_tasks}
              completedTasks={session.completed_tasks}
              tasks={session.tasks}
              running={session.status === 'active'}
            />
            {session.tasks.length > 0 ? (
              <TaskTimeline tasks={session.tasks} />
            ) : (
              <Group>
                <Text size="sm" c="dimmed">
                  {t('common:sessionDetail.noTasks')}
                </Text>
              </Group>
            )}
          </Stack>
        ) : null}
      </QueryState>
    </Modal>
  );
}
