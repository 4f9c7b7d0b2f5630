import { type OrganizationListQuery, ORGANIZATION_ANALYTICS_DEFAULT_DAYS } from '@vrtc/contract';
import { routes } from './routes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
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

export const organizationQueries = {
  /** A page of organisations (with include_stats: their figures and the summary of all). */
  list: (query: OrganizationListQuery) =>
    queryOptions({
      queryKey: organizationKeys.list(query),
      queryFn: ({ signal }) => api.call(routes.listOrganizations, { query, signal }),
      placeholderData: keepPreviousData,
    }),
  /** One organisation, e.g. to name the one a filter in the URL points at. */
  detail: (id: string | undefined) =>
    queryOptions({
      queryKey: organizationKeys.detail(id ?? ''),
      queryFn: ({ signal }) =>
        api.call(routes.getOrganization, { params: { id: id ?? '' }, signal }),
      enabled: Boolean(id),
    }),
};

export function useOrganizationList(query: OrganizationListQuery) {
  return useQuery(organizationQueries.list(query));
}

export function useOrganization(id: string | undefined) {
  return useQuery(organizationQueries.detail(id));
}

/** The first organisations (by name) whose name contains `q`. */
export const organizationOptions: PickerQuery = (q) => ({
  queryKey: organizationKeys.options(q),
  queryFn: async ({ signal }) => {
    const list = await api.call(routes.listOrganizations, {
      query: { q, limit: PICKER_LIMIT, sort: 'name' },
      signal,
    });
    return list.organizations.map((organization) => ({
      value: organization.id,
      label: organization.name,
    }));
  },
});

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
  return useRefreshingMutation(
    organizationKeys.all,
    ({
      id,
      name,
      active,
      mfa_required,
    }: {
      id?: string;
      name: string;
      active: boolean;
      mfa_required?: boolean;
    }) =>
      id
        ? api.call(routes.updateOrganization, {
            params: { id },
            body: { name, active, ...(mfa_required !== undefined ? { mfa_required } : {}) },
          })
        : api.call(routes.createOrganization, { body: { name } }),
  );
}

export function useDeleteOrganization() {
  return useRefreshingMutation(organizationKeys.all, (id: string) =>
    api.call(routes.deleteOrganization, { params: { id } }),
  );
}
