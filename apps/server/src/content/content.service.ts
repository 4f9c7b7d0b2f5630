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
  ScenarioDetail,
  ScenarioList,
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
import type { Db } from '../platform/database/db.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../platform/database/pg-errors.ts';
import {
  containsPattern,
  hasSearch,
  orderBySql,
  pageOf,
  totalColumn,
  totalOf,
} from '../platform/database/paging.ts';
import { iso } from '../platform/service/serialize.ts';
import { levelColumns, loadModuleTrees, moduleColumns, optionColumns } from './content-tree.ts';

/**
 * Scenario content for admins: scenarios → modules → levels → level options. Content is global
 * (not per organisation); who may run a scenario is decided by access grants (access/).
 * Children are created under a parent that must exist (else 404); deleting a parent removes its
 * children through the foreign keys, while sessions keep their copied names.
 */

/** Trimmed free text; absent, null or blank is stored as ''. */
const text = (value: string | null | undefined): string => value?.trim() ?? '';

/** Optional English text: absent stays absent (an update leaves it), null or blank is removed. */
const englishText = (value: string | null | undefined) =>
  value === undefined ? undefined : value?.trim() || null;

/** The English name and description of a request body, as they are stored. */
const english = (body: { name_en?: string | null; description_en?: string | null }) => ({
  name_en: englishText(body.name_en),
  description_en: englishText(body.description_en),
});

/** Only the fields a partial update names: absent ones stay as they are. */
function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}

/** A child whose parent vanished (or never existed) is the parent's 404. */
async function underParent<T>(what: string, insert: () => Promise<T>): Promise<T> {
  try {
    return await insert();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw notFound(what);
    throw error;
  }
}

// ---- Scenarios ----

const moduleCountSql = sql<number>`(SELECT count(*)::int FROM modules m WHERE m.scenario_id = s.id)`;

function selectScenarios(db: Db) {
  return db
    .selectFrom('scenarios as s')
    .select([
      's.id',
      's.name',
      's.description',
      's.name_en',
      's.description_en',
      's.active',
      's.created_at',
      moduleCountSql.as('module_count'),
    ]);
}

/** Name or description, in either language, contains `q` (case-insensitive). */
function nameOrDescription(alias: string, q: string) {
  const pattern = containsPattern(q);
  const columns = ['name', 'description', 'name_en', 'description_en'].map(
    (column) => sql`${sql.ref(`${alias}.${column}`)} ILIKE ${pattern}`,
  );
  return sql<boolean>`(${sql.join(columns, sql` OR `)})`;
}

function toScenario(row: {
  id: string;
  name: string;
  description: string;
  name_en: string | null;
  description_en: string | null;
  active: boolean;
  created_at: Date;
  module_count: number;
}): ScenarioSummary {
  return { ...row, created_at: iso(row.created_at) };
}

export async function listScenarios(
  ctx: ServiceContext,
  query: ScenarioListQuery,
): Promise<ScenarioList> {
  const page = pageOf(query);
  let matching = ctx.db.selectFrom('scenarios as s');
  if (hasSearch(query.q)) matching = matching.where(nameOrDescription('s', query.q));
  const rows = await matching
    .select([
      's.id',
      's.name',
      's.description',
      's.name_en',
      's.description_en',
      's.active',
      's.created_at',
      moduleCountSql.as('module_count'),
      totalColumn(),
    ])
    .orderBy(
      orderBySql(
        query,
        {
          name: sql`lower(s.name)`,
          module_count: sql`module_count`,
          active: sql`s.active`,
          created_at: sql`s.created_at`,
        },
        'name',
        [sql`s.created_at`, sql`s.id`],
      ),
    )
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return {
    scenarios: rows.map(toScenario),
    total: await totalOf(rows, page, matching),
    ...page,
  };
}

async function getScenarioSummary(db: Db, id: string): Promise<ScenarioSummary> {
  const row = await selectScenarios(db).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Scenario');
  return toScenario(row);
}

export async function getScenario(ctx: ServiceContext, id: string): Promise<ScenarioDetail> {
  const scenario = await getScenarioSummary(ctx.db, id);
  const modules = (await loadModuleTrees(ctx.db, [id])).get(id) ?? [];
  return { ...scenario, modules };
}

