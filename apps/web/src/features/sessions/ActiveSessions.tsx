import {
  Button,
  Card,
  Code,
  EmptyState,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconClock, IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import type { ActiveSession } from '@vrtc/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useContentText } from '../../lib/content-text';
import { errorText } from '../../lib/error-text';
import { confirmAction } from '../../components/confirm';
import { QueryState } from '../../components/QueryState';
import { formatDuration, progressPercent } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useNow } from '../../lib/useNow';
import { useActiveSessions, useCancelSession } from './api';

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

function ActiveSessionCard({
  session,
  elapsedSinceFetch,
}: {
  session: ActiveSession;
  elapsedSinceFetch: number;
}) {
  const { t } = useTranslation();
  const content = useContentText();
  const cancel = useCancelSession();
  const [cancelling, setCancelling] = useState(false);
  const percent = progressPercent(session.completed_tasks, session.max_tasks);

  async function askCancel() {
    const confirmed = await confirmAction({
      title: t('sessions:active.cancelTitle'),
      message: t('sessions:active.cancelConfirm', {
        name: session.vr_user_name,
        device: session.device_name,
      }),
      confirmLabel: t('sessions:active.cancelSession'),
      cancelLabel: t('sessions:active.keepRunning'),
      danger: true,
    });
    if (!confirmed) return;
    setCancelling(true);
    try {
      await cancel.mutateAsync(session.id);
      notifySuccess(t('sessions:active.cancelled'));
    } catch (error) {
      notifyError(errorText(error, t('common:error')));
    } finally {
      setCancelling(false);
    }
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
          {session.completed_tasks}/{session.max_tasks}
        </Field>
        <Progress
          value={percent}
          size="md"
          radius="xl"
          aria-label={t('sessions:active.progress', { percent })}
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
      <Text size="xs" c="dimmed" mb="sm">
        {t('common:autoRefreshNote')}
      </Text>
      {list.length === 0 ? (
        <Card withBorder radius="lg" py="xl">
          <EmptyState
            icon={<IconPlayerPlay size={28} />}
            withIndicatorBackground
            title={t('sessions:active.emptyTitle')}
            description={t('sessions:active.emptyText')}
          >
            <EmptyState.Actions>
              <Button onClick={onStartNew} leftSection={<IconPlayerPlay size={16} />}>
                {t('sessions:active.startNew')}
              </Button>
            </EmptyState.Actions>
          </EmptyState>
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
