import {
  type ContentLevel,
  type ContentModule,
  type CreateLevelBody,
  type CreateLevelOptionBody,
  type CreateModuleBody,
  type CreateScenarioBody,
  type LevelListQuery,
  type LevelOption,
  type LevelOptionListQuery,
  type ModuleListQuery,
  type ScenarioDetail,
  type ScenarioListQuery,
  type ScenarioSummary,
  type UpdateLevelBody,
  type UpdateLevelOptionBody,
  type UpdateModuleBody,
  type UpdateScenarioBody,
} from '@vrtc/contract';
import { routes } from './routes';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import type { ContentText, Named } from '../lib/content-text';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
import { PICKER_LIMIT, type PickerQuery } from './lists';

export type ContentKind = 'scenario' | 'module' | 'level' | 'option';

export interface ContentItems {
  scenario: ScenarioSummary;
  module: ContentModule;
  level: ContentLevel;
  option: LevelOption;
}
export type ContentItem = ContentItems[ContentKind];

/** Each list's sortable columns (the contract's sort enums). */
export const SCENARIO_SORT_FIELDS = [
  'name',
  'module_count',
  'active',
  'created_at',
] as const satisfies readonly NonNullable<ScenarioListQuery['sort']>[];
export const MODULE_SORT_FIELDS = [
  'order_index',
  'name',
  'created_at',
] as const satisfies readonly NonNullable<ModuleListQuery['sort']>[];
export const LEVEL_SORT_FIELDS = [
  'level_number',
  'name',
  'max_tasks',
  'created_at',
] as const satisfies readonly NonNullable<LevelListQuery['sort']>[];
export const OPTION_SORT_FIELDS = [
  'order_index',
  'name',
  'created_at',
] as const satisfies readonly NonNullable<LevelOptionListQuery['sort']>[];

export const contentKeys = {
  all: ['admin', 'content'] as const,
  scenarios: (query: ScenarioListQuery) => ['admin', 'content', 'scenarios', query] as const,
  modules: (scenarioId: string, query: ModuleListQuery) =>
    ['admin', 'content', 'modules', scenarioId, query] as const,
  levels: (moduleId: string, query: LevelListQuery) =>
    ['admin', 'content', 'levels', moduleId, query] as const,
  options: (levelId: string, query: LevelOptionListQuery) =>
    ['admin', 'content', 'options', levelId, query] as const,
  detail: (scenarioId: string) => ['admin', 'content', 'detail', scenarioId] as const,
  picker: (kind: string, parentId: string, q: string) =>
    ['admin', 'content', 'picker', kind, parentId, q] as const,
};

/**
 * The previous page stays on screen while the next one loads, but never another parent's
 * children (the parent's id is the key's fourth part).
 */
const sameParentPlaceholder =
  (parentId: string | null) =>
  <T>(previous: T | undefined, previousQuery?: { queryKey: QueryKey }) =>
    previousQuery?.queryKey[3] === parentId ? keepPreviousData(previous) : undefined;