export async function createScenario(
  ctx: ServiceContext,
  body: CreateScenarioBody,
): Promise<ScenarioSummary> {
  const row = await ctx.db
    .insertInto('scenarios')
    .values({
      name: body.name.trim(),
      description: text(body.description),
      ...english(body),
      created_at: ctx.clock.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toScenario({ ...row, module_count: 0 });
}

export async function updateScenario(
  ctx: ServiceContext,
  id: string,
  body: UpdateScenarioBody,
): Promise<ScenarioSummary> {
  const changes = defined({
    name: body.name?.trim(),
    description: body.description === undefined ? undefined : text(body.description),
    ...english(body),
    active: body.active,
  });
  if (Object.keys(changes).length > 0) {
    const result = await ctx.db
      .updateTable('scenarios')
      .set(changes)
      .where('id', '=', id)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw notFound('Scenario');
  }
  return getScenarioSummary(ctx.db, id);
}

export async function deleteScenario(ctx: ServiceContext, id: string): Promise<void> {
  const result = await ctx.db.deleteFrom('scenarios').where('id', '=', id).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('Scenario');
}

// ---- Modules ----

const toModule = (row: ContentModuleRow): ContentModule => ({
  ...row,
  created_at: iso(row.created_at),
});
type ContentModuleRow = Omit<ContentModule, 'created_at'> & { created_at: Date };

export async function listModules(
  ctx: ServiceContext,
  scenarioId: string,
  query: ModuleListQuery,
): Promise<ModuleList> {
  await getScenarioSummary(ctx.db, scenarioId);
  const page = pageOf(query);
  let matching = ctx.db.selectFrom('modules').where('scenario_id', '=', scenarioId);
  if (hasSearch(query.q)) matching = matching.where(nameOrDescription('modules', query.q));
  const rows = await matching
    .select([...moduleColumns, totalColumn()])
    .orderBy(
      orderBySql(
        query,
        { order_index: sql`order_index`, name: sql`lower(name)`, created_at: sql`created_at` },
        'order_index',
        [sql`created_at`, sql`id`],
      ),
    )
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { modules: rows.map(toModule), total: await totalOf(rows, page, matching), ...page };
}

export async function createModule(
  ctx: ServiceContext,
  scenarioId: string,
  body: CreateModuleBody,
): Promise<ContentModule> {
  const row = await underParent('Scenario', () =>
    ctx.db
      .insertInto('modules')
      .values({
        scenario_id: scenarioId,
        name: body.name.trim(),
        description: text(body.description),
        ...english(body),
        // Next after the scenario's last module, decided in the same statement.
        order_index:
          body.order_index ??
          sql<number>`(SELECT coalesce(max(order_index) + 1, 0) FROM modules WHERE scenario_id = ${scenarioId})`,
        created_at: ctx.clock.now(),
      })
      .returning(moduleColumns)
      .executeTakeFirstOrThrow(),
  );
  return toModule(row);
}

export async function updateModule(
  ctx: ServiceContext,
  id: string,
  body: UpdateModuleBody,
): Promise<ContentModule> {
  const changes = defined({
    name: body.name?.trim(),
    description: body.description === undefined ? undefined : text(body.description),
    ...english(body),
    order_index: body.order_index,
  });
  const row =
    Object.keys(changes).length > 0
      ? await ctx.db
          .updateTable('modules')
          .set(changes)
          .where('id', '=', id)
          .returning(moduleColumns)
          .executeTakeFirst()
      : await ctx.db
          .selectFrom('modules')
          .select(moduleColumns)
          .where('id', '=', id)
          .executeTakeFirst();
  if (!row) throw notFound('Module');
  return toModule(row);
}

export async function deleteModule(ctx: ServiceContext, id: string): Promise<void> {
  const result = await ctx.db.deleteFrom('modules').where('id', '=', id).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('Module');
}

// ---- Levels ----

type ContentLevelRow = Omit<ContentLevel, 'created_at'> & { created_at: Date };
const toLevel = (row: ContentLevelRow): ContentLevel => ({
  ...row,
  created_at: iso(row.created_at),
});

export async function listLevels(
  ctx: ServiceContext,
  moduleId: string,
  query: LevelListQuery,
): Promise<LevelList> {
  const parent = await ctx.db
    .selectFrom('modules')
    .select('id')
    .where('id', '=', moduleId)
    .executeTakeFirst();
  if (!parent) throw notFound('Module');
  const page = pageOf(query);
  let matching = ctx.db.selectFrom('levels').where('module_id', '=', moduleId);
  if (hasSearch(query.q)) matching = matching.where(nameOrDescription('levels', query.q));
  const rows = await matching
    .select([...levelColumns, totalColumn()])
    .orderBy(
      orderBySql(
        query,
        {
          level_number: sql`level_number`,
          name: sql`lower(name)`,
          max_tasks: sql`max_tasks`,
          created_at: sql`created_at`,
        },
        'level_number',
        [sql`created_at`, sql`id`],
      ),
    )
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { levels: rows.map(toLevel), total: await totalOf(rows, page, matching), ...page };
}

export async function createLevel(
  ctx: ServiceContext,
  moduleId: string,
  body: CreateLevelBody,
): Promise<ContentLevel> {
  const row = await numberFree(body.level_number, () =>
    underParent('Module', () =>
      ctx.db
        .insertInto('levels')
        .values({
          module_id: moduleId,
          name: body.name.trim(),
          level_number: body.level_number,
          description: text(body.description),
          ...english(body),
          max_tasks: body.max_tasks ?? MAX_TASKS_DEFAULT,
          created_at: ctx.clock.now(),
        })
        .returning(levelColumns)
        .executeTakeFirstOrThrow(),
    ),
  );
  return toLevel(row);
}

/** A level number is unique within its module (levels_module_number_key): a clash is a 409. */
async function numberFree<T>(levelNumber: number | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, 'levels_module_number_key')) {
      throw new AppError(
        'level_number_taken',
        `Level number ${levelNumber} is already used in this module`,
        { details: { level_number: levelNumber ?? null } },
      );
    }
    throw error;
  }
}

