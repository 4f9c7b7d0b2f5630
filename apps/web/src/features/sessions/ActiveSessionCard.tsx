import { Alert, Button, Card, Group, Progress, Stack, Text } from '@mantine/core';
import { IconAntennaBarsOff, IconClock, IconPlayerStop } from '@tabler/icons-react';
import type { ActiveSession, SessionTask } from '@vrtc/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCancelSession } from '../../api/sessions';
import { slotLabel, TaskStrip } from '../../components/TaskStrip';
import { useConfirmedAction } from '../../components/use-confirmed-action';
import { useContentText } from '../../lib/content-text';
import { formatDuration, progressPercent } from '../../lib/format';
import type { SignalState } from './active-signal';

/**
 * A label and its value, the value always whole: a long one wraps (at word boundaries where it
 * can), never cut to an ellipsis. `stacked` puts the value under its label, across the card, for
 * values that are often long (module and level names).
 */
export function Field({
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
export function CurrentTask({ session }: { session: ActiveSession }) {
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

/** A running session; `signal` says whether its headset is still heard from. */
export function ActiveSessionCard({
  session,
  elapsedSinceFetch,
  signal,
  onCancelled,
}: {
  session: ActiveSession;
  elapsedSinceFetch: number;
  signal: SignalState;
  /** This console ended the session (the list then loses it as a known cancellation). */
  onCancelled: (id: string) => void;
}) {
  const { t } = useTranslation();
  const content = useContentText();
  const cancelSession = useCancelSession();
  const cancel = useConfirmedAction(cancelSession, {
    success: t('sessions:active.cancelled'),
    error: t('common:error'),
    onSuccess: (_data, id) => onCancelled(id),
  });
  const silent = signal.kind === 'silent' ? signal : undefined;
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
    <Card
      withBorder
      radius="lg"
      padding="lg"
      data-testid="active-session"
      data-signal={silent ? 'silent' : 'ok'}
      style={silent ? { borderColor: 'var(--mantine-color-orange-6)' } : undefined}
    >
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
      {silent ? <SilentNotice signal={silent} /> : null}
      <Stack gap={6}>
        <Field label={t('sessions:active.device')}>{session.device_name}</Field>
        <Field label={t('sessions:active.moduleLevel')} stacked>
          {content.text(session.module_name, session.module_name_en)} -{' '}
          {content.text(session.level_name, session.level_name_en)}
        </Field>
        {/* What this run was set up with (an id fragment told a manager nothing). */}
        <Field label={t('sessions:active.options')} stacked>
          <span data-testid="active-options">
            {session.selected_options.length > 0
              ? session.selected_options.map((option) => content.name(option)).join(', ')
              : t('sessions:active.noOptions')}
          </span>
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

/**
 * A headset silent past OFFLINE_AFTER_MS: for how long, and what happens next (the server ends the
 * session as disconnected at DISCONNECT_AFTER_MS; a result the headset sends later still counts).
 */
function SilentNotice({ signal }: { signal: Extract<SignalState, { kind: 'silent' }> }) {
  const { t } = useTranslation();
  const seconds = Math.floor(signal.silentMs / 1000);
  const left = Math.ceil(signal.disconnectInMs / 1000);
  return (
    <Alert
      color="orange"
      variant="light"
      mb="md"
      role="status"
      data-testid="no-signal"
      icon={<IconAntennaBarsOff size={18} aria-hidden />}
      title={t('sessions:active.noSignal.title', { seconds })}
    >
      <Text size="sm">
        {left > 0
          ? t('sessions:active.noSignal.endsIn', { seconds: left })
          : t('sessions:active.noSignal.ending')}{' '}
        {t('sessions:active.noSignal.lateResult')}
      </Text>
    </Alert>
  );
}
