import type {
  AuditChanges,
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
import { sql, type AliasedRawBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { Caller } from '../auth/caller.ts';
import { changedFields, createdChanges, deletedChanges, recordAudit } from '../audit/audit.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../platform/database/pg-errors.ts';
import {
  containsPattern,
  hasSearch,
  orderBySql,
  pageOf,
  totalColumn,
  totalOf,
  type ListQuery,
  type Page,
} from '../platform/database/paging.ts';
import { iso } from '../platform/service/serialize.ts';
import { levelColumns, loadModuleTrees, moduleColumns, optionColumns } from './content-tree.ts';

/**
 * Scenario content for admins: scenarios → modules → levels → level options. Content is global
 * (not per organisation); who may run a scenario is decided by access grants (access/).
 * Children are created under a parent that must exist (else 404); deleting a parent removes its
 * children through the foreign keys, while sessions keep their copied names.
 *
 * The four kinds are managed the same way, so one piece (`contentKind`) lists, creates, updates
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

type ContentTable = 'scenarios' | 'modules' | 'levels' | 'level_options';

/**
 * The content tables seen through one shape: the kinds differ only in the columns each names,
 * which the kind's declaration (checked against the contract's types) fixes.
 */
type ContentDb = Kysely<Record<ContentTable, Record<string, unknown>>>;
type Row = Record<string, unknown> & { created_at: Date };

interface ContentKindSpec<Key extends string, Field extends string, Create, Update> {
  table: ContentTable;
  /** What the audit log calls it: the target type and the first part of its actions. */
  auditAs: 'scenario' | 'module' | 'level' | 'level_option';
  /** The list answer's field that holds the page's items. */
  listKey: Key;
  /** The item's name in a 404. */
  what: string;
  /** Where a child hangs (none for scenarios): its parent's table, the column pointing there, the parent's name in a 404. */
  parent?: { table: ContentTable; column: 'scenario_id' | 'module_id' | 'level_id'; what: string };
  /** What a call answers of each item. */
  columns: ReadonlyArray<string | AliasedRawBuilder<unknown, string>>;
  sorts: Record<Field, RawBuilder<unknown>>;
  defaultSort: Field;
  /** The row a create writes (the parent's id is added by `contentKind`). */
  values(ctx: ServiceContext, body: Create, parentId: string | undefined): Record<string, unknown>;
  /** The columns an update changes; undefined ones are left as they are. */
  changes(body: Update): Record<string, unknown>;
  /** A write's database error as the contract's answer (a level number already taken). */
  guardWrite?<T>(body: Create | Update, write: () => Promise<T>): Promise<T>;
}

/** Name or description, in either language, contains `q` (case-insensitive). */
function nameOrDescription(table: ContentTable, q: string) {
  const pattern = containsPattern(q);
  const columns = ['name', 'description', 'name_en', 'description_en'].map(
    (column) => sql`${sql.ref(`${table}.${column}`)} ILIKE ${pattern}`,
  );
  return sql<boolean>`(${sql.join(columns, sql` OR `)})`;
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

/** Only the fields a partial update names: absent ones stay as they are. */
const defined = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));

/** List, read, create, update and delete for one kind of content. */
function contentKind<Item, Key extends string, Field extends string, Create, Update>(
  spec: ContentKindSpec<Key, Field, Create, Update>,
) {
  const { table, what, parent, columns } = spec;
  const db = (ctx: { db: Db | Tx }) => ctx.db as unknown as ContentDb;
  const toItem = (row: Row) => ({ ...row, created_at: iso(row.created_at) }) as Item;
  const guard = <T>(body: Create | Update, write: () => Promise<T>) =>
    spec.guardWrite ? spec.guardWrite(body, write) : write();

  const select = (ctx: { db: Db }, id: string) =>
    db(ctx).selectFrom(table).select(columns).where('id', '=', id).executeTakeFirst();

  /** The item as it is, locked for the rest of the transaction: a change's "before". */
  const lockedRow = async (trx: Tx, id: string): Promise<Row> => {
    const row = (await db({ db: trx })
      .selectFrom(table)
      .select(columns)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()) as Row | undefined;
    if (!row) throw notFound(what);
    return row;
  };

  /** Content belongs to no organisation: its events go to the platform's chain. */
  const recordContentAudit = (
    trx: Tx,
    ctx: ServiceContext,
    caller: Caller,
    verb: 'created' | 'updated' | 'deleted',
    row: Row,
    changes: AuditChanges,
  ) =>
    recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: `${spec.auditAs}.${verb}`,
      organizationId: null,
      target: { type: spec.auditAs, id: row.id as string, label: row.name as string },
      changes,
    });

  return {
    /** One page of the items (under `parentId`, which must exist), searched and sorted. */
    async list(
      ctx: ServiceContext,
      query: ListQuery<Field>,
      parentId?: string,
    ): Promise<Record<Key, Item[]> & { total: number } & Page> {
      let matching = db(ctx).selectFrom(table);
      if (parent) {
        const found = await db(ctx)
          .selectFrom(parent.table)
          .select('id')
          .where('id', '=', parentId!)
          .executeTakeFirst();
        if (!found) throw notFound(parent.what);
        matching = matching.where(parent.column, '=', parentId!);
      }
      if (hasSearch(query.q)) matching = matching.where(nameOrDescription(table, query.q));
      const page = pageOf(query);
      const rows = (await matching
        .select([...columns, totalColumn()])
        .orderBy(
          orderBySql(query, spec.sorts, spec.defaultSort, [
            sql.ref(`${table}.created_at`),
            sql.ref(`${table}.id`),
          ]),
        )
        .limit(page.limit)
        .offset(page.offset)
        .execute()) as Array<Row & { total: number }>;
      const items = rows.map(({ total: _total, ...row }) => toItem(row as Row));
      const total = await totalOf(rows, page, matching);
      return { [spec.listKey]: items, total, ...page } as Record<Key, Item[]> & {
        total: number;
      } & Page;
    },

    async get(ctx: { db: Db }, id: string): Promise<Item> {
      const row = await select(ctx, id);
      if (!row) throw notFound(what);
      return toItem(row as Row);
    },

    async create(
      ctx: ServiceContext,
      caller: Caller,
      body: Create,
      parentId?: string,
    ): Promise<Item> {
      const values = {
        ...(parent ? { [parent.column]: parentId } : {}),
        ...defined(spec.values(ctx, body, parentId)),
        created_at: ctx.clock.now(),
      };
      const insert = () =>
        ctx.db.transaction().execute(async (trx) => {
          const row = (await db({ db: trx })
            .insertInto(table)
            .values(values)
            .returning(columns)
            .executeTakeFirstOrThrow()) as Row;
          await recordContentAudit(
            trx,
            ctx,
            caller,
            'created',
            row,
            createdChanges(audited(row, values)),
          );
          return row;
        });
      const row = await guard(body, parent ? () => underParent(parent.what, insert) : insert);
      return toItem(row);
    },

    async update(ctx: ServiceContext, caller: Caller, id: string, body: Update): Promise<Item> {
      const changes = defined(spec.changes(body));
      const row = await guard(body, () =>
        ctx.db.transaction().execute(async (trx) => {
          const before = await lockedRow(trx, id);
          if (Object.keys(changes).length === 0) return before;
          const after = (await db({ db: trx })
            .updateTable(table)
            .set(changes)
            .where('id', '=', id)
            .returning(columns)
            .executeTakeFirstOrThrow()) as Row;
          await recordContentAudit(
            trx,
            ctx,
            caller,
            'updated',
            after,
            changedFields(before, audited(after, changes)),
          );
          return after;
        }),
      );
      return toItem(row);
    },

    async remove(ctx: ServiceContext, caller: Caller, id: string): Promise<void> {
      await ctx.db.transaction().execute(async (trx) => {
        const before = await lockedRow(trx, id);
        await db({ db: trx }).deleteFrom(table).where('id', '=', id).execute();
        await recordContentAudit(
          trx,
          ctx,
          caller,
          'deleted',
          before,
          deletedChanges(audited(before, {}, true)),
        );
      });
    },
  };
}

/**
 * The fields of `row` a write named (`written`'s keys, or with `all` every column but the
 * computed ones), as stored: content is global, so its events go to the platform's chain.
 */
function audited(row: Row, written: Record<string, unknown>, all = false): Record<string, unknown> {
  const fields = all
    ? Object.keys(row).filter((field) => !['id', 'created_at', 'module_count'].includes(field))
    : Object.keys(written).filter((field) => field !== 'created_at' && field in row);
  return Object.fromEntries(fields.map((field) => [field, row[field]]));
}

// ---- The four kinds ----

export const scenarios = contentKind<
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

export const modules = contentKind<
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

export const levels = contentKind<
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

export const levelOptions = contentKind<
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
