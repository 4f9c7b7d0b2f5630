import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { ActiveSessionList, LiveEvent, SessionTask } from '@vrtc/contract';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LiveIndicator } from '../components/LiveIndicator';
import { fakeLiveServer, type FakeLiveServer } from '../test/live';
import { installFakeFetch } from '../test/render';
import {
  LIVE_SAFETY_REFRESH_MS,
  LiveEventsProvider,
  useLiveQueryOptions,
  useLiveRefreshInterval,
  type LiveTopic,
} from './live-events';
import { getServerConnection } from './connection';
import { backoffDelay } from './live-stream';
import { sessionKeys } from './session-keys';

const ORG = '00000000-0000-4000-8000-0000000000a1';
const OTHER_ORG = '00000000-0000-4000-8000-0000000000b2';
const S1 = '00000000-0000-4000-8000-000000000051';
const S2 = '00000000-0000-4000-8000-000000000052';
const DEVICE = '00000000-0000-4000-8000-0000000000d1';

/** How many times each probe's query has run. */
type Counts = Record<string, number>;

/** A query that counts its runs and follows the given live topics, as the screens' queries do. */
function Counter({
  name,
  counts,
  topics,
  sessionId,
}: {
  name: string;
  counts: Counts;
  topics: LiveTopic[];
  sessionId?: string;
}) {
  // No topic: a query that follows nothing, and polls not (as the admin list switched off).
  const live = useLiveQueryOptions(topics, { sessionId, enabled: topics.length > 0 });
  const query = useQuery({
    queryKey: ['probe', name],
    queryFn: () => (counts[name] = (counts[name] ?? 0) + 1),
    ...live,
  });
  return <span data-testid={name}>{query.data}</span>;
}

/** The active list, as the Active tab reads it: patched by progress events, not refetched. */
function ActiveProbe({ counts, initial }: { counts: Counts; initial: ActiveSessionList }) {
  const live = useLiveQueryOptions(['sessionChange']);
  const query = useQuery({
    queryKey: sessionKeys.active,
    queryFn: () => {
      counts.active = (counts.active ?? 0) + 1;
      return initial;
    },
    ...live,
  });
  const session = query.data?.active_sessions[0];
  return (
    <span data-testid="active">
      {session ? `${session.completed_tasks}/${session.max_tasks} ${session.tasks.length}` : ''}
    </span>
  );
}

function IntervalProbe() {
  return <span data-testid="interval">{useLiveRefreshInterval()}</span>;
}

const activeSession = (): ActiveSessionList => ({
  active_sessions: [
    {
      id: S1,
      vr_user_name: 'Anna',
      device_name: 'Quest 1',
      device_id: DEVICE,
      selected_options: [],
      scenario_name: 'Пожар',
      module_name: 'Огнетушители',
      level_name: 'Основы',
      scenario_name_en: null,
      module_name_en: null,
      level_name_en: null,
      seconds_active: 10,
      completed_tasks: 1,
      max_tasks: 3,
      started_at: '2026-05-10T12:00:00.000Z',
      tasks: [],
      device_last_seen_at: '2026-05-10T12:00:08.000Z',
    },
  ],
  offline_after_ms: 15_000,
  disconnect_after_ms: 60_000,
});

const task: SessionTask = {
  number: 2,
  key: 'ladder',
  name: 'Climb the ladder',
  result: 'passed',
  score: 92,
  duration_ms: 41_000,
  reported_at: '2026-05-10T12:01:00.000Z',
  occurred_at: null,
};

const deviceEvent = (organization: string): LiveEvent => ({
  type: 'device',
  change: 'updated',
  device_id: DEVICE,
  organization_id: organization,
});
const sessionEvent = (change: 'progress' | 'ended', extra: object = {}): LiveEvent => ({
  type: 'session',
  change,
  session_id: S1,
  device_id: DEVICE,
  organization_id: ORG,
  status: change === 'ended' ? 'completed' : 'active',
  completed_tasks: 2,
  max_tasks: 3,
  ...extra,
});

