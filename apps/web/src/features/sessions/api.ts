import {
  type EndedSessionStatus,
  type SessionExportQuery,
  type SessionListQuery,
  type StartSessionBody,
} from '@vrtc/contract';
import { routes } from '../../api/routes';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { deviceKeys } from '../../api/devices';
import { useLiveQueryOptions } from '../../api/live-events';
import { sessionKeys } from '../../api/session-keys';
import { vrUserKeys } from '../../api/vr-users';

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
 * Running sessions: refreshed as sessions start and end, patched task by task from the live
 * stream; polled every 5 s while the stream is down.
 */
export function useActiveSessions() {
  const live = useLiveQueryOptions(['sessionChange']);
  return useQuery({
    queryKey: sessionKeys.active,
    queryFn: ({ signal }) => api.call(routes.listActiveSessions, { signal }),
    select: (data) => data.active_sessions,
    ...live,
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
  return useQuery({
    ...live,
    queryKey: sessionKeys.history(query),
    queryFn: ({ signal }) => api.call(routes.listSessions, { query, signal }),
    placeholderData: keepPreviousData,
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
