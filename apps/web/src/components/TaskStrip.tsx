import { Box, Group, Text } from '@mantine/core';
import { IconCheck, IconMinus, IconX } from '@tabler/icons-react';
import type { SessionTask } from '@vrtc/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Tooltip } from './Tooltip';

/**
 * How each task of a session stands: told by the headset (passed, failed, skipped), done without
 * detail (a headset that reports only the count), being played now, or still to come.
 */
export type TaskState = SessionTask['result'] | 'done' | 'current' | 'pending';

/** Beyond this many tasks the strip would be too fine to read: the counts are said instead. */
export const MAX_STRIP_SEGMENTS = 60;

export interface TaskSlot {
  number: number;
  state: TaskState;
  task?: SessionTask;
}

/** Every task of the session, 1..maxTasks, with what is known of it. */
export function taskSlots(
  maxTasks: number,
  completedTasks: number,
  tasks: SessionTask[],
  running: boolean,
): TaskSlot[] {
  const byNumber = new Map(tasks.map((task) => [task.number, task]));
  const count = Math.max(maxTasks, ...tasks.map((task) => task.number), 0);
  return Array.from({ length: count }, (_, index) => {
    const number = index + 1;
    const task = byNumber.get(number);
    const state: TaskState = task
      ? task.result
      : number <= completedTasks
        ? 'done'
        : running && number === completedTasks + 1
          ? 'current'
          : 'pending';
    return { number, state, task };
  });
}

/**
 * "Task 3" or "Task 3: Climb the ladder". Only a name is shown: a key (`task-3`) is the training
 * app's identifier, not a text for people, and would read as a second, untranslated title.
 */
export function taskTitle(t: TFunction, number: number, task?: Pick<SessionTask, 'name'>) {
  const name = task?.name;
  return name ? t('common:tasks.named', { number, name }) : t('common:tasks.numbered', { number });
}

/** One line a screen reader (and a tooltip) gives for a task: which, how it went, its score. */
export function slotLabel(t: TFunction, slot: TaskSlot): string {
  const parts = [taskTitle(t, slot.number, slot.task), t(`common:tasks.state.${slot.state}`)];
  if (slot.task?.score !== null && slot.task?.score !== undefined)
    parts.push(t('common:tasks.score', { score: slot.task.score }));
  return parts.join(' · ');
}

const LOOK: Record<TaskState, { bg: string; border: string; icon?: typeof IconCheck }> = {
  passed: {
    bg: 'var(--mantine-color-green-7)',
    border: 'var(--mantine-color-green-7)',
    icon: IconCheck,
  },
  failed: { bg: 'var(--mantine-color-red-7)', border: 'var(--mantine-color-red-7)', icon: IconX },
  skipped: {
    bg: 'var(--mantine-color-yellow-6)',
    border: 'var(--mantine-color-yellow-7)',
    icon: IconMinus,
  },
  done: {
    bg: 'var(--mantine-color-blue-7)',
    border: 'var(--mantine-color-blue-7)',
    icon: IconCheck,
  },
  current: { bg: 'var(--mantine-color-blue-0)', border: 'var(--mantine-color-blue-7)' },
  pending: { bg: 'var(--mantine-color-gray-1)', border: 'var(--mantine-color-gray-5)' },
};

/**
 * One segment per task, in order, each with its own mark (tick, cross, dash, outline) as well as
 * its colour, and a label for screen readers; under it, the counts in words.
 */
export function TaskStrip({
  maxTasks,
  completedTasks,
  tasks,
  running = false,
}: {
  maxTasks: number;
  completedTasks: number;
  tasks: SessionTask[];
  /** The session is being played: the task after the last done is the current one. */
  running?: boolean;
}) {
  const { t } = useTranslation();
  const slots = taskSlots(maxTasks, completedTasks, tasks, running);
  const count = (state: TaskState) => slots.filter((slot) => slot.state === state).length;
  const summary = (['passed', 'failed', 'skipped', 'done'] as const)
    .filter((state) => count(state) > 0)
    .map((state) => t(`common:tasks.count.${state}`, { count: count(state) }));
  const left = count('current') + count('pending');
  if (left > 0) summary.push(t('common:tasks.count.left', { count: left }));

  return (
    <Box data-testid="task-strip">
      {slots.length <= MAX_STRIP_SEGMENTS ? (
        <Group
          gap={3}
          wrap="wrap"
          role="list"
          aria-label={t('common:tasks.strip')}
          data-testid="task-segments"
        >
          {slots.map((slot) => {
            const look = LOOK[slot.state];
            const label = slotLabel(t, slot);
            return (
              <Tooltip key={slot.number} label={label} withArrow>
                <Box
                  role="listitem"
                  aria-label={label}
                  data-state={slot.state}
                  data-number={slot.number}
                  style={{
                    flex: '1 0 12px',
                    maxWidth: 40,
                    height: 16,
                    borderRadius: 3,
                    background: look.bg,
                    border: `1px ${slot.state === 'current' ? 'dashed' : 'solid'} ${look.border}`,
                    display: 'flex',
                    alignItems: 'center',
                    justifyContent: 'center',
                    color: slot.state === 'skipped' ? 'var(--mantine-color-dark-9)' : 'white',
                  }}
                >
                  {look.icon ? <look.icon size={11} stroke={3} aria-hidden /> : null}
                </Box>
              </Tooltip>
            );
          })}
        </Group>
      ) : null}
      <Text size="xs" c="dimmed" mt={4} data-testid="task-summary">
        {summary.join(' · ')}
      </Text>
    </Box>
  );
}