let live: FakeLiveServer;
let counts: Counts;

function renderLive() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <LiveEventsProvider
          organizationId={ORG}
          streamOptions={{ backoff: { initialMs: 20, maxMs: 40 }, tooManyStreamsMs: 40 }}
        >
          <LiveIndicator />
          <IntervalProbe />
          <Counter name="devices" counts={counts} topics={['device']} />
          <Counter name="adminDevices" counts={counts} topics={['anyDevice']} />
          <Counter name="history" counts={counts} topics={['sessionChange']} />
          <Counter
            name="detail1"
            counts={counts}
            topics={['sessionChange', 'sessionProgress']}
            sessionId={S1}
          />
          <Counter
            name="detail2"
            counts={counts}
            topics={['sessionChange', 'sessionProgress']}
            sessionId={S2}
          />
          <Counter name="unrelated" counts={counts} topics={[]} />
          <ActiveProbe counts={counts} initial={activeSession()} />
        </LiveEventsProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return queryClient;
}

/** Waits until every probe has run as often as given (the others unchanged). */
async function expectRuns(expected: Counts) {
  await waitFor(() => expect(counts).toEqual(expected));
}

const indicator = () => screen.getByTestId('live-indicator');

beforeEach(async () => {
  await i18n.changeLanguage('en');
  live = fakeLiveServer();
  counts = {};
  installFakeFetch(async (input) => {
    const { pathname } = new URL(String(input), 'http://localhost');
    if (pathname === '/v1/events') return live.connect();
    return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
  });
});

afterEach(() => live.close());

