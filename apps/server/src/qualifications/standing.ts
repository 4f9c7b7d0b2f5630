import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Tx } from '../platform/database/db.ts';
import { endedSql, succeededSql } from '../platform/database/session-outcome.ts';
import type { PieceRecord, Requirement } from './derive.ts';

/**
 * Reads what derive.ts derives from: each qualification's requirement, and each trainee's pieces
 * (completions as the record counts them, signed passes, revocations). Completions are read from
 * the sessions' pinned level ids, so a level renamed or re-revised later still counts what was
 * done under it.
 */

export interface QualificationFacts {
  id: string;
  name: string;
  nameEn: string | null;
  archived: boolean;
  requirement: Requirement;
}

export async function qualificationFacts(
  db: Db | Tx,
  organizationId: string,
  ids: readonly string[] | 'all active',
): Promise<Map<string, QualificationFacts>> {
  if (ids !== 'all active' && ids.length === 0) return new Map();
  let query = db
    .selectFrom('qualifications as q')
    .select([
      'q.id',
      'q.name',
      'q.name_en',
      'q.archived_at',
      'q.validity_days',
      'q.expiring_within_days',
      'q.evaluation_required',
      sql<string[]>`coalesce((SELECT array_agg(ql.level_id::text) FROM qualification_levels ql
        WHERE ql.qualification_id = q.id), '{}')`.as('level_ids'),
    ])
    .where('q.organization_id', '=', organizationId);
  query =
    ids === 'all active'
      ? query.where('q.archived_at', 'is', null)
      : query.where('q.id', 'in', [...ids]);
  const rows = await query.execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        name: row.name,
        nameEn: row.name_en,
        archived: row.archived_at !== null,
        requirement: {
          levelIds: row.level_ids,
          validityDays: row.validity_days,
          expiringWithinDays: row.expiring_within_days,
          evaluationRequired: row.evaluation_required,
        },
      },
    ]),
  );
}

export const pairKey = (vrUserId: string, qualificationId: string) =>
  `${vrUserId}:${qualificationId}`;

const emptyRecord = (): {
  completions: { levelId: string; at: Date }[];
  passes: Date[];
  revocations: Date[];
} => ({ completions: [], passes: [], revocations: [] });

/**
 * The pieces of every pair of these trainees and qualifications. With `upTo`, only each piece's
 * latest occurrence at or before it (all derive.ts needs at that moment, and what keeps a list of
 * many trainees to one row per piece); without, the whole history.
 */
export async function pieceRecords(
  db: Db | Tx,
  organizationId: string,
  vrUserIds: readonly string[],
  qualificationIds: readonly string[],
  upTo?: Date,
): Promise<Map<string, PieceRecord>> {
  const records = new Map<string, ReturnType<typeof emptyRecord>>();
  if (vrUserIds.length === 0 || qualificationIds.length === 0) return records;
  const of = (vrUserId: string, qualificationId: string) => {
    const key = pairKey(vrUserId, qualificationId);
    let record = records.get(key);
    if (!record) records.set(key, (record = emptyRecord()));
    return record;
  };
  // Joined, not `= ANY(array)`: a list's thousands of trainees would be scanned per session row.
  const users = sql`${[...vrUserIds]}::uuid[]`;
  const qualifications = sql`${[...qualificationIds]}::uuid[]`;
  const read = upTo
    ? sql`SELECT kind, vr_user_id, qualification_id, level_id, max(at) AS at
        FROM pieces WHERE at <= ${upTo} GROUP BY kind, vr_user_id, qualification_id, level_id`
    : sql`SELECT * FROM pieces`;
  const { rows } = await sql<{
    kind: 'completion' | 'pass' | 'revocation';
    vr_user_id: string;
    qualification_id: string;
    level_id: string | null;
    at: Date;
  }>`
    WITH pieces AS (
      SELECT 'completion' AS kind, s.vr_user_id, ql.qualification_id, s.level_id, s.ended_at AS at
      FROM sessions s JOIN qualification_levels ql ON ql.level_id = s.level_id
        JOIN unnest(${users}) AS u (id) ON u.id = s.vr_user_id
      WHERE s.organization_id = ${organizationId}
        AND ql.qualification_id = ANY(${qualifications})
        AND ${endedSql('s')} AND ${succeededSql('s')} AND s.ended_at IS NOT NULL
      UNION ALL
      SELECT 'pass', e.vr_user_id, e.qualification_id, NULL, e.signed_at
      FROM qualification_evaluations e
      WHERE e.organization_id = ${organizationId} AND e.vr_user_id = ANY(${users})
        AND e.qualification_id = ANY(${qualifications}) AND e.result = 'pass'
      UNION ALL
      SELECT 'revocation', r.vr_user_id, r.qualification_id, NULL, r.revoked_at
      FROM qualification_revocations r
      WHERE r.organization_id = ${organizationId} AND r.vr_user_id = ANY(${users})
        AND r.qualification_id = ANY(${qualifications})
    )
    ${read}`.execute(db);
  for (const row of rows) {
    const record = of(row.vr_user_id, row.qualification_id);
    const at = new Date(row.at);
    if (row.kind === 'completion') record.completions.push({ levelId: row.level_id!, at });
    else if (row.kind === 'pass') record.passes.push(at);
    else record.revocations.push(at);
  }
  return records;
}

