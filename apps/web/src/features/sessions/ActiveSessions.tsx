import { Box, Button, Card, Code, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconClock, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import type { ActiveSession, SessionTask } from '@vrtc/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import { Empty } from '../../components/Empty';
import { QueryState } from '../../components/QueryState';
import { LiveRefreshNote } from '../../components/LiveIndicator';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { slotLabel, TaskStrip } from '../../components/TaskStrip';
import { formatDuration, progressPercent } from '../../lib/format';
import { useNow } from '../../lib/useNow';
import { useActiveSessions, useCancelSession } from '../../api/sessions';

/**
 * A label and its value, the value always whole: a long one wraps (at word boundaries where it
 * can), never cut to an ellipsis. `stacked` puts the value under its label, across the card, for
 * values that are often long (module and level names).
 */
function Field({
  label,
  stacked = false,
  children,
}: {
  label: string;
  stacked?: boolean;
  children: ReactNode;
}) {
  const value = (
    <Text
      size="sm"
      fw={500}
      ta={stacked ? 'left' : 'right'}
      component="div"
      style={{ minWidth: 0, overflowWrap: 'break-word', wordBreak: 'normal' }}
      data-testid="active-field-value"
    >
      {children}
    </Text>
  );
  if (stacked) {
    return (
      <Stack gap={0}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        {value}
      </Stack>
    );
  }
  return (
    <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      {value}
    </Group>
  );
}

/**
 * The task being played ("Task 4 of 6", by name when the headset told it) and how the last one
 * the headset told of went.
 */
function CurrentTask({ session }: { session: ActiveSession }) {
  const { t } = useTranslation();
  const number = session.completed_tasks + 1;
  const known = session.tasks.find((task) => task.number === number);
  const last = session.tasks.reduce<SessionTask | undefined>(
    (latest, task) => (!latest || task.reported_at >= latest.reported_at ? task : latest),
    undefined,
  );
  return (
    <>
      <Field label={t('sessions:active.currentTask')}>
        <span data-testid="current-task">
          {number > session.max_tasks
            ? t('sessions:active.allTasksDone')
            : known?.name
              ? known.name
              : t('common:tasks.nOfM', { number, total: session.max_tasks })}
        </span>
      </Field>
      {last ? (
        <Field label={t('sessions:active.lastTask')}>
          <span data-testid="last-task">
            {slotLabel(t, { number: last.number, state: last.result, task: last })}
          </span>
        </Field>
      ) : null}
    </>
  );
}

function ActiveSessionCard({
  session,
  elapsedSinceFetch,
}: {
  session: ActiveSession;
  elapsedSinceFetch: number;
}) {
  const { t } = useTranslation();
  const content = useContentText();
  const cancelSession = useCancelSession();
  const cancel = useConfirmedAction(cancelSession, {
    success: t('sessions:active.cancelled'),
    error: t('common:error'),
  });
  const cancelling = cancelSession.isPending;
  const percent = progressPercent(session.completed_tasks, session.max_tasks);

  async function askCancel() {
    await cancel(session.id, {
      title: t('sessions:active.cancelTitle'),
      message: t('sessions:active.cancelConfirm', {
        name: session.vr_user_name,
        device: session.device_name,
      }),
      confirmLabel: t('sessions:active.cancelSession'),
      cancelLabel: t('sessions:active.keepRunning'),
      danger: true,
    });
  }

  return (
    <Card withBorder radius="lg" padding="lg" data-testid="active-session">
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="md">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'break-word' }}>
            {session.vr_user_name}
          </Text>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'break-word' }}>
            {content.text(session.scenario_name, session.scenario_name_en)}
          </Text>
        </Stack>
        <Group gap={4} wrap="nowrap" c="blue" style={{ flexShrink: 0 }}>
          <IconClock size={16} />
          <Text
            fw={600}
            ff="monospace"
            size="sm"
            style={{ whiteSpace: 'nowrap' }}
            aria-label={t('sessions:active.duration')}
          >
            {formatDuration(t, session.seconds_active + elapsedSinceFetch)}
          </Text>
        </Group>
      </Group>
      <Stack gap={6}>
        <Field label={t('sessions:active.sessionId')}>
          <Code title={session.id}>{session.id.slice(0, 8)}</Code>
        </Field>
        <Field label={t('sessions:active.device')}>{session.device_name}</Field>
        <Field label={t('sessions:active.moduleLevel')} stacked>
          {content.text(session.module_name, session.module_name_en)} -{' '}
          {content.text(session.level_name, session.level_name_en)}
        </Field>
        <Field label={t('sessions:active.tasks')}>
          <span data-testid="completed-tasks">
            {session.completed_tasks}/{session.max_tasks}
          </span>
        </Field>
        <CurrentTask session={session} />
        <Progress
          value={percent}
          size="md"
          radius="xl"
          aria-label={t('sessions:active.progress', { percent })}
        />
        <TaskStrip
          maxTasks={session.max_tasks}
          completedTasks={session.completed_tasks}
          tasks={session.tasks}
          running
        />
      </Stack>
      <Button
        mt="lg"
        fullWidth
        variant="light"
        color="red"
        leftSection={<IconPlayerStop size={16} />}
        loading={cancelling}
        onClick={askCancel}
      >
        {t('sessions:active.cancelSession')}
      </Button>
    </Card>
  );
}

export function ActiveSessions({ onStartNew }: { onStartNew: () => void }) {
  const { t } = useTranslation();
  const sessions = useActiveSessions();
  // Durations count up every second between the 5 s refreshes.
  const now = useNow(1000);
  const elapsedSinceFetch = sessions.dataUpdatedAt
    ? Math.max(0, Math.floor((now.getTime() - sessions.dataUpdatedAt) / 1000))
    : 0;
  const list = sessions.data ?? [];

  return (
    <QueryState
      isPending={sessions.isPending}
      error={sessions.data ? null : sessions.error}
      onRetry={() => sessions.refetch()}
    >
      <Box mb="sm">
        <LiveRefreshNote />
      </Box>
      {list.length === 0 ? (
        <Card withBorder radius="lg" py="xl">
          <Empty
            inCard
            icon={<IconPlayerPlay size={28} />}
            title={t('sessions:active.emptyTitle')}
            description={t('sessions:active.emptyText')}
            action={
              <Button onClick={onStartNew} leftSection={<IconPlayerPlay size={16} />}>
                {t('sessions:active.startNew')}
              </Button>
            }
          />
        </Card>
      ) : (
        <SimpleGrid
          type="container"
          cols={{ base: 1, '520px': 2, '860px': 3, '1240px': 4 }}
          spacing="lg"
        >
          {list.map((session) => (
            <ActiveSessionCard
              key={session.id}
              session={session}
              elapsedSinceFetch={elapsedSinceFetch}
            />
          ))}
        </SimpleGrid>
      )}
    </QueryState>
  );
}
