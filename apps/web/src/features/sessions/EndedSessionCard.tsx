import { Badge, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { IconCheck, IconFileDescription, IconX } from '@tabler/icons-react';
import type { SessionDetail, SessionTask } from '@vrtc/contract';
import { useCallback, useEffect, useRef, useState, type FocusEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSessionDetail } from '../../api/sessions';
import { StatusBadge } from '../../components/StatusBadge';
import { slotLabel } from '../../components/TaskStrip';
import { useContentText } from '../../lib/content-text';
import { notifyError, notifySuccess, notifyWarning } from '../../lib/notify';
import { Field } from './ActiveSessionCard';
import type { EndedSession } from './use-ended-sessions';

/** Passed or not, for a completed session that says; else how it ended ("Disconnected"). */
export function outcomeText(t: TFunction, session: SessionDetail): string {
  if (session.status === 'completed' && session.success !== null) {
    return t(session.success ? 'sessions:active.ended.passed' : 'sessions:active.ended.failed');
  }
  return t(`common:status.${session.status}`);
}

function lastTaskOf(tasks: SessionTask[]): SessionTask | undefined {
  return tasks.reduce<SessionTask | undefined>(
    (latest, task) => (!latest || task.reported_at >= latest.reported_at ? task : latest),
    undefined,
  );
}

/** Says once, in a toast, how the session ended. */
function useEndToast(detail: SessionDetail | undefined) {
  const { t } = useTranslation();
  const told = useRef(false);
  useEffect(() => {
    if (!detail || detail.status === 'active' || told.current) return;
    told.current = true;
    const message = t('sessions:active.ended.toast', {
      name: detail.vr_user_name,
      outcome: outcomeText(t, detail),
    });
    if (detail.status === 'completed' && detail.success !== false) notifySuccess(message);
    else if (detail.status === 'completed') notifyError(message);
    else notifyWarning(message);
  }, [detail, t]);
}

/**
 * Whether the card is being read: the pointer on it (a tap, on a phone) or the focus in it. The
 * handlers it returns go on the card; `onChange` hears each change.
 */
function useBeingRead(onChange: (held: boolean) => void) {
  const [pointed, setPointed] = useState(false);
  const [focused, setFocused] = useState(false);
  const held = pointed || focused;
  const told = useRef(false);
  useEffect(() => {
    if (held === told.current) return;
    told.current = held;
    onChange(held);
  }, [held, onChange]);
  return {
    onMouseEnter: () => setPointed(true),
    onMouseLeave: () => setPointed(false),
    onFocus: () => setFocused(true),
    // Focus moving between the card's own controls does not let it go.
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
    },
  };
}

/**
 * A session that has just left the active list, shown for a few seconds with its outcome: passed
 * or not (or how it ended), the tasks done, the last task, and a way to its details. It stays
 * while it is being read (`onHold`).
 */
export function EndedSessionCard({
  ended,
  onOpenDetails,
  onHold,
}: {
  ended: EndedSession;
  onOpenDetails: (id: string) => void;
  onHold: (id: string, held: boolean) => void;
}) {
  const { t } = useTranslation();
  const content = useContentText();
  const { session } = ended;
  const beingRead = useBeingRead(
    useCallback((held: boolean) => onHold(session.id, held), [onHold, session.id]),
  );
  const detail = useSessionDetail(session.id).data;
  const known = detail && detail.status !== 'active' ? detail : undefined;
  useEndToast(known);
  const last = lastTaskOf(known?.tasks ?? session.tasks);
  const passed = known?.status === 'completed' ? known.success : null;

  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      data-testid="ended-session"
      data-status={known?.status ?? 'ending'}
      bg="gray.0"
      {...beingRead}
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
        {known ? <StatusBadge status={known.status} /> : <Loader size="xs" />}
      </Group>
      <Stack gap={6}>
        <Text size="sm" fw={600} data-testid="ended-heading">
          {t('sessions:active.ended.title')}
        </Text>
        <Field label={t('sessions:active.ended.outcome')}>
          <span data-testid="ended-outcome">
            {known ? (
              passed === null ? (
                outcomeText(t, known)
              ) : (
                <Badge
                  variant="light"
                  color={passed ? 'green' : 'red'}
                  leftSection={passed ? <IconCheck size={12} /> : <IconX size={12} />}
                >
                  {outcomeText(t, known)}
                </Badge>
              )
            ) : (
              t('common:loading')
            )}
          </span>
        </Field>
        <Field label={t('sessions:active.device')}>{session.device_name}</Field>
        <Field label={t('sessions:active.tasks')}>
          <span data-testid="ended-tasks">
            {known?.completed_tasks ?? session.completed_tasks}/
            {known?.max_tasks ?? session.max_tasks}
          </span>
        </Field>
        {last ? (
          <Field label={t('sessions:active.lastTask')}>
            <span data-testid="ended-last-task">
              {slotLabel(t, { number: last.number, state: last.result, task: last })}
            </span>
          </Field>
        ) : null}
      </Stack>
      <Button
        mt="lg"
        fullWidth
        variant="light"
        leftSection={<IconFileDescription size={16} />}
        onClick={() => onOpenDetails(session.id)}
      >
        {t('sessions:active.ended.details')}
      </Button>
    </Card>
  );
}