describe('the live stream', () => {
  it('refetches on ready, then refreshes only the queries each event concerns', async () => {
    const queryClient = renderLive();
    const once = {
      devices: 1,
      adminDevices: 1,
      history: 1,
      detail1: 1,
      detail2: 1,
      unrelated: 1,
      active: 1,
    };
    await expectRuns(once);
    // Until the stream says it is ready, the screens poll.
    expect(indicator()).toHaveTextContent('Polling every 5 s');
    expect(screen.getByTestId('interval')).toHaveTextContent('5000');
    await waitFor(() => expect(live.open).toBe(true));

    act(() => live.ready());
    await waitFor(() => expect(indicator()).toHaveTextContent('Live'));
    expect(indicator()).toHaveAttribute('role', 'status');
    expect(screen.getByTestId('interval')).toHaveTextContent(String(LIVE_SAFETY_REFRESH_MS));
    // Whatever happened before the stream opened is read again (not the query that follows nothing).
    const ready = {
      devices: 2,
      adminDevices: 2,
      history: 2,
      detail1: 2,
      detail2: 2,
      unrelated: 1,
      active: 2,
    };
    await expectRuns(ready);

    // A headset of the organisation: its device lists, the admin's included.
    act(() => live.send(deviceEvent(ORG)));
    await expectRuns({ ...ready, devices: 3, adminDevices: 3 });
    // Another organisation's headset (an admin hears those): the admin list only.
    act(() => live.send(deviceEvent(OTHER_ORG)));
    await expectRuns({ ...ready, devices: 3, adminDevices: 4 });

    // A task done: the active card is patched at once, without a refetch; the session's detail
    // reads again, another session's does not.
    act(() => live.send(sessionEvent('progress', { task })));
    await waitFor(() => expect(screen.getByTestId('active')).toHaveTextContent('2/3 1'));
    await expectRuns({ ...ready, devices: 3, adminDevices: 4, detail1: 3 });
    expect(
      queryClient.getQueryData<ActiveSessionList>(sessionKeys.active)?.active_sessions[0]?.tasks,
    ).toEqual([task]);

    // It ends: the active list, the History, its detail and the headsets read again.
    act(() => live.send(sessionEvent('ended')));
    await expectRuns({
      ...ready,
      devices: 4,
      adminDevices: 5,
      history: 3,
      detail1: 4,
      active: 3,
    });
  });

  it('falls back to polling while the stream is down, reconnects, and reads again on ready', async () => {
    renderLive();
    await waitFor(() => expect(live.open).toBe(true));
    act(() => live.ready());
    await waitFor(() => expect(indicator()).toHaveTextContent('Live'));
    await waitFor(() => expect(counts.devices).toBe(2));

    // The server goes away and refuses for a while: the screens poll meanwhile.
    live.refuse = 503;
    act(() => live.close());
    await waitFor(() => expect(indicator()).toHaveTextContent('Polling every 5 s'));
    expect(screen.getByTestId('interval')).toHaveTextContent('5000');
    await waitFor(() => expect(live.connections).toBeGreaterThanOrEqual(3));
    expect(indicator()).toHaveTextContent('Polling every 5 s');

    // Back: the next attempt connects, and on ready every live query reads what it missed.
    const before = { ...counts };
    live.refuse = undefined;
    await waitFor(() => expect(live.open).toBe(true));
    act(() => live.ready());
    await waitFor(() => expect(indicator()).toHaveTextContent('Live'));
    await waitFor(() => expect(counts.devices).toBe(before.devices! + 1));
    expect(counts.detail1).toBe(before.detail1! + 1);
    expect(counts.unrelated).toBe(before.unrelated);
  });

  it('polls every 5 s when the stream cannot be had at all (too many streams)', async () => {
    live.refuse = 429;
    renderLive();
    await waitFor(() => expect(counts.devices).toBe(1));
    await waitFor(() => expect(live.connections).toBeGreaterThanOrEqual(2));
    expect(indicator()).toHaveTextContent('Polling every 5 s');
    // No event arrives, yet the list refreshes by itself within the specification's 5 s.
    await waitFor(() => expect(counts.devices).toBe(2), { timeout: 7_000 });
    expect(counts.unrelated).toBe(1);
  });

  it('keeps saying "polling" when only the stream is refused at the network, and "offline" when the server is away', async () => {
    // A proxy or a network that resets the stream's connection while every other request is
    // answered: the server is there, and the screens poll it.
    let serverAway = false;
    installFakeFetch(async (input) => {
      const { pathname } = new URL(String(input), 'http://localhost');
      if (serverAway || pathname === '/v1/events') {
        if (pathname === '/v1/events') live.connections += 1;
        throw new TypeError('Failed to fetch');
      }
      if (pathname === '/healthz') return new Response(null, { status: 200 });
      return new Response('{}', { status: 404, headers: { 'content-type': 'application/json' } });
    });
    const modes: string[] = [];
    renderLive();
    const seen = () => modes.push(indicator().getAttribute('data-mode') ?? '');
    await waitFor(() => {
      seen();
      expect(live.connections).toBeGreaterThanOrEqual(4);
    });
    await waitFor(() => expect(indicator()).toHaveAttribute('data-mode', 'polling'));
    expect(modes.filter((mode) => mode !== 'polling')).toEqual([]);
    expect(getServerConnection().reachable).toBe(true);

    // The server itself goes away: the stream's next attempt is the first to say so.
    serverAway = true;
    await waitFor(() => expect(indicator()).toHaveAttribute('data-mode', 'offline'));
    expect(getServerConnection().reachable).toBe(false);
  });

  it('says which mode is on in Russian too', async () => {
    await i18n.changeLanguage('ru');
    renderLive();
    expect(indicator()).toHaveTextContent('Опрос каждые 5 с');
    await waitFor(() => expect(live.open).toBe(true));
    act(() => live.ready());
    await waitFor(() => expect(indicator()).toHaveTextContent('В реальном времени'));
  });
});

describe('reconnection pauses', () => {
  it('double from the first up to the last, with some jitter', () => {
    const middle = () => 0.5;
    const pauses = [0, 1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, undefined, middle));
    expect(pauses).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    expect(backoffDelay(0, undefined, () => 0)).toBe(800);
    expect(backoffDelay(0, undefined, () => 0.999)).toBe(1200);
  });
});
