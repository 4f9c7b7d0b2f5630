import type {
  ContentLevel,
  ContentModule,
  CreateLevelBody,
  CreateLevelOptionBody,
  CreateModuleBody,
  CreateScenarioBody,
  LevelList,
  LevelOption,
  LevelOptionList,
  ModuleList,
  OkBody,
  ScenarioList,
  ScenarioSummary,
  UpdateLevelBody,
  UpdateLevelOptionBody,
  UpdateModuleBody,
  UpdateScenarioBody,
} from '@vrtc/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';

export type ContentKind = 'scenario' | 'module' | 'level' | 'option';

export interface ContentItems {
  scenario: ScenarioSummary;
  module: ContentModule;
  level: ContentLevel;
  option: LevelOption;
}
export type ContentItem = ContentItems[ContentKind];

export const contentKeys = {
  all: ['admin', 'content'] as const,
  scenarios: ['admin', 'content', 'scenarios'] as const,
  modules: (scenarioId: string) => ['admin', 'content', 'modules', scenarioId] as const,
  levels: (moduleId: string) => ['admin', 'content', 'levels', moduleId] as const,
  options: (levelId: string) => ['admin', 'content', 'options', levelId] as const,
};

export function useScenarios() {
  return useQuery({
    queryKey: contentKeys.scenarios,
    queryFn: ({ signal }) => api.get<ScenarioList>('/v1/admin/scenarios', { signal }),
    select: (data) => data.scenarios,
  });
}

export function useModules(scenarioId: string | null) {
  return useQuery({
    queryKey: contentKeys.modules(scenarioId ?? ''),
    queryFn: ({ signal }) =>
      api.get<ModuleList>(`/v1/admin/scenarios/${scenarioId}/modules`, { signal }),
    select: (data) => data.modules,
    enabled: Boolean(scenarioId),
  });
}

export function useLevels(moduleId: string | null) {
  return useQuery({
    queryKey: contentKeys.levels(moduleId ?? ''),
    queryFn: ({ signal }) => api.get<LevelList>(`/v1/admin/modules/${moduleId}/levels`, { signal }),
    select: (data) => data.levels,
    enabled: Boolean(moduleId),
  });
}

export function useLevelOptions(levelId: string | null) {
  return useQuery({
    queryKey: contentKeys.options(levelId ?? ''),
    queryFn: ({ signal }) =>
      api.get<LevelOptionList>(`/v1/admin/levels/${levelId}/options`, { signal }),
    select: (data) => data.options,
    enabled: Boolean(levelId),
  });
}

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

export function useDeleteContent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: ContentKind; id: string }) =>
      api.delete<OkBody>(paths[kind].item(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.all }),
  });
}