export const recordOf = (
  records: Map<string, PieceRecord>,
  vrUserId: string,
  qualificationId: string,
) => records.get(pairKey(vrUserId, qualificationId)) ?? emptyRecord();

export interface AwardKey {
  vrUserId: string;
  qualificationId: string;
  earnedAt: Date;
}

/** 32 random bytes, base64url: 256 bits, safe in a URL and a QR code. */
export const newCertificateCode = () => crypto.randomBytes(32).toString('base64url');

/**
 * The certificate code of each award, made the first time the award is derived. The award's
 * moment comes from the record; the row only keeps its code the same on every later read, and
 * the unique key makes two readers deriving it at once agree on one code.
 */
export async function certificateCodes(
  db: Db | Tx,
  organizationId: string,
  awards: readonly AwardKey[],
): Promise<Map<string, string>> {
  const codes = new Map<string, string>();
  if (awards.length === 0) return codes;
  const keyOf = (vrUserId: string, qualificationId: string, at: Date) =>
    `${pairKey(vrUserId, qualificationId)}:${at.getTime()}`;
  await db
    .insertInto('qualification_awards')
    .values(
      awards.map((award) => ({
        organization_id: organizationId,
        qualification_id: award.qualificationId,
        vr_user_id: award.vrUserId,
        earned_at: award.earnedAt,
        certificate_code: newCertificateCode(),
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(['qualification_id', 'vr_user_id', 'earned_at']).doNothing(),
    )
    .execute();
  const rows = await db
    .selectFrom('qualification_awards')
    .select(['vr_user_id', 'qualification_id', 'earned_at', 'certificate_code'])
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or(
        awards.map((award) =>
          eb.and([
            eb('vr_user_id', '=', award.vrUserId),
            eb('qualification_id', '=', award.qualificationId),
            eb('earned_at', '=', award.earnedAt),
          ]),
        ),
      ),
    )
    .execute();
  for (const row of rows) {
    codes.set(
      keyOf(row.vr_user_id, row.qualification_id, new Date(row.earned_at)),
      row.certificate_code,
    );
  }
  return new Map(
    awards.map((award) => [
      keyOf(award.vrUserId, award.qualificationId, award.earnedAt),
      codes.get(keyOf(award.vrUserId, award.qualificationId, award.earnedAt))!,
    ]),
  );
}

export const awardKey = (award: AwardKey) =>
  `${pairKey(award.vrUserId, award.qualificationId)}:${award.earnedAt.getTime()}`;
