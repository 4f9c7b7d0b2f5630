import type { ScenarioTreeList } from '@vrtc/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const scenarioKeys = {
  // Shared with the session wizard's scenario choices (same request, same shape).
  tree: ['scenarios-full'] as const,
};

/** The scenarios the organisation may run, with modules, levels and options nested. */
export function useScenarioTree() {
  return useQuery({
    queryKey: scenarioKeys.tree,
    queryFn: ({ signal }) => api.get<ScenarioTreeList>('/v1/scenarios-full', { signal }),
    select: (data) => data.scenarios,
  });
}
