import type { QualificationHistoryEntry, RecordQualification } from '@vrtc/contract';
import { sql } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { iso, isoOrNull } from '../platform/service/serialize.ts';
import { awardsUntil, standingAt, type Award } from './derive.ts';
import {
  awardKey,
  certificateCodes,
  pieceRecords,
  qualificationFacts,
  recordOf,
} from './standing.ts';

/**
 * A trainee's qualifications in their training record (GET /v1/vr-users/:id/record): every one
 * they are assigned, were ever awarded, evaluated for or revoked from, archived ones included,
 * with the status now and the history that explains it.
 */
export async function recordQualifications(
  ctx: ServiceContext,
  caller: Caller,
  vrUserId: string,
): Promise<RecordQualification[]> {
  const now = ctx.clock.now();
  const org = caller.organizationId;
  const ids = await qualificationsOfTrainee(ctx, org, vrUserId);
  const facts = await qualificationFacts(ctx.db, org, ids);
  const records = await pieceRecords(ctx.db, org, [vrUserId], ids);
  const { dueOf, evaluations, revocations } = await handwrittenPieces(ctx, org, vrUserId);
  const derived = [...facts.values()].map((qualification) => {
    const record = recordOf(records, vrUserId, qualification.id);
    return {
      qualification,
      standing: standingAt(qualification.requirement, record, now),
      awards: awardsUntil(qualification.requirement, record, now),
    };
  });
  const codes = await certificateCodes(
    ctx.db,
    org,
    derived.flatMap(({ qualification, awards }) =>
      awards.map((award) => ({
        vrUserId,
        qualificationId: qualification.id,
        earnedAt: award.earnedAt,
      })),
    ),
  );
  const codeOf = (qualificationId: string, earnedAt: Date) =>
    codes.get(awardKey({ vrUserId, qualificationId, earnedAt })) ?? null;
  const of = <Row extends { qualification_id: string }>(rows: Row[], id: string) =>
    rows.filter((row) => row.qualification_id === id);
  return derived
    .filter(
      ({ qualification, awards }) =>
        dueOf.has(qualification.id) ||
        awards.length > 0 ||
        of(evaluations, qualification.id).length > 0 ||
        of(revocations, qualification.id).length > 0,
    )
    .map(({ qualification, standing, awards }) => ({
      qualification_id: qualification.id,
      name: qualification.name,
      name_en: qualification.nameEn,
      archived: qualification.archived,
      assigned: dueOf.has(qualification.id),
      due_at: isoOrNull(dueOf.get(qualification.id) ?? null),
      status: standing.status,
      earned_at: isoOrNull(standing.earnedAt),
      valid_until: isoOrNull(standing.validUntil),
      certificate_code: standing.earnedAt ? codeOf(qualification.id, standing.earnedAt) : null,
      history: historyOf(
        awards.map((award) => ({ ...award, code: codeOf(qualification.id, award.earnedAt) })),
        of(evaluations, qualification.id),
        of(revocations, qualification.id),
      ),
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Qualifications the trainee is assigned, was evaluated for, revoked from, or did a level of. */
async function qualificationsOfTrainee(ctx: ServiceContext, org: string, vrUserId: string) {
  const { rows } = await sql<{ qualification_id: string }>`
    SELECT qualification_id FROM qualification_assignments
      WHERE vr_user_id = ${vrUserId} AND organization_id = ${org}
    UNION SELECT qualification_id FROM qualification_evaluations
      WHERE vr_user_id = ${vrUserId} AND organization_id = ${org}
    UNION SELECT qualification_id FROM qualification_revocations
      WHERE vr_user_id = ${vrUserId} AND organization_id = ${org}
    UNION SELECT DISTINCT ql.qualification_id FROM qualification_levels ql
      JOIN qualifications q ON q.id = ql.qualification_id AND q.organization_id = ${org}
      WHERE ql.level_id IN (SELECT s.level_id FROM sessions s
        WHERE s.vr_user_id = ${vrUserId} AND s.organization_id = ${org} AND s.success IS TRUE)
  `.execute(ctx.db);
  return rows.map((row) => row.qualification_id);
}

/** The trainee's assignments, signed evaluations (pass and fail) and revocations. */
async function handwrittenPieces(ctx: ServiceContext, org: string, vrUserId: string) {
  const [assignments, evaluations, revocations] = await Promise.all([
    ctx.db
      .selectFrom('qualification_assignments')
      .select(['qualification_id', 'due_at'])
      .where('vr_user_id', '=', vrUserId)
      .where('organization_id', '=', org)
      .execute(),
    ctx.db
      .selectFrom('qualification_evaluations')
      .selectAll()
      .where('vr_user_id', '=', vrUserId)
      .where('organization_id', '=', org)
      .execute(),
    ctx.db
      .selectFrom('qualification_revocations')
      .selectAll()
      .where('vr_user_id', '=', vrUserId)
      .where('organization_id', '=', org)
      .execute(),
  ]);
  const dueOf = new Map(assignments.map((row) => [row.qualification_id, row.due_at]));
  return { dueOf, evaluations, revocations };
}

type EvaluationRow = Awaited<ReturnType<typeof handwrittenPieces>>['evaluations'][number];
type RevocationRow = Awaited<ReturnType<typeof handwrittenPieces>>['revocations'][number];

/** Awards, signatures as signed and revocations with their reasons, oldest first. */
function historyOf(
  awards: (Award & { code: string | null })[],
  evaluations: EvaluationRow[],
  revocations: RevocationRow[],
): QualificationHistoryEntry[] {
  return [
    ...awards.map((award) => ({
      ...blankEntry,
      kind: 'award' as const,
      at: iso(award.earnedAt),
      certificate_code: award.code,
      valid_until: isoOrNull(award.validUntil),
    })),
    ...evaluations.map((row) => ({
      ...blankEntry,
      kind: 'evaluation' as const,
      at: iso(new Date(row.signed_at)),
      result: row.result,
      meaning: row.meaning,
      notes: row.notes,
      signer_name: row.signer_name,
      signer_email: row.signer_email,
    })),
    ...revocations.map((row) => ({
      ...blankEntry,
      kind: 'revocation' as const,
      at: iso(new Date(row.revoked_at)),
      reason: row.reason,
      by_email: row.revoked_by_email,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
}

const blankEntry = {
  certificate_code: null,
  valid_until: null,
  result: null,
  meaning: null,
  notes: null,
  signer_name: null,
  signer_email: null,
  reason: null,
  by_email: null,
};
