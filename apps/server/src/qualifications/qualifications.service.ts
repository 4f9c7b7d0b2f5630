import {
  EXPIRING_WITHIN_DAYS_DEFAULT,
  type AssignmentBody,
  type AssignmentResult,
  type Qualification,
  type QualificationBody,
  type QualificationList,
  type QualificationListQuery,
  type QualificationUpdateBody,
  type QUALIFICATION_SORT_FIELDS,
} from '@vrtc/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import { changedFields, createdChanges, recordAudit, updateAudited } from '../audit/audit.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import { containsPattern, hasSearch, orderBySql, pageOf } from '../platform/database/paging.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { iso, isoOrNull, textOrNull } from '../platform/service/serialize.ts';

/**
 * Qualifications an organisation's staff define (docs/compliance.md) and their assignments to
 * VR users. Nothing here stores a status: that is derived from the record (derive.ts).
 */

type SortField = (typeof QUALIFICATION_SORT_FIELDS)[number];
const SORT_COLUMNS: Record<SortField, RawBuilder<unknown>> = {
  name: sql`lower(q.name)`,
  validity_days: sql`q.validity_days`,
  created_at: sql`q.created_at`,
};

interface QualificationRow {
  id: string;
  name: string;
  name_en: string | null;
  description: string | null;
  validity_days: number | null;
  expiring_within_days: number;
  evaluation_required: boolean;
  created_at: Date;
  updated_at: Date;
  level_ids: string[];
  assigned_count: number;
}

const toQualification = (row: QualificationRow): Qualification => ({
  id: row.id,
  name: row.name,
  name_en: row.name_en,
  description: row.description,
  level_ids: [...row.level_ids].sort(),
  validity_days: row.validity_days,
  expiring_within_days: row.expiring_within_days,
  evaluation_required: row.evaluation_required,
  assigned_count: Number(row.assigned_count),
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

const QUALIFICATION_COLUMNS = sql<QualificationRow>`q.id, q.name, q.name_en, q.description,
  q.validity_days, q.expiring_within_days, q.evaluation_required, q.created_at, q.updated_at,
  coalesce((SELECT array_agg(ql.level_id::text) FROM qualification_levels ql
    WHERE ql.qualification_id = q.id), '{}') AS level_ids,
  (SELECT count(*)::int FROM qualification_assignments qa
    WHERE qa.qualification_id = q.id) AS assigned_count`;

export async function listQualifications(
  ctx: ServiceContext,
  caller: Caller,
  query: QualificationListQuery,
): Promise<QualificationList> {
  const page = pageOf(query);
  const search = hasSearch(query.q) ? sql`AND q.name ILIKE ${containsPattern(query.q)}` : sql``;
  const where = sql`q.organization_id = ${caller.organizationId} AND q.archived_at IS NULL ${search}`;
  const { rows: counted } = await sql<{ total: number }>`
    SELECT count(*)::int AS total FROM qualifications q WHERE ${where}`.execute(ctx.db);
  const order = orderBySql(query, SORT_COLUMNS, 'name', [sql`q.id`]);
  const { rows } = await sql<QualificationRow>`SELECT ${QUALIFICATION_COLUMNS}
    FROM qualifications q WHERE ${where}
    ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`.execute(ctx.db);
  return { qualifications: rows.map(toQualification), total: counted[0]?.total ?? 0, ...page };
}

export async function getQualification(
  db: Db | Tx,
  caller: Caller,
  id: string,
): Promise<Qualification> {
  const { rows } = await sql<QualificationRow>`SELECT ${QUALIFICATION_COLUMNS}
    FROM qualifications q
    WHERE q.id = ${id} AND q.organization_id = ${caller.organizationId}
      AND q.archived_at IS NULL`.execute(db);
  if (!rows[0]) throw notFound('Qualification');
  return toQualification(rows[0]);
}

/** Every level given exists and belongs to a scenario the organisation holds a live grant for. */
async function checkLevels(trx: Tx, caller: Caller, levelIds: readonly string[], now: Date) {
  const available = await trx
    .selectFrom('levels as l')
    .innerJoin('modules as m', 'm.id', 'l.module_id')
    .innerJoin('scenario_access as a', (join) =>
      join
        .onRef('a.scenario_id', '=', 'm.scenario_id')
        .on('a.organization_id', '=', caller.organizationId),
    )
    .select('l.id')
    .where('l.id', 'in', [...levelIds])
    .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', now)]))
    .execute();
  const found = new Set(available.map((row) => row.id));
  const missing = levelIds.find((id) => !found.has(id));
  if (missing) {
    throw new AppError('level_not_available', 'This organisation cannot use one of the levels', {
      details: { field: 'body.level_ids', level_id: missing },
    });
  }
}

async function setLevels(trx: Tx, qualificationId: string, levelIds: readonly string[]) {
  await trx
    .deleteFrom('qualification_levels')
    .where('qualification_id', '=', qualificationId)
    .execute();
  await trx
    .insertInto('qualification_levels')
    .values(levelIds.map((level_id) => ({ qualification_id: qualificationId, level_id })))
    .execute();
}

export async function createQualification(
  ctx: ServiceContext,
  caller: Caller,
  body: QualificationBody,
): Promise<Qualification> {
  const now = ctx.clock.now();
  const id = await ctx.db.transaction().execute(async (trx) => {
    await checkLevels(trx, caller, body.level_ids, now);
    const values = {
      name: body.name.trim(),
      name_en: textOrNull(body.name_en),
      description: textOrNull(body.description),
      validity_days: body.validity_days ?? null,
      expiring_within_days: body.expiring_within_days ?? EXPIRING_WITHIN_DAYS_DEFAULT,
      evaluation_required: body.evaluation_required ?? false,
    };
    const created = await trx
      .insertInto('qualifications')
      .values({
        ...values,
        organization_id: caller.organizationId,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setLevels(trx, created.id, body.level_ids);
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'qualification.created',
      target: {
        type: 'qualification',
        id: created.id,
        label: values.name,
        labelEn: values.name_en,
      },
      changes: createdChanges({ ...values, level_ids: [...body.level_ids].sort() }),
    });
    return created.id;
  });
  return getQualification(ctx.db, caller, id);
}

export async function updateQualification(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  body: QualificationUpdateBody,
): Promise<Qualification> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await getQualification(trx, caller, id);
    if (body.level_ids) await checkLevels(trx, caller, body.level_ids, now);
    const set = {
      name: body.name?.trim(),
      name_en: body.name_en !== undefined ? textOrNull(body.name_en) : undefined,
      description: body.description !== undefined ? textOrNull(body.description) : undefined,
      validity_days: body.validity_days,
      expiring_within_days: body.expiring_within_days,
      evaluation_required: body.evaluation_required,
    };
    await trx
      .updateTable('qualifications')
      .set({ ...set, updated_at: now })
      .where('id', '=', id)
      .execute();
    if (body.level_ids) await setLevels(trx, id, body.level_ids);
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'qualification.updated',
      target: {
        type: 'qualification',
        id,
        label: set.name ?? before.name,
        labelEn: set.name_en !== undefined ? set.name_en : before.name_en,
      },
      changes: changedFields(before, {
        ...set,
        level_ids: body.level_ids ? [...body.level_ids].sort() : undefined,
      }),
    });
  });
  return getQualification(ctx.db, caller, id);
}

