import { ORGANIZATION_ANALYTICS_DEFAULT_DAYS } from '@vrtc/contract';
import { routes } from '../../api/routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { organizationKeys } from '../../api/organizations';

export const ANALYTICS_DAYS = ORGANIZATION_ANALYTICS_DEFAULT_DAYS;

export function useOrganizationAnalytics(id: string | undefined) {
  return useQuery({
    queryKey: organizationKeys.analytics(id ?? '', ANALYTICS_DAYS),
    queryFn: ({ signal }) =>
      api.call(routes.organizationAnalytics, {
        params: { id: id ?? '' },
        query: { days: ANALYTICS_DAYS },
        signal,
      }),
    enabled: Boolean(id),
  });
}

export function useSaveOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name, active }: { id?: string; name: string; active: boolean }) =>
      id
        ? api.call(routes.updateOrganization, { params: { id }, body: { name, active } })
        : api.call(routes.createOrganization, { body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(routes.deleteOrganization, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}
