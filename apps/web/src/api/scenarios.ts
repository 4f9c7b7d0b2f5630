import { routes } from './routes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';

/**
 * The scenarios the organisation may run, with modules, levels and options nested: the scenarios
 * screen, the wizard's choices and the History's scenario filter (one request, one cache entry).
 */
export const scenarioTreeKeys = {
  tree: ['scenarios-full'] as const,
};

export const scenarioQueries = {
  tree: () =>
    queryOptions({
      queryKey: scenarioTreeKeys.tree,
      queryFn: ({ signal }) => api.call(routes.scenarioTree, { signal }),
      select: (data) => data.scenarios,
    }),
};

export function useScenarioTree() {
  return useQuery(scenarioQueries.tree());
}
