import crypto from 'node:crypto';
import type {
  LmsExportQuery,
  LmsPackageKey,
  LmsPackageKeyList,
  LmsPackageKeyQuery,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import { createdChanges, recordAudit, updateAudited } from '../audit/audit.ts';
import type { Tx } from '../platform/database/db.ts';
import { countRows, pageOf } from '../platform/database/paging.ts';
import type { LmsPackageKeysTable } from '../platform/database/schema.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { iso, isoOrNull } from '../platform/service/serialize.ts';
import { MASTERY_SCORE, scormPackage } from './scorm-package.ts';

/** A package key: random, shown only inside the zip; the database keeps its hash. */
export const newPackageKey = () => `vrtc_lms_${crypto.randomBytes(24).toString('base64url')}`;
export const keyHash = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

interface ExportTarget {
  levelId: string | null;
  qualificationId: string | null;
  title: { ru: string; en: string | null };
}

/** The level (of a scenario the organisation may run) or the qualification (of the organisation). */
async function targetOf(trx: Tx, caller: Caller, query: LmsExportQuery): Promise<ExportTarget> {
  if (Boolean(query.level_id) === Boolean(query.qualification_id)) {
    throw new AppError(
      'validation_error',
      'querystring needs exactly one of level_id and qualification_id',
    );
  }
  if (query.level_id) {
    const level = await trx
      .selectFrom('levels as l')
      .innerJoin('modules as m', 'm.id', 'l.module_id')
      .innerJoin('scenario_access as a', (join) =>
        join
          .onRef('a.scenario_id', '=', 'm.scenario_id')
          .on('a.organization_id', '=', caller.organizationId),
      )
      .select(['l.id', 'l.name', 'l.name_en'])
      .where('l.id', '=', query.level_id)
      .executeTakeFirst();
    if (!level) throw notFound('Level');
    return {
      levelId: level.id,
      qualificationId: null,
      title: { ru: level.name, en: level.name_en },
    };
  }
  const qualification = await trx
    .selectFrom('qualifications')
    .select(['id', 'name', 'name_en'])
    .where('id', '=', query.qualification_id!)
    .where('organization_id', '=', caller.organizationId)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (!qualification) throw notFound('Qualification');
  return {
    levelId: null,
    qualificationId: qualification.id,
    title: { ru: qualification.name, en: qualification.name_en },
  };
}

/**
 * Exports a SCORM package: a new key bound to the organisation and the level or qualification,
 * stored as its hash with the export's audit event, and the zip carrying it.
 */
export async function exportPackage(
  ctx: ServiceContext,
  caller: Caller,
  query: LmsExportQuery,
  consoleUrl: string,
): Promise<{ fileName: string; body: Buffer }> {
  const now = ctx.clock.now();
  const key = newPackageKey();
  const { row, target } = await ctx.db.transaction().execute(async (trx) => {
    const target = await targetOf(trx, caller, query);
    const row = await trx
      .insertInto('lms_package_keys')
      .values({
        organization_id: caller.organizationId,
        level_id: target.levelId,
        qualification_id: target.qualificationId,
        key_hash: keyHash(key),
        scorm_version: query.scorm_version,
        title: target.title.ru,
        created_by_email: caller.email,
        created_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'lms_package.exported',
      target: { type: 'lms_package', id: row.id, label: row.title },
      changes: createdChanges({
        scorm_version: row.scorm_version,
        level_id: row.level_id,
        qualification_id: row.qualification_id,
      }),
    });
    return { row, target };
  });
  const body = scormPackage({
    version: query.scorm_version,
    id: row.id,
    title: target.title,
    masteryScore: MASTERY_SCORE,
    consoleUrl,
    packageKey: key,
    defaultLanguage: 'ru',
  });
  const slug = query.scorm_version === '1.2' ? 'scorm12' : 'scorm2004';
  return { fileName: `${target.title.en ?? target.title.ru}-${slug}.zip`, body: Buffer.from(body) };
}

interface KeyRow {
  id: string;
  scorm_version: LmsPackageKeysTable['scorm_version'];
  title: string;
  level_id: string | null;
  qualification_id: string | null;
  created_by_email: string | null;
  created_at: Date;
  revoked_at: Date | null;
  launch_count: number;
}

function toPackageKey(row: KeyRow): LmsPackageKey {
  return {
    id: row.id,
    scorm_version: row.scorm_version,
    title: row.title,
    level_id: row.level_id,
    qualification_id: row.qualification_id,
    created_by_email: row.created_by_email,
    created_at: iso(row.created_at),
    revoked_at: isoOrNull(row.revoked_at),
    launch_count: row.launch_count,
  };
}

const KEY_COLUMNS = [
  'k.id',
  'k.scorm_version',
  'k.title',
  'k.level_id',
  'k.qualification_id',
  'k.created_by_email',
  'k.created_at',
  'k.revoked_at',
] as const;

const launchCount = sql<number>`(SELECT count(*)::int FROM lms_launches x WHERE x.package_key_id = k.id)`;

export async function listPackageKeys(
  ctx: ServiceContext,
  caller: Caller,
  query: LmsPackageKeyQuery,
): Promise<LmsPackageKeyList> {
  const page = pageOf(query);
  const base = ctx.db
    .selectFrom('lms_package_keys as k')
    .where('k.organization_id', '=', caller.organizationId);
  const total = await countRows(base);
  const rows = await base
    .select([...KEY_COLUMNS, launchCount.as('launch_count')])
    .orderBy('k.created_at', 'desc')
    .orderBy('k.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { package_keys: rows.map(toPackageKey), total, ...page };
}

/** Revokes a key: the next launch with it is refused; a second revoke changes nothing. */
export async function revokePackageKey(
  ctx: ServiceContext,
  caller: Caller,
  id: string,
): Promise<LmsPackageKey> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    const key = await trx
      .selectFrom('lms_package_keys')
      .select(['id', 'title', 'revoked_at'])
      .where('id', '=', id)
      .where('organization_id', '=', caller.organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!key) throw notFound('Package key');
    if (key.revoked_at) return;
    await updateAudited(trx, {
      table: 'lms_package_keys',
      id,
      set: { revoked_at: now },
      record: {
        by: caller,
        at: now,
        action: 'lms_package.revoked',
        target: { type: 'lms_package', id, label: key.title },
      },
    });
  });
  const row = await ctx.db
    .selectFrom('lms_package_keys as k')
    .select([...KEY_COLUMNS, launchCount.as('launch_count')])
    .where('k.id', '=', id)
    .executeTakeFirstOrThrow();
  return toPackageKey(row);
}