export function useScenarios(query: ScenarioListQuery, enabled = true) {
  return useQuery({
    queryKey: contentKeys.scenarios(query),
    queryFn: ({ signal }) => api.call(routes.listScenarios, { query, signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useModules(scenarioId: string | null, query: ModuleListQuery) {
  return useQuery({
    queryKey: contentKeys.modules(scenarioId ?? '', query),
    queryFn: ({ signal }) =>
      api.call(routes.listModules, { params: { id: scenarioId ?? '' }, query, signal }),
    enabled: Boolean(scenarioId),
    placeholderData: sameParentPlaceholder(scenarioId),
  });
}

export function useLevels(moduleId: string | null, query: LevelListQuery) {
  return useQuery({
    queryKey: contentKeys.levels(moduleId ?? '', query),
    queryFn: ({ signal }) =>
      api.call(routes.listLevels, { params: { id: moduleId ?? '' }, query, signal }),
    enabled: Boolean(moduleId),
    placeholderData: sameParentPlaceholder(moduleId),
  });
}

export function useLevelOptions(levelId: string | null, query: LevelOptionListQuery) {
  return useQuery({
    queryKey: contentKeys.options(levelId ?? '', query),
    queryFn: ({ signal }) =>
      api.call(routes.listLevelOptions, { params: { id: levelId ?? '' }, query, signal }),
    enabled: Boolean(levelId),
    placeholderData: sameParentPlaceholder(levelId),
  });
}

/**
 * The chosen scenario with every module, level and option under it: names the parents chosen in
 * the URL, tells when one was deleted, and gives the next free order index or level number.
 */
export function useScenarioDetail(scenarioId: string | null) {
  return useQuery({
    queryKey: contentKeys.detail(scenarioId ?? ''),
    queryFn: ({ signal }) =>
      api.call(routes.getScenario, { params: { id: scenarioId ?? '' }, signal }),
    enabled: Boolean(scenarioId),
  });
}

/**
 * The first scenarios (by name) whose name or description contain `q`, named in the console's
 * language (`text`): the English console shows a scenario's English name when it has one.
 */
export const scenarioOptions =
  (text: ContentText): PickerQuery =>
  (q) => ({
    queryKey: [...contentKeys.picker('scenario', '', q), text.language],
    queryFn: async ({ signal }) => {
      const list = await api.call(routes.listScenarios, {
        query: { q, limit: PICKER_LIMIT, sort: 'name' },
        signal,
      });
      return list.scenarios.map((scenario) => ({ value: scenario.id, label: text.name(scenario) }));
    },
  });

/** The scenario's first modules (in order) whose name or description contain `q`, in `text`. */
export const moduleOptions =
  (scenarioId: string, text: ContentText): PickerQuery =>
  (q) => ({
    queryKey: [...contentKeys.picker('module', scenarioId, q), text.language],
    queryFn: async ({ signal }) => {
      const list = await api.call(routes.listModules, {
        params: { id: scenarioId },
        query: { q, limit: PICKER_LIMIT },
        signal,
      });
      return list.modules.map((module) => ({ value: module.id, label: text.name(module) }));
    },
    enabled: Boolean(scenarioId),
  });

/** The level's label in the pickers, in `text`: "2. Advanced". */
export const levelLabel = (level: Named & { level_number: number }, text: ContentText) =>
  `${level.level_number}. ${text.name(level)}`;

/** The module's first levels (by number) whose name or description contain `q`, in `text`. */
export const levelOptions =
  (moduleId: string, text: ContentText): PickerQuery =>
  (q) => ({
    queryKey: [...contentKeys.picker('level', moduleId, q), text.language],
    queryFn: async ({ signal }) => {
      const list = await api.call(routes.listLevels, {
        params: { id: moduleId },
        query: { q, limit: PICKER_LIMIT },
        signal,
      });
      return list.levels.map((level) => ({ value: level.id, label: levelLabel(level, text) }));
    },
    enabled: Boolean(moduleId),
  });

/**
 * What saving an item sends: a new item goes under its parent (none for a scenario), an edited one
 * is named by its id; each kind's body is its route's.
 */
export type SaveContentArgs =
  | { kind: 'scenario'; id?: undefined; body: CreateScenarioBody }
  | { kind: 'scenario'; id: string; body: UpdateScenarioBody }
  | { kind: 'module'; id?: undefined; parentId: string; body: CreateModuleBody }
  | { kind: 'module'; id: string; body: UpdateModuleBody }
  | { kind: 'level'; id?: undefined; parentId: string; body: CreateLevelBody }
  | { kind: 'level'; id: string; body: UpdateLevelBody }
  | { kind: 'option'; id?: undefined; parentId: string; body: CreateLevelOptionBody }
  | { kind: 'option'; id: string; body: UpdateLevelOptionBody };

function saveContent(args: SaveContentArgs): Promise<ContentItem> {
  if (args.id === undefined) {
    switch (args.kind) {
      case 'scenario':
        return api.call(routes.createScenario, { body: args.body });
      case 'module':
        return api.call(routes.createModule, { params: { id: args.parentId }, body: args.body });
      case 'level':
        return api.call(routes.createLevel, { params: { id: args.parentId }, body: args.body });
      case 'option':
        return api.call(routes.createLevelOption, {
          params: { id: args.parentId },
          body: args.body,
        });
    }
  }
  const params = { id: args.id };
  switch (args.kind) {
    case 'scenario':
      return api.call(routes.updateScenario, { params, body: args.body });
    case 'module':
      return api.call(routes.updateModule, { params, body: args.body });
    case 'level':
      return api.call(routes.updateLevel, { params, body: args.body });
    case 'option':
      return api.call(routes.updateLevelOption, { params, body: args.body });
  }
}

export function useSaveContent() {
  return useRefreshingMutation(contentKeys.all, saveContent);
}

/** Where each kind is deleted (by its own id). */
const deleteRoutes = {
  scenario: routes.deleteScenario,
  module: routes.deleteModule,
  level: routes.deleteLevel,
  option: routes.deleteLevelOption,
} as const satisfies Record<ContentKind, unknown>;

/**
 * The ids of a deleted item and of everything under it that the cached scenario trees know of
 * (a deleted scenario takes its modules, levels and options with it).
 */
export function deletedIds(queryClient: QueryClient, kind: ContentKind, id: string): Set<string> {
  const ids = new Set([id]);
  const trees = queryClient
    .getQueriesData<ScenarioDetail>({ queryKey: [...contentKeys.all, 'detail'] })
    .map(([, tree]) => tree)
    .filter((tree): tree is ScenarioDetail => Boolean(tree));
  const addLevel = (level: ScenarioDetail['modules'][number]['levels'][number]) => {
    ids.add(level.id);
    for (const option of level.options) ids.add(option.id);
  };
  const addModule = (module: ScenarioDetail['modules'][number]) => {
    ids.add(module.id);
    module.levels.forEach(addLevel);
  };
  for (const tree of trees) {
    if (kind === 'scenario' && tree.id === id) tree.modules.forEach(addModule);
    for (const module of tree.modules) {
      if (kind === 'module' && module.id === id) addModule(module);
      for (const level of module.levels) if (kind === 'level' && level.id === id) addLevel(level);
    }
  }
  return ids;
}

/**
 * Deletes an item. What is gone is never asked for again: `onGone` first lets the screen drop a
 * deleted scenario, module or level from its selection, then the cached queries of the deleted
 * items (their details, their children's lists and pickers) are removed, and only the rest is
 * refreshed.
 */
export function useDeleteContent(onGone?: (ids: Set<string>) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: ContentKind; id: string }) =>
      api.call(deleteRoutes[kind], { params: { id } }),
    onSuccess: (_answer, { kind, id }) => {
      const gone = deletedIds(queryClient, kind, id);
      onGone?.(gone);
      const mentionsGone = (query: { queryKey: QueryKey }) =>
        query.queryKey.some((part) => typeof part === 'string' && gone.has(part));
      queryClient.removeQueries({ queryKey: contentKeys.all, predicate: mentionsGone });
      return queryClient.invalidateQueries({
        queryKey: contentKeys.all,
        predicate: (query) => !mentionsGone(query),
      });
    },
  });
}