export async function updateLevel(
  ctx: ServiceContext,
  id: string,
  body: UpdateLevelBody,
): Promise<ContentLevel> {
  const changes = defined({
    name: body.name?.trim(),
    level_number: body.level_number,
    description: body.description === undefined ? undefined : text(body.description),
    ...english(body),
    max_tasks: body.max_tasks,
  });
  const row =
    Object.keys(changes).length > 0
      ? await numberFree(body.level_number, () =>
          ctx.db
            .updateTable('levels')
            .set(changes)
            .where('id', '=', id)
            .returning(levelColumns)
            .executeTakeFirst(),
        )
      : await ctx.db
          .selectFrom('levels')
          .select(levelColumns)
          .where('id', '=', id)
          .executeTakeFirst();
  if (!row) throw notFound('Level');
  return toLevel(row);
}

export async function deleteLevel(ctx: ServiceContext, id: string): Promise<void> {
  const result = await ctx.db.deleteFrom('levels').where('id', '=', id).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('Level');
}

// ---- Level options ----

type LevelOptionRow = Omit<LevelOption, 'created_at'> & { created_at: Date };
const toOption = (row: LevelOptionRow): LevelOption => ({
  ...row,
  created_at: iso(row.created_at),
});

export async function listLevelOptions(
  ctx: ServiceContext,
  levelId: string,
  query: LevelOptionListQuery,
): Promise<LevelOptionList> {
  const parent = await ctx.db
    .selectFrom('levels')
    .select('id')
    .where('id', '=', levelId)
    .executeTakeFirst();
  if (!parent) throw notFound('Level');
  const page = pageOf(query);
  let matching = ctx.db.selectFrom('level_options').where('level_id', '=', levelId);
  if (hasSearch(query.q)) matching = matching.where(nameOrDescription('level_options', query.q));
  const rows = await matching
    .select([...optionColumns, totalColumn()])
    .orderBy(
      orderBySql(
        query,
        { order_index: sql`order_index`, name: sql`lower(name)`, created_at: sql`created_at` },
        'order_index',
        [sql`created_at`, sql`id`],
      ),
    )
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { options: rows.map(toOption), total: await totalOf(rows, page, matching), ...page };
}

export async function createLevelOption(
  ctx: ServiceContext,
  levelId: string,
  body: CreateLevelOptionBody,
): Promise<LevelOption> {
  const row = await underParent('Level', () =>
    ctx.db
      .insertInto('level_options')
      .values({
        level_id: levelId,
        name: body.name.trim(),
        description: text(body.description),
        ...english(body),
        order_index: body.order_index,
        created_at: ctx.clock.now(),
      })
      .returning(optionColumns)
      .executeTakeFirstOrThrow(),
  );
  return toOption(row);
}

export async function updateLevelOption(
  ctx: ServiceContext,
  id: string,
  body: UpdateLevelOptionBody,
): Promise<LevelOption> {
  const changes = defined({
    name: body.name?.trim(),
    description: body.description === undefined ? undefined : text(body.description),
    ...english(body),
    order_index: body.order_index,
  });
  const row =
    Object.keys(changes).length > 0
      ? await ctx.db
          .updateTable('level_options')
          .set(changes)
          .where('id', '=', id)
          .returning(optionColumns)
          .executeTakeFirst()
      : await ctx.db
          .selectFrom('level_options')
          .select(optionColumns)
          .where('id', '=', id)
          .executeTakeFirst();
  if (!row) throw notFound('Level option');
  return toOption(row);
}

export async function deleteLevelOption(ctx: ServiceContext, id: string): Promise<void> {
  const result = await ctx.db.deleteFrom('level_options').where('id', '=', id).executeTakeFirst();
  if (result.numDeletedRows === 0n) throw notFound('Level option');
}
