import { type VrUserBody } from '@vrtc/contract';
import { routes } from '../../api/routes';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { vrUserKeys } from '../../api/vr-users';

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
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: VrUserBody }) =>
      id
        ? api.call(routes.updateVrUser, { params: { id }, body })
        : api.call(routes.createVrUser, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vrUserKeys.all }),
  });
}

export function useDeleteVrUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(routes.deleteVrUser, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: vrUserKeys.all }),
  });
}
