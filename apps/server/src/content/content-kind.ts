import type { AuditChanges } from '@vrtc/contract';
import { sql, type AliasedRawBuilder, type Kysely, type RawBuilder } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import { changedFields, createdChanges, deletedChanges, recordAudit } from '../audit/audit.ts';
import type { Db, Tx } from '../platform/database/db.ts';
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
import { isForeignKeyViolation } from '../platform/database/pg-errors.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { notFound } from '../platform/service/errors.ts';
import { iso } from '../platform/service/serialize.ts';

export type ContentTable = 'scenarios' | 'modules' | 'levels' | 'level_options';

/**
 * The content tables seen through one shape: the kinds differ only in the columns each names,
 * which the kind's declaration (checked against the contract's types) fixes.
 */
type ContentDb = Kysely<Record<ContentTable, Record<string, unknown>>>;
type Row = Record<string, unknown> & { created_at: Date };

export interface ContentKindSpec<Key extends string, Field extends string, Create, Update> {
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
  /** The row a create writes (the parent's id is added by ContentKind). */
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

/**
 * List, read, create, update and delete for one kind of content: `spec` says its table, parent,
 * columns, sort keys and how a request body becomes a row.
 */
export class ContentKind<Item, Key extends string, Field extends string, Create, Update> {
  constructor(private readonly spec: ContentKindSpec<Key, Field, Create, Update>) {}

  /** One page of the items (under `parentId`, which must exist), searched and sorted. */
  async list(
    ctx: ServiceContext,
    query: ListQuery<Field>,
    parentId?: string,
  ): Promise<Record<Key, Item[]> & { total: number } & Page> {
    const { table, parent, columns } = this.spec;
    let matching = contentDb(ctx).selectFrom(table);
    if (parent) {
      const found = await contentDb(ctx)
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
        orderBySql(query, this.spec.sorts, this.spec.defaultSort, [
          sql.ref(`${table}.created_at`),
          sql.ref(`${table}.id`),
        ]),
      )
      .limit(page.limit)
      .offset(page.offset)
      .execute()) as Array<Row & { total: number }>;
    const items = rows.map(({ total: _total, ...row }) => this.toItem(row as Row));
    const total = await totalOf(rows, page, matching);
    return { [this.spec.listKey]: items, total, ...page } as Record<Key, Item[]> & {
      total: number;
    } & Page;
  }

  async get(ctx: { db: Db }, id: string): Promise<Item> {
    const row = await contentDb(ctx)
      .selectFrom(this.spec.table)
      .select(this.spec.columns)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(this.spec.what);
    return this.toItem(row as Row);
  }

  async create(
    ctx: ServiceContext,
    caller: Caller,
    body: Create,
    parentId?: string,
  ): Promise<Item> {
    const { parent } = this.spec;
    const values = {
      ...(parent ? { [parent.column]: parentId } : {}),
      ...defined(this.spec.values(ctx, body, parentId)),
      created_at: ctx.clock.now(),
    };
    const insert = () =>
      ctx.db.transaction().execute(async (trx) => {
        const row = (await contentDb({ db: trx })
          .insertInto(this.spec.table)
          .values(values)
          .returning(this.spec.columns)
          .executeTakeFirstOrThrow()) as Row;
        const changes = createdChanges(audited(row, values));
        await this.recordAudit(trx, ctx, caller, 'created', row, changes);
        return row;
      });
    const row = await this.guard(body, parent ? () => underParent(parent.what, insert) : insert);
    return this.toItem(row);
  }

  async update(ctx: ServiceContext, caller: Caller, id: string, body: Update): Promise<Item> {
    const changes = defined(this.spec.changes(body));
    const row = await this.guard(body, () =>
      ctx.db.transaction().execute(async (trx) => {
        const before = await this.lockedRow(trx, id);
        if (Object.keys(changes).length === 0) return before;
        const after = (await contentDb({ db: trx })
          .updateTable(this.spec.table)
          .set(changes)
          .where('id', '=', id)
          .returning(this.spec.columns)
          .executeTakeFirstOrThrow()) as Row;
        const changed = changedFields(before, audited(after, changes));
        await this.recordAudit(trx, ctx, caller, 'updated', after, changed);
        return after;
      }),
    );
    return this.toItem(row);
  }

  async remove(ctx: ServiceContext, caller: Caller, id: string): Promise<void> {
    await ctx.db.transaction().execute(async (trx) => {
      const before = await this.lockedRow(trx, id);
      await contentDb({ db: trx }).deleteFrom(this.spec.table).where('id', '=', id).execute();
      const changes = deletedChanges(audited(before, {}, true));
      await this.recordAudit(trx, ctx, caller, 'deleted', before, changes);
    });
  }

  private toItem(row: Row): Item {
    return { ...row, created_at: iso(row.created_at) } as Item;
  }

  private guard<T>(body: Create | Update, write: () => Promise<T>): Promise<T> {
    return this.spec.guardWrite ? this.spec.guardWrite(body, write) : write();
  }

  /** The item as it is, locked for the rest of the transaction: a change's "before". */
  private async lockedRow(trx: Tx, id: string): Promise<Row> {
    const row = (await contentDb({ db: trx })
      .selectFrom(this.spec.table)
      .select(this.spec.columns)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst()) as Row | undefined;
    if (!row) throw notFound(this.spec.what);
    return row;
  }

  /** Content belongs to no organisation: its events go to the platform's chain. */
  private recordAudit(
    trx: Tx,
    ctx: ServiceContext,
    caller: Caller,
    verb: 'created' | 'updated' | 'deleted',
    row: Row,
    changes: AuditChanges,
  ) {
    return recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: `${this.spec.auditAs}.${verb}`,
      organizationId: null,
      target: {
        type: this.spec.auditAs,
        id: row.id as string,
        label: row.name as string,
        labelEn: (row.name_en as string | null | undefined) ?? null,
      },
      changes,
    });
  }
}

/** The content tables as one shape (ContentDb), on the context's database or transaction. */
const contentDb = (ctx: { db: Db | Tx }) => ctx.db as unknown as ContentDb;

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
