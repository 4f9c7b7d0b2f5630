import {
  type AccountCreateBody,
  type AccountListQuery,
  type AccountPasswordBody,
  type MfaResetBody,
  type AccountUpdateBody,
} from '@vrtc/contract';
import { routes } from './routes';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';

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
  return useRefreshingMutation(accountKeys.all, (body: AccountCreateBody) =>
    api.call(routes.createAccount, { body }),
  );
}

export function useUpdateAccount() {
  return useRefreshingMutation(
    accountKeys.all,
    ({ id, body }: { id: string; body: AccountUpdateBody }) =>
      api.call(routes.updateAccount, { params: { id }, body }),
  );
}

export function useDeleteAccount() {
  return useRefreshingMutation(accountKeys.all, (id: string) =>
    api.call(routes.deleteAccount, { params: { id } }),
  );
}

export function useChangePassword() {
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: AccountPasswordBody }) =>
      api.call(routes.changePassword, { params: { id }, body }),
  });
}

/** A platform admin removes every second factor of an account whose holder lost them (audited). */
export function useResetAccountMfa() {
  return useRefreshingMutation(
    accountKeys.all,
    ({ id, body }: { id: string; body: MfaResetBody }) =>
      api.call(routes.resetAccountMfa, { params: { id }, body }),
  );
}
