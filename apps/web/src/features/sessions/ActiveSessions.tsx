import { Box, Button, Card, SimpleGrid } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerConnection } from '../../api/connection';
import { useActiveSessions } from '../../api/sessions';
import { LiveRefreshNote } from '../../components/LiveIndicator';
import { Empty } from '../../components/Empty';
import { QueryState } from '../../components/QueryState';
import { SessionDetailModal } from '../../components/SessionDetailModal';
import { useUrlDialog } from '../../lib/list-state-dialog';
import { useNow } from '../../lib/useNow';
import { ActiveSessionCard } from './ActiveSessionCard';
import { signalOf } from './active-signal';
import { EndedSessionCard } from './EndedSessionCard';
import { useEndedSessions } from './use-ended-sessions';

/** A list this fresh is not read again for a headset that may have gone silent. */
const CHECK_AFTER_MS = 1000;

/**
 * The Active tab: a card per running session (saying so when its headset has fallen silent),
 * then, for a few seconds, a card per session that has just ended with its outcome.
 */
export function ActiveSessions({ onStartNew }: { onStartNew: () => void }) {
  const { t } = useTranslation();
  const [urgent, setUrgent] = useState(false);
  const sessions = useActiveSessions({ urgent });
  const connection = useServerConnection();
  const detail = useUrlDialog('session');
  // Durations count up every second between refreshes; not while the server cannot be reached,
  // when nothing on the card is known to be true any more beyond the last answer.
  const clock = useNow(1000).getTime();
  const now =
    connection.reachable || connection.lastReachedAt === undefined
      ? clock
      : Math.min(clock, connection.lastReachedAt);
  const elapsedMs = sessions.dataUpdatedAt ? Math.max(0, now - sessions.dataUpdatedAt) : 0;
  const elapsedSinceFetch = Math.floor(elapsedMs / 1000);
  const answer = sessions.data;
  const list = answer?.active_sessions;
  const { ended, dismiss, hold } = useEndedSessions(list);
  const cards = (list ?? []).map((session) => ({
    session,
    signal: answer ? signalOf(session, answer, elapsedMs) : ({ kind: 'ok' } as const),
  }));
  // A silent headset's figure must stay current: the list is read every 5 s while one is.
  const anySilent = cards.some((card) => card.signal.kind === 'silent');
  if (anySilent !== urgent) setUrgent(anySilent);
  // A headset heard from when the list was read may have fallen silent since: no event tells (a
  // heartbeat publishes none, and a headset in a session does not go "offline"), so the list is
  // read again when its figure would cross the threshold, and the card says nothing until then.
  const mustCheck =
    connection.reachable &&
    elapsedMs >= CHECK_AFTER_MS &&
    !sessions.isFetching &&
    cards.some((card) => card.signal.kind === 'check');
  const { refetch } = sessions;
  useEffect(() => {
    if (mustCheck) void refetch();
  }, [mustCheck, refetch]);

  return (
    <QueryState
      isPending={sessions.isPending}
      error={sessions.data ? null : sessions.error}
      onRetry={() => sessions.refetch()}
    >
      <Box mb="sm">
        <LiveRefreshNote />
      </Box>
      {cards.length === 0 && ended.length === 0 ? (
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
          {cards.map(({ session, signal }) => (
            <ActiveSessionCard
              key={session.id}
              session={session}
              elapsedSinceFetch={elapsedSinceFetch}
              signal={signal}
              onCancelled={dismiss}
            />
          ))}
          {ended.map((item) => (
            <EndedSessionCard
              key={item.session.id}
              ended={item}
              onOpenDetails={detail.open}
              onHold={hold}
            />
          ))}
        </SimpleGrid>
      )}
      <SessionDetailModal sessionId={detail.id} onClose={detail.close} />
    </QueryState>
  );
}
