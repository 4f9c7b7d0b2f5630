import type {
  OkBody,
  Organization,
  OrganizationAnalytics,
  OrganizationCreateBody,
  OrganizationUpdateBody,
} from '@vrtc/contract';
import { ORGANIZATION_ANALYTICS_DEFAULT_DAYS } from '@vrtc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { organizationKeys } from '../../api/organizations';

export const ANALYTICS_DAYS = ORGANIZATION_ANALYTICS_DEFAULT_DAYS;

export function useOrganizationAnalytics(id: string | undefined) {
  return useQuery({
    queryKey: organizationKeys.analytics(id ?? '', ANALYTICS_DAYS),
    queryFn: ({ signal }) =>
      api.get<OrganizationAnalytics>(`/v1/admin/organizations/${id}/analytics`, {
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
        ? api.put<Organization>(`/v1/admin/organizations/${id}`, {
            name,
            active,
          } satisfies OrganizationUpdateBody)
        : api.post<Organization>('/v1/admin/organizations', {
            name,
          } satisfies OrganizationCreateBody),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}

export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<OkBody>(`/v1/admin/organizations/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  });
}
