import {
  SESSION_LIST_MAX_LIMIT,
  type HistorySession,
  type TrainingRecordExportQuery,
  type VrUserBody,
  type VrUserListQuery,
} from '@vrtc/contract';
import { routes } from './routes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
import { PICKER_LIMIT, useListRequestInRender, type PickerQuery } from './lists';

/**
 * The organisation's VR users: the VR users screen's table, and the searchable VR user pickers of
 * the sessions screen (the wizard, the History filter).
 */
export const vrUserKeys = {
  all: ['vr-users'] as const,
  list: (query: VrUserListQuery) => ['vr-users', 'list', query] as const,
  options: (q: string) => ['vr-users', 'options', q] as const,
  sessions: (id: string, offset: number) => ['vr-users', id, 'sessions', offset] as const,
  one: (id: string) => ['vr-users', id] as const,
  record: (id: string) => ['vr-users', id, 'record'] as const,
  recordSessions: (id: string) => ['vr-users', id, 'record', 'sessions'] as const,
};

export const vrUserQueries = {
  /** A page of VR users; the previous page stays on screen while the next one loads. */
  list: (query: VrUserListQuery) =>
    queryOptions({
      queryKey: vrUserKeys.list(query),
      queryFn: ({ signal }) => api.call(routes.listVrUsers, { query, signal }),
      placeholderData: keepPreviousData,
    }),
};

export function useVrUserList(query: VrUserListQuery) {
  const options = vrUserQueries.list(query);
  const sentInRender = useListRequestInRender(options);
  return useQuery({ ...options, refetchOnMount: !sentInRender });
}

/**
 * The first VR users (by name) whose name, notes or external id (the LMS's learner id) contain
 * `q`. The external id stands beside the name, so two trainees of one name can be told apart.
 */
export const vrUserOptions: PickerQuery = (q) => ({
  queryKey: vrUserKeys.options(q),
  queryFn: async ({ signal }) => {
    const list = await api.call(routes.listVrUsers, {
      query: { q, limit: PICKER_LIMIT, sort: 'name' },
      signal,
    });
    return list.vr_users.map((user) => ({ value: user.id, label: vrUserLabel(user) }));
  },
});

/** A VR user as pickers name them: "Name (external id)", or the name alone. */
export function vrUserLabel(user: { name: string; external_id: string | null }): string {
  return user.external_id ? `${user.name} (${user.external_id})` : user.name;
}

/** The specification's session list page: limit 50. */
export const SESSIONS_PAGE_SIZE = 50;

export function useVrUserSessions(id: string | undefined, offset: number) {
  return useQuery({
    queryKey: vrUserKeys.sessions(id ?? '', offset),
    queryFn: ({ signal }) =>
      api.call(routes.listVrUserSessions, {
        params: { id: id ?? '' },
        query: { limit: SESSIONS_PAGE_SIZE, offset },
        signal,
      }),
    enabled: Boolean(id),
    // Paging keeps the previous page on screen; another VR user's sessions are never shown.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === id ? keepPreviousData(previous) : undefined,
  });
}

export function useSaveVrUser() {
  return useRefreshingMutation(vrUserKeys.all, ({ id, body }: { id?: string; body: VrUserBody }) =>
    id
      ? api.call(routes.updateVrUser, { params: { id }, body })
      : api.call(routes.createVrUser, { body }),
  );
}

export function useDeleteVrUser() {
  return useRefreshingMutation(vrUserKeys.all, (id: string) =>
    api.call(routes.deleteVrUser, { params: { id } }),
  );
}

export function useVrUser(id: string) {
  return useQuery({
    queryKey: vrUserKeys.one(id),
    queryFn: ({ signal }) => api.call(routes.getVrUser, { params: { id }, signal }),
  });
}

/** The trainee's training record: per level attempted, and the totals. */
export function useVrUserRecord(id: string) {
  return useQuery({
    queryKey: vrUserKeys.record(id),
    queryFn: ({ signal }) => api.call(routes.vrUserRecord, { params: { id }, signal }),
  });
}

/**
 * Every session the record counts, oldest first, for the printed record's list. They come from the
 * History's route filtered by the trainee rather than inside the record's answer: that route
 * already lists exactly the record's attempts (ended sessions) with what an inspector asks of each
 * (headset, result, who started it), and the record stays small on screen, where the paged
 * sessions table below it shows the same sessions.
 */
export function useVrUserRecordSessions(id: string) {
  return useQuery({
    queryKey: vrUserKeys.recordSessions(id),
    queryFn: async ({ signal }) => {
      const sessions: HistorySession[] = [];
      for (;;) {
        const page = await api.call(routes.listSessions, {
          query: {
            vr_user_id: id,
            order: 'asc',
            limit: SESSION_LIST_MAX_LIMIT,
            offset: sessions.length,
          },
          signal,
        });
        sessions.push(...page.sessions);
        if (page.sessions.length === 0 || sessions.length >= page.total) return sessions;
      }
    },
    enabled: Boolean(id),
  });
}

/** The server's CSV of the record for its reader (language, offset), with the file name it gave. */
export async function exportVrUserRecord(id: string, query: TrainingRecordExportQuery) {
  const { blob, filename } = await api.download(routes.exportVrUserRecord, {
    params: { id },
    query,
  });
  return { blob, filename: filename ?? 'training-record.csv' };
}
