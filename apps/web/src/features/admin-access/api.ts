import {
  type GrantAccessBody,
  type RevokeAccessBody,
  type ScenarioAccessQuery,
} from '@vrtc/contract';
import { routes } from '../../api/routes';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export const accessKeys = {
  all: ['admin', 'scenario-access'] as const,
  page: (query: ScenarioAccessQuery) => ['admin', 'scenario-access', query] as const,
};

/** A page of scenarios (by name; `q` matches it), each listing every organisation and its grant. */
export function useScenarioAccess(query: ScenarioAccessQuery) {
  return useQuery({
    queryKey: accessKeys.page(query),
    queryFn: ({ signal }) => api.call(routes.scenarioAccess, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useGrantAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scenarioId, body }: { scenarioId: string; body: GrantAccessBody }) =>
      api.call(routes.grantAccess, { params: { id: scenarioId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.all }),
  });
}

export function useRevokeAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scenarioId, body }: { scenarioId: string; body: RevokeAccessBody }) =>
      api.call(routes.revokeAccess, { params: { id: scenarioId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.all }),
  });
}
