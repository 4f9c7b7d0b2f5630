import {
  type AccountCreateBody,
  type AccountListQuery,
  type AccountPasswordBody,
  type AccountUpdateBody,
} from '@vrtc/contract';
import { routes } from './routes';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export const accountKeys = {
  all: ['admin', 'users'] as const,
  list: (query: AccountListQuery) => ['admin', 'users', 'list', query] as const,
};

/** A page of accounts, filtered, sorted and searched (`q`: the email) on the server. */
export function useAccounts(query: AccountListQuery) {
  return useQuery({
    queryKey: accountKeys.list(query),
    queryFn: ({ signal }) => api.call(routes.listAccounts, { query, signal }),
    // A new page, sort or filter keeps the table on screen until the answer arrives.
    placeholderData: keepPreviousData,
  });
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountCreateBody) => api.call(routes.createAccount, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AccountUpdateBody }) =>
      api.call(routes.updateAccount, { params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(routes.deleteAccount, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AccountPasswordBody }) =>
      api.call(routes.changePassword, { params: { id }, body }),
  });
}
