import type { SsoConfigBody } from '@vrtc/contract';
import { useQuery } from '@tanstack/react-query';
import { routes } from './routes';
import { api } from './client';
import { useRefreshingMutation } from './mutations';

/** An organisation's single sign-on (admin): read, replace, remove (docs/sso.md). */
export const ssoKeys = {
  config: (id: string) => ['admin', 'organizations', 'sso', id] as const,
  test: (id: string, testId: string) =>
    ['admin', 'organizations', 'sso', id, 'test', testId] as const,
};

/** The configuration, or null when the organisation has none (404). */
export function useSsoConfig(id: string) {
  return useQuery({
    queryKey: ssoKeys.config(id),
    queryFn: async ({ signal }) => {
      try {
        return await api.call(routes.getSsoConfig, { params: { id }, signal });
      } catch (error) {
        if ((error as { status?: number }).status === 404) return null;
        throw error;
      }
    },
  });
}

export function useSaveSso(id: string) {
  return useRefreshingMutation(ssoKeys.config(id), (body: SsoConfigBody) =>
    api.call(routes.putSsoConfig, { params: { id }, body }),
  );
}

export function useDeleteSso(id: string) {
  return useRefreshingMutation(ssoKeys.config(id), () =>
    api.call(routes.deleteSsoConfig, { params: { id } }),
  );
}

/** What a test sign-in saw (kept ten minutes by the server): the claims, or why it failed. */
export function useSsoTest(id: string, testId: string) {
  return useQuery({
    queryKey: ssoKeys.test(id, testId),
    queryFn: ({ signal }) => api.call(routes.getSsoTest, { params: { id, testId }, signal }),
    staleTime: Infinity,
  });
}

/** A full-page visit: the server sends the browser to the provider and back with ?sso_test=. */
export const ssoTestUrl = (id: string) => `/v1/admin/organizations/${id}/sso/test`;
