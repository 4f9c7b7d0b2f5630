import type { OkBody, VrUser, VrUserBody, VrUserList, VrUserSessionList } from '@vrtc/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export const vrUserKeys = {
  all: ['vr-users'] as const,
  sessions: (id: string, offset: number) => ['vr-users', id, 'sessions', offset] as const,
};

export function useVrUsers() {
  return useQuery({
    queryKey: vrUserKeys.all,
    queryFn: ({ signal }) => api.get<VrUserList>('/v1/vr-users', { signal }),
    select: (data) => data.vr_users,
  });
}

export const SESSIONS_PAGE_SIZE = 50;

export function useVrUserSessions(id: string | undefined, offset: number) {
  return useQuery({
    queryKey: vrUserKeys.sessions(id ?? '', offset),
    queryFn: ({ signal }) =>
      api.get<VrUserSessionList>(`/v1/vr-users/${id}/sessions`, {
        query: { limit: SESSIONS_PAGE_SIZE, offset },
        signal,
      }),
    enabled: Boolean(id),
    placeholderData: keepPreviousData,
  });
}

export function useSaveVrUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: VrUserBody }) =>
      id ? api.put<VrUser>(`/v1/vr-users/${id}`, body) : api.post<VrUser>('/v1/vr-users', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vrUserKeys.all }),
  });
}

export function useDeleteVrUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<OkBody>(`/v1/vr-users/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vrUserKeys.all }),
  });
}
