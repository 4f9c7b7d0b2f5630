import { useQuery } from '@tanstack/react-query';
import { routes } from './routes';
import { api } from './client';
import { useRefreshingMutation } from './mutations';

/** An organisation's SCIM token (admin): whether it has one; issue (or rotate) and revoke. */
export const scimKeys = {
  token: (organizationId: string) => ['admin', 'scim-token', organizationId] as const,
};

export function useScimToken(organizationId: string) {
  return useQuery({
    queryKey: scimKeys.token(organizationId),
    queryFn: ({ signal }) =>
      api.call(routes.getScimToken, { params: { id: organizationId }, signal }),
  });
}

export function useIssueScimToken(organizationId: string) {
  return useRefreshingMutation(scimKeys.token(organizationId), (name: string) =>
    api.call(routes.issueScimToken, { params: { id: organizationId }, body: { name } }),
  );
}

export function useRevokeScimToken(organizationId: string) {
  return useRefreshingMutation(scimKeys.token(organizationId), () =>
    api.call(routes.revokeScimToken, { params: { id: organizationId } }),
  );
}
