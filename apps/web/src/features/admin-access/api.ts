import type {
  GrantAccessBody,
  GrantAccessResponse,
  RevokeAccessBody,
  RevokeAccessResponse,
  ScenarioAccessMatrix,
} from '@vrtc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export const accessKeys = {
  all: ['admin', 'scenario-access'] as const,
};

/** One entry per scenario, each listing every organisation and its grant. */
export function useScenarioAccess() {
  return useQuery({
    queryKey: accessKeys.all,
    queryFn: ({ signal }) =>
      api.get<ScenarioAccessMatrix>('/v1/admin/scenarios/access', { signal }),
    select: (data) => data.scenario_access,
  });
}

export function useGrantAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scenarioId, body }: { scenarioId: string; body: GrantAccessBody }) =>
      api.post<GrantAccessResponse>(`/v1/admin/scenarios/${scenarioId}/grant`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.all }),
  });
}

export function useRevokeAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scenarioId, body }: { scenarioId: string; body: RevokeAccessBody }) =>
      api.post<RevokeAccessResponse>(`/v1/admin/scenarios/${scenarioId}/revoke`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accessKeys.all }),
  });
}
