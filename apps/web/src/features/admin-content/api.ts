import type {
  ContentLevel,
  ContentModule,
  CreateLevelBody,
  CreateLevelOptionBody,
  CreateModuleBody,
  CreateScenarioBody,
  LevelList,
  LevelListQuery,
  LevelOption,
  LevelOptionList,
  LevelOptionListQuery,
  ModuleList,
  ModuleListQuery,
  OkBody,
  ScenarioDetail,
  ScenarioList,
  ScenarioListQuery,
  ScenarioSummary,
  UpdateLevelBody,
  UpdateLevelOptionBody,
  UpdateModuleBody,
  UpdateScenarioBody,
} from '@vrtc/contract';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { api } from '../../api/client';
import { PICKER_LIMIT, type PickerQuery } from '../../api/lists';

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

/** The page query of any of the four lists (each sorts by its own fields). */
export interface ContentListQuery {
  limit: number;
  offset: number;
  sort?: string;
  order?: 'asc' | 'desc';
  q?: string;
}

export const contentKeys = {
  all: ['admin', 'content'] as const,
  scenarios: (query: ContentListQuery) => ['admin', 'content', 'scenarios', query] as const,
  modules: (scenarioId: string, query: ContentListQuery) =>
    ['admin', 'content', 'modules', scenarioId, query] as const,
  levels: (moduleId: string, query: ContentListQuery) =>
    ['admin', 'content', 'levels', moduleId, query] as const,
  options: (levelId: string, query: ContentListQuery) =>
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

export function useScenarios(query: ContentListQuery, enabled = true) {
  return useQuery({
    queryKey: contentKeys.scenarios(query),
    queryFn: ({ signal }) =>
      api.get<ScenarioList>('/v1/admin/scenarios', { query: { ...query }, signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

export function useModules(scenarioId: string | null, query: ContentListQuery) {
  return useQuery({
    queryKey: contentKeys.modules(scenarioId ?? '', query),
    queryFn: ({ signal }) =>
      api.get<ModuleList>(`/v1/admin/scenarios/${scenarioId}/modules`, {
        query: { ...query },
        signal,
      }),
    enabled: Boolean(scenarioId),
    placeholderData: sameParentPlaceholder(scenarioId),
  });
}

export function useLevels(moduleId: string | null, query: ContentListQuery) {
  return useQuery({
    queryKey: contentKeys.levels(moduleId ?? '', query),
    queryFn: ({ signal }) =>
      api.get<LevelList>(`/v1/admin/modules/${moduleId}/levels`, { query: { ...query }, signal }),
    enabled: Boolean(moduleId),
    placeholderData: sameParentPlaceholder(moduleId),
  });
}

export function useLevelOptions(levelId: string | null, query: ContentListQuery) {
  return useQuery({
    queryKey: contentKeys.options(levelId ?? '', query),
    queryFn: ({ signal }) =>
      api.get<LevelOptionList>(`/v1/admin/levels/${levelId}/options`, {
        query: { ...query },
        signal,
      }),
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
      api.get<ScenarioDetail>(`/v1/admin/scenarios/${scenarioId}`, { signal }),
    enabled: Boolean(scenarioId),
  });
}

/** The first scenarios (by name) whose name or description contain `q`. */
export const scenarioOptions: PickerQuery = (q) => ({
  queryKey: contentKeys.picker('scenario', '', q),
  queryFn: async ({ signal }) => {
    const list = await api.get<ScenarioList>('/v1/admin/scenarios', {
      query: { q, limit: PICKER_LIMIT, sort: 'name' } satisfies ScenarioListQuery,
      signal,
    });
    return list.scenarios.map((scenario) => ({ value: scenario.id, label: scenario.name }));
  },
});

/** The scenario's first modules (in order) whose name or description contain `q`. */
export const moduleOptions =
  (scenarioId: string): PickerQuery =>
  (q) => ({
    queryKey: contentKeys.picker('module', scenarioId, q),
    queryFn: async ({ signal }) => {
      const list = await api.get<ModuleList>(`/v1/admin/scenarios/${scenarioId}/modules`, {
        query: { q, limit: PICKER_LIMIT } satisfies ModuleListQuery,
        signal,
      });
      return list.modules.map((module) => ({ value: module.id, label: module.name }));
    },
    enabled: Boolean(scenarioId),
  });

/** The level's label in the pickers: "2. Advanced". */
export const levelLabel = (level: { level_number: number; name: string }) =>
  `${level.level_number}. ${level.name}`;

/** The module's first levels (by number) whose name or description contain `q`. */
export const levelOptions =
  (moduleId: string): PickerQuery =>
  (q) => ({
    queryKey: contentKeys.picker('level', moduleId, q),
    queryFn: async ({ signal }) => {
      const list = await api.get<LevelList>(`/v1/admin/modules/${moduleId}/levels`, {
        query: { q, limit: PICKER_LIMIT } satisfies LevelListQuery,
        signal,
      });
      return list.levels.map((level) => ({ value: level.id, label: levelLabel(level) }));
    },
    enabled: Boolean(moduleId),
  });

/** Where each kind is created (under its parent), and updated or deleted (by its own id). */
const paths: Record<
  ContentKind,
  { create: (parentId: string) => string; item: (id: string) => string }
> = {
  scenario: { create: () => '/v1/admin/scenarios', item: (id) => `/v1/admin/scenarios/${id}` },
  module: {
    create: (parent) => `/v1/admin/scenarios/${parent}/modules`,
    item: (id) => `/v1/admin/modules/${id}`,
  },
  level: {
    create: (parent) => `/v1/admin/modules/${parent}/levels`,
    item: (id) => `/v1/admin/levels/${id}`,
  },
  option: {
    create: (parent) => `/v1/admin/levels/${parent}/options`,
    item: (id) => `/v1/admin/level-options/${id}`,
  },
};

export type ContentBody =
  | CreateScenarioBody
  | UpdateScenarioBody
  | CreateModuleBody
  | UpdateModuleBody
  | CreateLevelBody
  | UpdateLevelBody
  | CreateLevelOptionBody
  | UpdateLevelOptionBody;

export interface SaveContentArgs {
  kind: ContentKind;
  /** Set when editing. */
  id?: string;
  /** The scenario, module or level a new module, level or option goes under. */
  parentId?: string;
  body: ContentBody;
}

export function useSaveContent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id, parentId, body }: SaveContentArgs) =>
      id
        ? api.put<ContentItem>(paths[kind].item(id), body)
        : api.post<ContentItem>(paths[kind].create(parentId ?? ''), body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.all }),
  });
}

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
      api.delete<OkBody>(paths[kind].item(id)),
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
