import type {
  ActiveSessionList,
  DeviceList,
  EndedSessionStatus,
  HistorySession,
  ScenarioTreeList,
  SessionList,
  StartedSession,
  StartSessionBody,
  VrUserList,
} from '@vrtc/contract';
import { SESSION_LIST_MAX_LIMIT } from '@vrtc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { pollingOptions } from '../../lib/polling';

export type HistoryStatusFilter = EndedSessionStatus | 'all';
export const HISTORY_STATUS_FILTERS: HistoryStatusFilter[] = [
  'all',
  'completed',
  'cancelled',
  'disconnected',
  'timeout',
];

/** History loads page after page of the API up to this many rows. */
export const HISTORY_MAX_ROWS = 5000;

export const sessionKeys = {
  all: ['sessions'] as const,
  active: ['sessions', 'active'] as const,
  history: (status: HistoryStatusFilter) => ['sessions', 'history', status] as const,
  // Same keys (and response shapes) as the screens that own these lists, so the cache is shared.
  waitingDevices: ['devices', 'list', 'waiting'] as const,
  vrUsers: ['vr-users'] as const,
  scenarios: ['scenarios-full'] as const,
};

export function useVrUserChoices() {
  return useQuery({
    queryKey: sessionKeys.vrUsers,
    queryFn: ({ signal }) => api.get<VrUserList>('/v1/vr-users', { signal }),
    select: (data) => data.vr_users,
  });
}

/** Devices a session can start on (status waiting), refreshed every 5 s. */
export function useWaitingDevices() {
  return useQuery({
    queryKey: sessionKeys.waitingDevices,
    queryFn: ({ signal }) =>
      api.get<DeviceList>('/v1/devices', { query: { status: 'waiting' }, signal }),
    select: (data) => data.devices,
    ...pollingOptions,
  });
}

export function useScenarioChoices() {
  return useQuery({
    queryKey: sessionKeys.scenarios,
    queryFn: ({ signal }) => api.get<ScenarioTreeList>('/v1/scenarios-full', { signal }),
    select: (data) => data.scenarios,
  });
}

export function useStartSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StartSessionBody) => api.post<StartedSession>('/v1/sessions/start', body),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: sessionKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['devices'] }),
        queryClient.invalidateQueries({ queryKey: sessionKeys.vrUsers }),
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
        queryClient.invalidateQueries({ queryKey: ['devices'] }),
      ]),
  });
}

/** Every ended session of the filter (newest first), fetched page by page up to HISTORY_MAX_ROWS. */
export async function fetchSessionHistory(status: HistoryStatusFilter, signal?: AbortSignal) {
  const sessions: HistorySession[] = [];
  let total = 0;
  do {
    const page = await api.get<SessionList>('/v1/sessions', {
      query: {
        status: status === 'all' ? undefined : status,
        limit: SESSION_LIST_MAX_LIMIT,
        offset: sessions.length,
      },
      signal,
    });
    total = page.total;
    sessions.push(...page.sessions);
    if (page.sessions.length === 0) break;
  } while (sessions.length < total && sessions.length < HISTORY_MAX_ROWS);
  return { sessions: sessions.slice(0, HISTORY_MAX_ROWS), total };
}

export function useSessionHistory(status: HistoryStatusFilter) {
  return useQuery({
    queryKey: sessionKeys.history(status),
    queryFn: ({ signal }) => fetchSessionHistory(status, signal),
  });
}
