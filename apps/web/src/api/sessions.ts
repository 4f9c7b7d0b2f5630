import {
  type SessionDetail,
  type EndedSessionStatus,
  type SessionExportQuery,
  type SessionListQuery,
  type StartSessionBody,
} from '@vrtc/contract';
import { routes } from './routes';
import { useQuery, keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { useLiveQueryOptions } from './live-events';
import { useListRequestInRender } from './lists';
import { sessionKeys } from './session-keys';
import { REFRESH_INTERVAL_MS } from '../lib/polling';
import { deviceKeys } from './devices';
import { vrUserKeys } from './vr-users';

/**
 * One session, any status, with the tasks its headset told of (GET /v1/sessions/:id). A running
 * one follows the live stream task by task (and polls while the stream is down).
 */
export function useSessionDetail(id: string | undefined) {
  const live = useLiveQueryOptions(['sessionChange', 'sessionProgress'], { sessionId: id });
  return useQuery({
    queryKey: sessionKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.call(routes.getSession, { params: { id: id! }, signal }),
    enabled: Boolean(id),
    ...live,
    refetchInterval: (query: { state: { data?: SessionDetail } }) =>
      query.state.data?.status === 'active' ? live.refetchInterval : false,
  });
}

export type HistoryStatusFilter = EndedSessionStatus | 'all';
export const HISTORY_STATUS_FILTERS: HistoryStatusFilter[] = [
  'all',
  'completed',
  'cancelled',
  'disconnected',
  'timeout',
];

export function useStartSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartSessionBody) => api.call(routes.startSession, { body }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
        queryClient.invalidateQueries({ queryKey: vrUserKeys.all }),
      ]),
  });
}

/**
 * Running sessions, with their headsets' last sightings and the server's thresholds for a silent
 * headset: refreshed as sessions start and end and as headsets go offline or come back (a
 * heartbeat tells nothing, the sweeper and the last-seen flush do), patched task by task from the
 * live stream; polled every 5 s while the stream is down, and while `urgent` (a headset is
 * silent: how long, and whether it is back, must stay current).
 */
export function useActiveSessions({ urgent = false }: { urgent?: boolean } = {}) {
  const live = useLiveQueryOptions(['sessionChange', 'device']);
  return useQuery({
    queryKey: sessionKeys.active,
    queryFn: ({ signal }) => api.call(routes.listActiveSessions, { signal }),
    ...live,
    refetchInterval: urgent ? REFRESH_INTERVAL_MS : live.refetchInterval,
  });
}

export function useCancelSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(routes.cancelSession, { params: { id } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
      ]),
  });
}

/** A page of the History (newest first unless asked otherwise), with the total of every page. */
export function useSessionHistory(query: SessionListQuery) {
  // A session that ends shows up without a refresh; the History is never polled.
  const live = useLiveQueryOptions(['sessionChange'], { poll: false });
  const options = {
    queryKey: sessionKeys.history(query),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      api.call(routes.listSessions, { query, signal }),
  };
  const sentInRender = useListRequestInRender(options);
  return useQuery({
    ...live,
    ...options,
    placeholderData: keepPreviousData,
    refetchOnMount: !sentInRender,
  });
}

/**
 * The server's History CSV of every session matching the filters (byte-order mark, the
 * specification's columns), with the file name it gave: organisation, date and filters.
 */
export async function exportSessionHistory(filters: SessionExportQuery) {
  const { blob, filename } = await api.download(routes.exportSessions, { query: filters });
  return { blob, filename: filename ?? 'sessions.csv' };
}
