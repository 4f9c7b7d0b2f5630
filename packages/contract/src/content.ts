import { Type, type Static } from 'typebox';
import { Description, NAME_MAX_LENGTH, Name, Nullable, Text, Timestamp, Uuid } from './common.ts';
import { listPageFields, listQueryFields } from './lists.ts';

/**
 * Scenario content: scenarios → modules → levels → level options. Admin management under
 * /v1/admin, and the client's tree of the scenarios its organisation may run (/v1/scenarios-full).
 */

export const ORDER_INDEX_MAX = 1_000_000;
export const LEVEL_NUMBER_MAX = 10_000;
export const MAX_TASKS_MIN = 1;
export const MAX_TASKS_MAX = 1000;
/** The level form's default (specification section 9). */
export const MAX_TASKS_DEFAULT = 3;

/** Optional free text in request bodies; null or blank is stored as ''. */
const OptionalDescription = Type.Optional(Nullable(Description));
const OrderIndex = Type.Integer({ minimum: 0, maximum: ORDER_INDEX_MAX });
const LevelNumber = Type.Integer({ minimum: 1, maximum: LEVEL_NUMBER_MAX });
const MaxTasks = Type.Integer({ minimum: MAX_TASKS_MIN, maximum: MAX_TASKS_MAX });

/**
 * Content speaks two languages: `name` and `description` are the primary (Russian) text, the
 * optional `name_en` and `description_en` the English one (null when not given). The console shows
 * the text of its language and falls back to the other.
 */
const englishFields = {
  name_en: Nullable(Type.String()),
  description_en: Nullable(Type.String()),
};
/** In a request: absent leaves it as it is; null or blank removes it. */
const englishBodyFields = {
  name_en: Type.Optional(Nullable(Text({ maxLength: NAME_MAX_LENGTH }))),
  description_en: OptionalDescription,
};

// ---- Scenarios ----

const scenarioFields = {
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  ...englishFields,
  active: Type.Boolean(),
  created_at: Timestamp,
};

export const ScenarioSummary = Type.Object({ ...scenarioFields, module_count: Type.Integer() });
export type ScenarioSummary = Static<typeof ScenarioSummary>;

export const ScenarioList = Type.Object({
  scenarios: Type.Array(ScenarioSummary),
  ...listPageFields,
});
export type ScenarioList = Static<typeof ScenarioList>;

/** `q` matches the name or the description. Default order: by name. */
export const ScenarioListQuery = Type.Object(
  listQueryFields(['name', 'module_count', 'active', 'created_at'] as const),
  { additionalProperties: false },
);
export type ScenarioListQuery = Static<typeof ScenarioListQuery>;

export const CreateScenarioBody = Type.Object(
  { name: Name, description: OptionalDescription, ...englishBodyFields },
  { additionalProperties: false },
);
export type CreateScenarioBody = Static<typeof CreateScenarioBody>;

export const UpdateScenarioBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: OptionalDescription,
    ...englishBodyFields,
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateScenarioBody = Static<typeof UpdateScenarioBody>;

// ---- Modules ----

export const ContentModule = Type.Object({
  id: Uuid,
  scenario_id: Uuid,
  name: Type.String(),
  description: Type.String(),
  ...englishFields,
  order_index: Type.Integer(),
  created_at: Timestamp,
});
export type ContentModule = Static<typeof ContentModule>;

export const ModuleList = Type.Object({ modules: Type.Array(ContentModule), ...listPageFields });
export type ModuleList = Static<typeof ModuleList>;

/** `q` matches the name or the description. Default order: order_index, then name. */
export const ModuleListQuery = Type.Object(
  listQueryFields(['order_index', 'name', 'created_at'] as const),
  { additionalProperties: false },
);
export type ModuleListQuery = Static<typeof ModuleListQuery>;

export const CreateModuleBody = Type.Object(
  {
    name: Name,
    description: OptionalDescription,
    ...englishBodyFields,
    /** Defaults to one after the scenario's last module. */
    order_index: Type.Optional(OrderIndex),
  },
  { additionalProperties: false },
);
export type CreateModuleBody = Static<typeof CreateModuleBody>;

export const UpdateModuleBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: OptionalDescription,
    ...englishBodyFields,
    order_index: Type.Optional(OrderIndex),
  },
  { additionalProperties: false },
);
export type UpdateModuleBody = Static<typeof UpdateModuleBody>;

// ---- Levels ----

export const ContentLevel = Type.Object({
  id: Uuid,
  module_id: Uuid,
  name: Type.String(),
  level_number: Type.Integer(),
  description: Type.String(),
  ...englishFields,
  max_tasks: Type.Integer(),
  created_at: Timestamp,
});
export type ContentLevel = Static<typeof ContentLevel>;

