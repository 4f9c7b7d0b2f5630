import type { ScenarioTreeList } from '@vrtc/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

/**
 * The scenarios the organisation may run, with modules, levels and options nested: the scenarios
 * screen, the wizard's choices and the History's scenario filter (one request, one cache entry).
 */
export const scenarioTreeKeys = {
  tree: ['scenarios-full'] as const,
};

export function useScenarioTree() {
  return useQuery({
    queryKey: scenarioTreeKeys.tree,
    queryFn: ({ signal }) => api.get<ScenarioTreeList>('/v1/scenarios-full', { signal }),
    select: (data) => data.scenarios,
  });
}