/** Archives: out of the lists and the compliance view, still in every record that showed it. */
export async function archiveQualification(ctx: ServiceContext, caller: Caller, id: string) {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const before = await getQualification(trx, caller, id);
    await updateAudited(trx, {
      table: 'qualifications',
      id,
      set: { archived_at: now },
      record: {
        by: caller,
        at: now,
        action: 'qualification.archived',
        target: { type: 'qualification', id, label: before.name, labelEn: before.name_en },
      },
    });
  });
}

export async function assign(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  body: AssignmentBody,
): Promise<AssignmentResult> {
  const now = ctx.clock.now();
  const dueAt = body.due_at ? new Date(body.due_at) : null;
  return ctx.db.transaction().execute(async (trx) => {
    const qualification = await getQualification(trx, caller, id);
    const found = await trx
      .selectFrom('vr_users')
      .select('id')
      .where('organization_id', '=', caller.organizationId)
      .where('id', 'in', body.vr_user_ids)
      .execute();
    if (found.length !== body.vr_user_ids.length) throw notFound('VR user');
    await trx
      .insertInto('qualification_assignments')
      .values(
        body.vr_user_ids.map((vrUserId) => ({
          qualification_id: id,
          vr_user_id: vrUserId,
          organization_id: caller.organizationId,
          due_at: dueAt,
          assigned_at: now,
        })),
      )
      .onConflict((conflict) =>
        conflict.columns(['qualification_id', 'vr_user_id']).doUpdateSet({ due_at: dueAt }),
      )
      .execute();
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'qualification.assigned',
      target: {
        type: 'qualification',
        id,
        label: qualification.name,
        labelEn: qualification.name_en,
      },
      changes: { vr_user_ids: [null, body.vr_user_ids], due_at: [null, isoOrNull(dueAt)] },
    });
    return { qualification_id: id, vr_user_ids: body.vr_user_ids, due_at: isoOrNull(dueAt) };
  });
}

export async function unassign(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
  vrUserId: string,
): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const qualification = await getQualification(trx, caller, id);
    const removed = await trx
      .deleteFrom('qualification_assignments')
      .where('qualification_id', '=', id)
      .where('vr_user_id', '=', vrUserId)
      .where('organization_id', '=', caller.organizationId)
      .returning(['due_at'])
      .executeTakeFirst();
    if (!removed) throw notFound('Assignment');
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'qualification.unassigned',
      target: {
        type: 'qualification',
        id,
        label: qualification.name,
        labelEn: qualification.name_en,
      },
      changes: { vr_user_id: [vrUserId, null], due_at: [isoOrNull(removed.due_at), null] },
    });
  });
}
