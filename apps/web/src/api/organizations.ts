import type { Organization, OrganizationList, OrganizationListQuery } from '@vrtc/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { PICKER_LIMIT, type PickerQuery } from './lists';

/**
 * Organisations (admin): the organisations screen's table, and the organisation pickers of the
 * users and devices screens.
 */
export const organizationKeys = {
  all: ['admin', 'organizations'] as const,
  list: (query: OrganizationListQuery) => ['admin', 'organizations', 'list', query] as const,
  detail: (id: string) => ['admin', 'organizations', 'detail', id] as const,
  options: (q: string) => ['admin', 'organizations', 'options', q] as const,
  analytics: (id: string, days: number) =>
    ['admin', 'organizations', 'analytics', id, days] as const,
};

/** A page of organisations (with include_stats: their figures and the summary of all). */
export function useOrganizationList(query: OrganizationListQuery) {
  return useQuery({
    queryKey: organizationKeys.list(query),
    queryFn: ({ signal }) =>
      api.get<OrganizationList>('/v1/admin/organizations', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** One organisation, e.g. to name the one a filter in the URL points at. */
export function useOrganization(id: string | undefined) {
  return useQuery({
    queryKey: organizationKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<Organization>(`/v1/admin/organizations/${id}`, { signal }),
    enabled: Boolean(id),
  });
}

/** The first organisations (by name) whose name contains `q`. */
export const organizationOptions: PickerQuery = (q) => ({
  queryKey: organizationKeys.options(q),
  queryFn: async ({ signal }) => {
    const list = await api.get<OrganizationList>('/v1/admin/organizations', {
      query: { q, limit: PICKER_LIMIT, sort: 'name' } satisfies OrganizationListQuery,
      signal,
    });
    return list.organizations.map((organization) => ({
      value: organization.id,
      label: organization.name,
    }));
  },
});
