import type {
  Account,
  AccountCreateBody,
  AccountList,
  AccountPasswordBody,
  AccountUpdateBody,
  OkBody,
  OrganizationList,
  Role,
} from '@vrtc/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export interface AccountFilters {
  organization_id?: string;
  role?: Role;
}

export const accountKeys = {
  all: ['admin', 'users'] as const,
  list: (filters: AccountFilters) => ['admin', 'users', 'list', filters] as const,
  /** Same key as the organisations screen's plain list: one cache entry for both. */
  organizations: ['admin', 'organizations', 'list', { withStats: false }] as const,
};

/** Accounts, filtered on the server by organisation and role. */
export function useAccounts(filters: AccountFilters) {
  return useQuery({
    queryKey: accountKeys.list(filters),
    queryFn: ({ signal }) =>
      api.get<AccountList>('/v1/admin/users', { query: { ...filters }, signal }),
    select: (data) => data.users,
    // A new filter keeps the table (its sort and page) on screen until the answer arrives.
    placeholderData: keepPreviousData,
  });
}

/** Organisations for the filter and the form's picker, by name. */
export function useOrganizationOptions() {
  return useQuery({
    queryKey: accountKeys.organizations,
    queryFn: ({ signal }) => api.get<OrganizationList>('/v1/admin/organizations', { signal }),
    select: (data) =>
      data.organizations
        .map((organization) => ({ value: organization.id, label: organization.name }))
        .sort((a, b) => a.label.localeCompare(b.label)),
  });
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountCreateBody) => api.post<Account>('/v1/admin/users', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AccountUpdateBody }) =>
      api.put<Account>(`/v1/admin/users/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<OkBody>(`/v1/admin/users/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AccountPasswordBody }) =>
      api.post<OkBody>(`/v1/admin/users/${id}/password`, body),
  });
}
