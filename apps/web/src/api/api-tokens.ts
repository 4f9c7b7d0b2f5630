import type { CreateApiTokenBody } from '@vrtc/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
import { routes } from './routes';

/** The signed-in account's own API tokens (docs/api.md, "API tokens"). */
export const apiTokenKeys = { all: ['api-tokens'] as const };

export function useApiTokens(enabled: boolean) {
  return useQuery({
    queryKey: apiTokenKeys.all,
    queryFn: ({ signal }) => api.call(routes.listApiTokens, { signal }),
    enabled,
  });
}

const useApiTokenMutation = <Variables, Answer>(
  mutationFn: (variables: Variables) => Promise<Answer>,
) => useRefreshingMutation(apiTokenKeys.all, mutationFn);

/** Makes one; the answer carries its secret, the only time it is shown. */
export function useCreateApiToken() {
  return useApiTokenMutation((body: CreateApiTokenBody) =>
    api.call(routes.createApiToken, { body }),
  );
}

export function useRevokeApiToken() {
  return useApiTokenMutation((id: string) => api.call(routes.revokeApiToken, { params: { id } }));
}
