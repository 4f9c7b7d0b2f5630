import {
  useQueryClient,
  type Query,
  type QueryClient,
  type QueryMeta,
} from '@tanstack/react-query';
import type { ActiveSessionList, LiveEvent, SessionDetail, SessionEvent } from '@vrtc/contract';
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { REFRESH_INTERVAL_MS } from '../lib/polling';
import { startLiveStream, type LiveMode, type LiveStreamOptions } from './live-stream';
import { sessionKeys } from './session-keys';

/**
 * Screens that follow what happens (devices, active sessions, waiting headsets, the admin device
 * list, a session's detail) refresh when the live stream tells them something changed, and poll
 * every 5 s (the specification's refresh) only while the stream is down.
 *
 * A query says which events concern it in its `meta` (see `liveQueryOptions`), beside its own
 * key: this module names no feature's keys, so features keep to their own. One stream per signed-
 * in tab, opened by `LiveEventsProvider` in the layout.
 */

/**
 * What a query follows:
 * - `device`: the organisation's headsets (enrolled, changed, deleted, online, offline);
 * - `anyDevice`: every organisation's headsets (the admin device list);
 * - `sessionChange`: sessions started or ended;
 * - `sessionProgress`: tasks done in a running session.
 */
export type LiveTopic = 'device' | 'anyDevice' | 'sessionChange' | 'sessionProgress';

interface LiveQueryMeta {
  liveTopics: LiveTopic[];
  /** Only this session's events (a session's detail). */
  liveSessionId?: string;
}

/** While the stream is up, lists still refresh this often: a net for what no event tells. */
export const LIVE_SAFETY_REFRESH_MS = 60_000;
/** Refreshes caused by events are at most this frequent (a burst of events is one refresh). */
export const LIVE_REFRESH_THROTTLE_MS = 250;

const LiveModeContext = createContext<LiveMode>('polling');

/** `live` while the stream is up; `polling` while it is down, and outside the signed-in layout. */
export function useLiveMode(): LiveMode {
  return useContext(LiveModeContext);
}

/** How often a live list refreshes by itself: 5 s while polling, rarely while the stream is up. */
export function useLiveRefreshInterval(): number {
  return useLiveMode() === 'live' ? LIVE_SAFETY_REFRESH_MS : REFRESH_INTERVAL_MS;
}

/**
 * The options of a query that follows live events: the topics it refreshes on, and the polling
 * that stands in for the stream while it is down (paused while the tab is hidden). With
 * `enabled: false` (the admin list's auto-refresh switched off), neither.
 */
export function useLiveQueryOptions(
  topics: LiveTopic[],
  {
    sessionId,
    enabled = true,
    poll = true,
  }: {
    sessionId?: string;
    enabled?: boolean;
    /** false: refreshed by events only, never polled (the History, which the spec does not poll). */
    poll?: boolean;
  } = {},
) {
  const interval = useLiveRefreshInterval();
  const meta: LiveQueryMeta = { liveTopics: enabled ? topics : [], liveSessionId: sessionId };
  return {
    meta: meta as unknown as QueryMeta,
    refetchInterval: enabled && poll ? interval : (false as const),
    refetchIntervalInBackground: false,
  };
}

function liveMetaOf(query: Query): LiveQueryMeta | undefined {
  const meta = query.meta as Partial<LiveQueryMeta> | undefined;
  return Array.isArray(meta?.liveTopics) && meta.liveTopics.length > 0
    ? (meta as LiveQueryMeta)
    : undefined;
}

/** What the events since the last refresh touched. */
interface Touched {
  ownDevices: boolean;
  anyDevices: boolean;
  sessions: boolean;
  /** Sessions whose tasks moved on. */
  progressed: Set<string>;
  /** Sessions started or ended. */
  changed: Set<string>;
}

const nothingTouched = (): Touched => ({
  ownDevices: false,
  anyDevices: false,
  sessions: false,
  progressed: new Set(),
  changed: new Set(),
});

function concerns(meta: LiveQueryMeta, touched: Touched): boolean {
  const { liveTopics: topics, liveSessionId: id } = meta;
  if (topics.includes('anyDevice') && (touched.anyDevices || touched.ownDevices)) return true;
  if (topics.includes('device') && touched.ownDevices) return true;
  const sessionMatches = (ids: Set<string>) => (id === undefined ? ids.size > 0 : ids.has(id));
  if (topics.includes('sessionChange') && sessionMatches(touched.changed)) return true;
  return topics.includes('sessionProgress') && sessionMatches(touched.progressed);
}

