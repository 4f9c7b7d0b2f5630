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
import { errorMessage } from '../../api/client';
import { confirmAction } from '../../components/confirm';
import { QueryState } from '../../components/QueryState';
import { formatDuration, progressPercent } from '../../lib/format';
import { notifyError, notifySuccess } from '../../lib/notify';
import { useNow } from '../../lib/useNow';
import { useActiveSessions, useCancelSession } from './api';

/** A label and its value; a long value wraps to two lines and shows in full on hover (`title`). */
function Field({ label, title, children }: { label: string; title?: string; children: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" wrap="nowrap">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text
        size="sm"
        fw={500}
        ta="right"
        lineClamp={2}
        component="div"
        title={title}
        style={{ minWidth: 0, overflowWrap: 'anywhere' }}
      >
        {children}
      </Text>
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
      notifyError(errorMessage(error, t('common:error')));
    } finally {
      setCancelling(false);
    }
  }

  return (
    <Card withBorder radius="lg" padding="lg" data-testid="active-session">
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="md">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={600} truncate title={session.vr_user_name}>
            {session.vr_user_name}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={2} title={session.scenario_name}>
            {session.scenario_name}
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
        <Field label={t('sessions:active.device')} title={session.device_name}>
          {session.device_name}
        </Field>
        <Field
          label={t('sessions:active.moduleLevel')}
          title={`${session.module_name} - ${session.level_name}`}
        >
          {session.module_name} - {session.level_name}
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
