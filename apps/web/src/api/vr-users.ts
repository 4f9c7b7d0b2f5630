import type { VrUserList, VrUserListQuery } from '@vrtc/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { PICKER_LIMIT, type PickerQuery } from './lists';

/**
 * The organisation's VR users: the VR users screen's table, and the searchable VR user pickers of
 * the sessions screen (the wizard, the History filter).
 */
export const vrUserKeys = {
  all: ['vr-users'] as const,
  list: (query: VrUserListQuery) => ['vr-users', 'list', query] as const,
  options: (q: string) => ['vr-users', 'options', q] as const,
  sessions: (id: string, offset: number) => ['vr-users', id, 'sessions', offset] as const,
};

/** A page of VR users; the previous page stays on screen while the next one loads. */
export function useVrUserList(query: VrUserListQuery) {
  return useQuery({
    queryKey: vrUserKeys.list(query),
    queryFn: ({ signal }) => api.get<VrUserList>('/v1/vr-users', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The first VR users (by name) whose name or notes contain `q`. */
export const vrUserOptions: PickerQuery = (q) => ({
  queryKey: vrUserKeys.options(q),
  queryFn: async ({ signal }) => {
    const list = await api.get<VrUserList>('/v1/vr-users', {
      query: { q, limit: PICKER_LIMIT, sort: 'name' } satisfies VrUserListQuery,
      signal,
    });
    return list.vr_users.map((user) => ({ value: user.id, label: user.name }));
  },
});