/**
 * A task done shows at once: the active list and the session's detail are patched from the event
 * (keeping the time they were fetched, so the running durations do not jump); the rest refetches.
 */
function patchFromProgress(queryClient: QueryClient, event: SessionEvent): boolean {
  const withTask = <T extends { tasks: SessionDetail['tasks'] }>(item: T): T => {
    if (!event.task) return item;
    const task = event.task;
    const tasks = [...item.tasks.filter((known) => known.number !== task.number), task].sort(
      (a, b) => a.number - b.number,
    );
    return { ...item, tasks };
  };
  let found = false;
  const keepTime = (key: readonly unknown[]) => ({
    updatedAt: queryClient.getQueryState(key)?.dataUpdatedAt,
  });
  queryClient.setQueryData<ActiveSessionList>(
    sessionKeys.active,
    (old) => {
      if (!old) return old;
      return {
        ...old,
        active_sessions: old.active_sessions.map((session) => {
          if (session.id !== event.session_id) return session;
          found = true;
          return withTask({
            ...session,
            completed_tasks: event.completed_tasks,
            max_tasks: event.max_tasks,
          });
        }),
      };
    },
    keepTime(sessionKeys.active),
  );
  queryClient.setQueryData<SessionDetail>(
    sessionKeys.detail(event.session_id),
    (old) => old && withTask({ ...old, completed_tasks: event.completed_tasks }),
    keepTime(sessionKeys.detail(event.session_id)),
  );
  return found;
}

/** Turns the stream's events into cache updates, refreshes coalesced and throttled. */
export function createLiveCacheUpdater(
  queryClient: QueryClient,
  organizationId: string,
  throttleMs = LIVE_REFRESH_THROTTLE_MS,
) {
  let touched = nothingTouched();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastFlush = 0;

  const flush = () => {
    timer = undefined;
    lastFlush = Date.now();
    const now = touched;
    touched = nothingTouched();
    void queryClient.invalidateQueries({
      predicate: (query) => {
        const meta = liveMetaOf(query);
        return meta !== undefined && concerns(meta, now);
      },
    });
  };
  const schedule = () => {
    if (timer !== undefined) return;
    timer = setTimeout(flush, Math.max(0, lastFlush + throttleMs - Date.now()));
  };

  return {
    /** After each (re)connection: every live query reads again what it may have missed. */
    ready() {
      void queryClient.invalidateQueries({ predicate: (query) => Boolean(liveMetaOf(query)) });
    },
    event(event: LiveEvent) {
      if (event.type === 'device') {
        if (event.organization_id === organizationId) touched.ownDevices = true;
        else touched.anyDevices = true;
      } else if (event.change === 'progress') {
        // A session the active list does not hold yet: it refetches.
        if (!patchFromProgress(queryClient, event)) touched.changed.add(event.session_id);
        touched.progressed.add(event.session_id);
      } else {
        touched.changed.add(event.session_id);
        // The headset is taken or free again (its own event follows; one refresh serves both).
        if (event.organization_id === organizationId) touched.ownDevices = true;
      }
      schedule();
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/**
 * Opens the signed-in tab's live stream and tells the screens below whether it is up. Outside it
 * (tests of single screens) every live list polls.
 */
export function LiveEventsProvider({
  organizationId,
  children,
  streamOptions,
}: {
  organizationId: string;
  children: ReactNode;
  /** Tests shorten the pauses. */
  streamOptions?: Partial<Pick<LiveStreamOptions, 'backoff' | 'silenceMs' | 'tooManyStreamsMs'>>;
}) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<LiveMode>('polling');
  useEffect(() => {
    const updater = createLiveCacheUpdater(queryClient, organizationId);
    const stop = startLiveStream({
      ...streamOptions,
      onReady: updater.ready,
      onEvent: (event) => {
        try {
          updater.event(event);
        } catch (error) {
          console.error('A live event could not be applied', error);
        }
      },
      onModeChange: setMode,
    });
    return () => {
      stop();
      updater.stop();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the options are fixed for a provider's life: a new stream only for another client or organisation
  }, [queryClient, organizationId]);
  return <LiveModeContext.Provider value={mode}>{children}</LiveModeContext.Provider>;
}
