import type {
  OkBody,
  Organization,
  OrganizationAnalytics,
  OrganizationCreateBody,
  OrganizationList,
  OrganizationUpdateBody,
} from '@vrtc/contract';
import { ORGANIZATION_ANALYTICS_DEFAULT_DAYS } from '@vrtc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export const ANALYTICS_DAYS = ORGANIZATION_ANALYTICS_DEFAULT_DAYS;

export const organizationKeys = {
  all: ['admin', 'organizations'] as const,
  list: (withStats: boolean) => ['admin', 'organizations', 'list', { withStats }] as const,
  analytics: (id: string, days: number) =>
    ['admin', 'organizations', 'analytics', id, days] as const,
};

/** Every organisation with its figures (users, sessions, devices). */
export function useOrganizations() {
  return useQuery({
    queryKey: organizationKeys.list(true),
    queryFn: ({ signal }) =>
      api.get<OrganizationList>('/v1/admin/organizations', {
        query: { include_stats: true },
        signal,
      }),
    select: (data) => data.organizations,
  });
}

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
