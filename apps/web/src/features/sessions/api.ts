import type {
  ActiveSessionList,
  EndedSessionStatus,
  HistorySession,
  SessionExportQuery,
  SessionList,
  SessionListQuery,
  StartedSession,
  StartSessionBody,
} from '@vrtc/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { deviceKeys } from '../../api/devices';
import { vrUserKeys } from '../../api/vr-users';
import { pollingOptions } from '../../lib/polling';

export type HistoryStatusFilter = EndedSessionStatus | 'all';
export const HISTORY_STATUS_FILTERS: HistoryStatusFilter[] = [
  'all',
  'completed',
  'cancelled',
  'disconnected',
  'timeout',
];

export const sessionKeys = {
  all: ['sessions'] as const,
  active: ['sessions', 'active'] as const,
  history: (query: SessionListQuery) => ['sessions', 'history', query] as const,
};

export function useStartSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartSessionBody) => api.post<StartedSession>('/v1/sessions/start', body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
        queryClient.invalidateQueries({ queryKey: vrUserKeys.all }),
      ]),
  });
}

/** Running sessions, refreshed every 5 s. */
export function useActiveSessions() {
  return useQuery({
    queryKey: sessionKeys.active,
    queryFn: ({ signal }) => api.get<ActiveSessionList>('/v1/sessions/active', { signal }),
    select: (data) => data.active_sessions,
    ...pollingOptions,
  });
}

export function useCancelSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<HistorySession>(`/v1/sessions/${id}/cancel`),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
      ]),
  });
}

/** A page of the History (newest first unless asked otherwise), with the total of every page. */
export function useSessionHistory(query: SessionListQuery) {
  return useQuery({
    queryKey: sessionKeys.history(query),
    queryFn: ({ signal }) => api.get<SessionList>('/v1/sessions', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * The server's History CSV of every session matching the filters (byte-order mark, the
 * specification's columns), with the file name it gave: organisation, date and filters.
 */
export async function exportSessionHistory(filters: SessionExportQuery) {
  const { blob, filename } = await api.blob('/v1/sessions/export', { query: { ...filters } });
  return { blob, filename: filename ?? 'sessions.csv' };
}