export const LevelList = Type.Object({ levels: Type.Array(ContentLevel), ...listPageFields });
export type LevelList = Static<typeof LevelList>;

/** `q` matches the name or the description. Default order: level_number, then name. */
export const LevelListQuery = Type.Object(
  listQueryFields(['level_number', 'name', 'max_tasks', 'created_at'] as const),
  { additionalProperties: false },
);
export type LevelListQuery = Static<typeof LevelListQuery>;

export const CreateLevelBody = Type.Object(
  {
    name: Name,
    level_number: LevelNumber,
    description: OptionalDescription,
    ...englishBodyFields,
    /** Defaults to MAX_TASKS_DEFAULT (3). */
    max_tasks: Type.Optional(MaxTasks),
  },
  { additionalProperties: false },
);
export type CreateLevelBody = Static<typeof CreateLevelBody>;

export const UpdateLevelBody = Type.Object(
  {
    name: Type.Optional(Name),
    level_number: Type.Optional(LevelNumber),
    description: OptionalDescription,
    ...englishBodyFields,
    max_tasks: Type.Optional(MaxTasks),
  },
  { additionalProperties: false },
);
export type UpdateLevelBody = Static<typeof UpdateLevelBody>;

// ---- Level options ----

export const LevelOption = Type.Object({
  id: Uuid,
  level_id: Uuid,
  name: Type.String(),
  description: Type.String(),
  ...englishFields,
  order_index: Type.Integer(),
  created_at: Timestamp,
});
export type LevelOption = Static<typeof LevelOption>;

export const LevelOptionList = Type.Object({
  options: Type.Array(LevelOption),
  ...listPageFields,
});
export type LevelOptionList = Static<typeof LevelOptionList>;

/** `q` matches the name or the description. Default order: order_index, then name. */
export const LevelOptionListQuery = Type.Object(
  listQueryFields(['order_index', 'name', 'created_at'] as const),
  { additionalProperties: false },
);
export type LevelOptionListQuery = Static<typeof LevelOptionListQuery>;

export const CreateLevelOptionBody = Type.Object(
  {
    name: Name,
    description: OptionalDescription,
    ...englishBodyFields,
    order_index: OrderIndex,
  },
  { additionalProperties: false },
);
export type CreateLevelOptionBody = Static<typeof CreateLevelOptionBody>;

export const UpdateLevelOptionBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: OptionalDescription,
    ...englishBodyFields,
    order_index: Type.Optional(OrderIndex),
  },
  { additionalProperties: false },
);
export type UpdateLevelOptionBody = Static<typeof UpdateLevelOptionBody>;

// ---- One scenario with everything under it (admin) ----

export const ContentLevelDetail = Type.Object({
  ...ContentLevel.properties,
  options: Type.Array(LevelOption),
});
export type ContentLevelDetail = Static<typeof ContentLevelDetail>;

export const ContentModuleDetail = Type.Object({
  ...ContentModule.properties,
  levels: Type.Array(ContentLevelDetail),
});
export type ContentModuleDetail = Static<typeof ContentModuleDetail>;

/** GET /v1/admin/scenarios/:id: modules by order_index, levels by level_number, options by order_index. */
export const ScenarioDetail = Type.Object({
  ...ScenarioSummary.properties,
  modules: Type.Array(ContentModuleDetail),
});
export type ScenarioDetail = Static<typeof ScenarioDetail>;

// ---- The client's scenario tree (GET /v1/scenarios-full) ----

export const ScenarioTreeOption = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  ...englishFields,
  order_index: Type.Integer(),
});
export type ScenarioTreeOption = Static<typeof ScenarioTreeOption>;

export const ScenarioTreeLevel = Type.Object({
  id: Uuid,
  name: Type.String(),
  level_number: Type.Integer(),
  description: Type.String(),
  ...englishFields,
  max_tasks: Type.Integer(),
  options: Type.Array(ScenarioTreeOption),
});
export type ScenarioTreeLevel = Static<typeof ScenarioTreeLevel>;

export const ScenarioTreeModule = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  ...englishFields,
  order_index: Type.Integer(),
  levels: Type.Array(ScenarioTreeLevel),
});
export type ScenarioTreeModule = Static<typeof ScenarioTreeModule>;

export const ScenarioTree = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  ...englishFields,
  active: Type.Boolean(),
  /** When the organisation's access ends; null means it never does. */
  access_expires_at: Nullable(Timestamp),
  modules: Type.Array(ScenarioTreeModule),
});
export type ScenarioTree = Static<typeof ScenarioTree>;

export const ScenarioTreeList = Type.Object({ scenarios: Type.Array(ScenarioTree) });
export type ScenarioTreeList = Static<typeof ScenarioTreeList>;
