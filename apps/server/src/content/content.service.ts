import type {
  ContentLevel,
  ContentModule,
  CreateLevelBody,
  CreateLevelOptionBody,
  CreateModuleBody,
  CreateScenarioBody,
  LevelListQuery,
  LevelOption,
  LevelOptionListQuery,
  ModuleListQuery,
  ScenarioDetail,
  ScenarioListQuery,
  ScenarioSummary,
  UpdateLevelBody,
  UpdateLevelOptionBody,
  UpdateModuleBody,
  UpdateScenarioBody,
} from '@vrtc/contract';
import { MAX_TASKS_DEFAULT } from '@vrtc/contract';
import { sql } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError } from '../platform/service/errors.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import { ContentKind } from './content-kind.ts';
import { levelColumns, loadModuleTrees, moduleColumns, optionColumns } from './content-tree.ts';

/**
 * Scenario content for admins: scenarios → modules → levels → level options. Content is global
 * (not per organisation); who may run a scenario is decided by access grants (access/).
 * Children are created under a parent that must exist (else 404); deleting a parent removes its
 * children through the foreign keys, while sessions keep their copied names.
 *
 * The four kinds are managed the same way, so one piece (`ContentKind`, content-kind.ts) lists, creates, updates
 * and deletes all of them; each kind says only its table, parent, columns, sort keys and how a
 * request body becomes a row.
 */

/** Trimmed free text; absent, null or blank is stored as ''. */
const text = (value: string | null | undefined): string => value?.trim() ?? '';

/** Optional English text: absent stays absent (an update leaves it), null or blank is removed. */
const englishText = (value: string | null | undefined) =>
  value === undefined ? undefined : value?.trim() || null;

/** What every kind is named and described by, in both languages. */
interface Described {
  name?: string;
  description?: string | null;
  name_en?: string | null;
  description_en?: string | null;
}

/** The name and descriptions of a create body, as they are stored. */
const describedValues = (body: Described & { name: string }) => ({
  name: body.name.trim(),
  description: text(body.description),
  name_en: englishText(body.name_en),
  description_en: englishText(body.description_en),
});

/** The name and descriptions an update body names (absent ones stay as they are). */
const describedChanges = (body: Described) => ({
  name: body.name?.trim(),
  description: body.description === undefined ? undefined : text(body.description),
  name_en: englishText(body.name_en),
  description_en: englishText(body.description_en),
});

// ---- The four kinds ----

export const scenarios = new ContentKind<
  ScenarioSummary,
  'scenarios',
  NonNullable<ScenarioListQuery['sort']>,
  CreateScenarioBody,
  UpdateScenarioBody
>({
  table: 'scenarios',
  auditAs: 'scenario',
  listKey: 'scenarios',
  what: 'Scenario',
  columns: [
    'id',
    'name',
    'description',
    'name_en',
    'description_en',
    'active',
    'created_at',
    sql<number>`(SELECT count(*)::int FROM modules m WHERE m.scenario_id = scenarios.id)`.as(
      'module_count',
    ),
  ],
  sorts: {
    name: sql`lower(scenarios.name)`,
    module_count: sql`module_count`,
    active: sql`scenarios.active`,
    created_at: sql`scenarios.created_at`,
  },
  defaultSort: 'name',
  values: (_ctx, body) => describedValues(body),
  changes: (body) => ({ ...describedChanges(body), active: body.active }),
});

export const modules = new ContentKind<
  ContentModule,
  'modules',
  NonNullable<ModuleListQuery['sort']>,
  CreateModuleBody,
  UpdateModuleBody
>({
  table: 'modules',
  auditAs: 'module',
  listKey: 'modules',
  what: 'Module',
  parent: { table: 'scenarios', column: 'scenario_id', what: 'Scenario' },
  columns: moduleColumns,
  sorts: { order_index: sql`order_index`, name: sql`lower(name)`, created_at: sql`created_at` },
  defaultSort: 'order_index',
  values: (_ctx, body, scenarioId) => ({
    ...describedValues(body),
    // Next after the scenario's last module, decided in the same statement.
    order_index:
      body.order_index ??
      sql<number>`(SELECT coalesce(max(order_index) + 1, 0) FROM modules WHERE scenario_id = ${scenarioId})`,
  }),
  changes: (body) => ({ ...describedChanges(body), order_index: body.order_index }),
});

/** A level number is unique within its module (levels_module_number_key): a clash is a 409. */
async function numberFree<T>(body: { level_number?: number }, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'levels_module_number_key')) {
      throw new AppError(
        'level_number_taken',
        `Level number ${body.level_number} is already used in this module`,
        { details: { level_number: body.level_number ?? null } },
      );
    }
    throw error;
  }
}

export const levels = new ContentKind<
  ContentLevel,
  'levels',
  NonNullable<LevelListQuery['sort']>,
  CreateLevelBody,
  UpdateLevelBody
>({
  table: 'levels',
  auditAs: 'level',
  listKey: 'levels',
  what: 'Level',
  parent: { table: 'modules', column: 'module_id', what: 'Module' },
  columns: levelColumns,
  sorts: {
    level_number: sql`level_number`,
    name: sql`lower(name)`,
    max_tasks: sql`max_tasks`,
    created_at: sql`created_at`,
  },
  defaultSort: 'level_number',
  values: (_ctx, body) => ({
    ...describedValues(body),
    level_number: body.level_number,
    max_tasks: body.max_tasks ?? MAX_TASKS_DEFAULT,
  }),
  changes: (body) => ({
    ...describedChanges(body),
    level_number: body.level_number,
    max_tasks: body.max_tasks,
  }),
  guardWrite: numberFree,
});

export const levelOptions = new ContentKind<
  LevelOption,
  'options',
  NonNullable<LevelOptionListQuery['sort']>,
  CreateLevelOptionBody,
  UpdateLevelOptionBody
>({
  table: 'level_options',
  auditAs: 'level_option',
  listKey: 'options',
  what: 'Level option',
  parent: { table: 'levels', column: 'level_id', what: 'Level' },
  columns: optionColumns,
  sorts: { order_index: sql`order_index`, name: sql`lower(name)`, created_at: sql`created_at` },
  defaultSort: 'order_index',
  values: (_ctx, body) => ({ ...describedValues(body), order_index: body.order_index }),
  changes: (body) => ({ ...describedChanges(body), order_index: body.order_index }),
});

/** A scenario with its whole tree of modules, levels and options. */
export async function getScenario(ctx: ServiceContext, id: string): Promise<ScenarioDetail> {
  const scenario = await scenarios.get(ctx, id);
  const modules = (await loadModuleTrees(ctx.db, [id])).get(id) ?? [];
  return { ...scenario, modules };
}
