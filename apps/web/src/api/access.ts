import {
  type GrantAccessBody,
  type RevokeAccessBody,
  type ScenarioAccessEntry,
  type ScenarioAccessOrganization,
  type ScenarioAccessQuery,
  type ScenarioGrantsQuery,
} from '@vrtc/contract';
import { routes } from './routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
import { PICKER_LIMIT, type PickerOption, type PickerQuery } from './lists';

export const accessKeys = {
  all: ['admin', 'scenario-access'] as const,
  page: (query: ScenarioAccessQuery) => ['admin', 'scenario-access', query] as const,
  grants: (scenarioId: string, query: ScenarioGrantsQuery) =>
    ['admin', 'scenario-access', 'grants', scenarioId, query] as const,
  grantOptions: (scenarioId: string, q: string) =>
    ['admin', 'scenario-access', 'grant-options', scenarioId, q] as const,
};

/** An organisation to grant a scenario to, with its grant of that scenario if it holds one. */
export interface GrantOption extends PickerOption {
  grant?: ScenarioAccessOrganization;
}

/**
 * The grant dialog's choices: the first organisations whose name contains `q`, each with its
 * grant of the scenario. Both lists are by name and filtered alike, so the grants among the first
 * PICKER_LIMIT organisations are among the first PICKER_LIMIT grants.
 */
export const grantOptions =
  (scenarioId: string | undefined): PickerQuery =>
  (q) => ({
    queryKey: accessKeys.grantOptions(scenarioId ?? '', q),
    // No scenario (the dialog closing): nothing to ask.
    enabled: Boolean(scenarioId),
    queryFn: async ({ signal }): Promise<GrantOption[]> => {
      const [choices, grants] = await Promise.all([
        api.call(routes.listOrganizations, {
          query: { q, limit: PICKER_LIMIT, sort: 'name' },
          signal,
        }),
        api.call(routes.scenarioGrants, {
          params: { id: scenarioId! },
          query: { q, limit: PICKER_LIMIT },
          signal,
        }),
      ]);
      const grantOf = new Map(grants.organizations.map((grant) => [grant.organization_id, grant]));
      return choices.organizations.map((organization) => ({
        value: organization.id,
        label: organization.name,
        grant: grantOf.get(organization.id),
      }));
    },
  });

/** A page of scenarios (by name; `q` matches it), each with its first grants and their counts. */
export function useScenarioAccess(query: ScenarioAccessQuery) {
  return useQuery({
    queryKey: accessKeys.page(query),
    queryFn: ({ signal }) => api.call(routes.scenarioAccess, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * A page of one scenario's grants. The entry already holds the first page by name, so that view
 * asks for nothing (`enabled` false); the rows on screen stay while another page loads.
 */
export function useScenarioGrants(
  entry: ScenarioAccessEntry,
  query: ScenarioGrantsQuery,
  enabled: boolean,
) {
  return useQuery({
    queryKey: accessKeys.grants(entry.scenario_id, query),
    queryFn: ({ signal }) =>
      api.call(routes.scenarioGrants, { params: { id: entry.scenario_id }, query, signal }),
    enabled,
    placeholderData: (previous) =>
      previous ?? {
        organizations: entry.organizations,
        total: entry.organizations_with_grant,
        limit: query.limit ?? 0,
        offset: 0,
      },
  });
}

export function useGrantAccess() {
  return useRefreshingMutation(
    accessKeys.all,
    ({ scenarioId, body }: { scenarioId: string; body: GrantAccessBody }) =>
      api.call(routes.grantAccess, { params: { id: scenarioId }, body }),
  );
}

export function useRevokeAccess() {
  return useRefreshingMutation(
    accessKeys.all,
    ({ scenarioId, body }: { scenarioId: string; body: RevokeAccessBody }) =>
      api.call(routes.revokeAccess, { params: { id: scenarioId }, body }),
  );
}
