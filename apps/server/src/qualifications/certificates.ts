import type { Certificate } from '@vrtc/contract';
import type { ServiceContext } from '../platform/service/context.ts';
import { notFound } from '../platform/service/errors.ts';
import { takeAttempt } from '../platform/service/rate-limit.ts';
import { iso, isoOrNull } from '../platform/service/serialize.ts';
import { certificateStatusAt, standingAt } from './derive.ts';
import { pieceRecords, qualificationFacts, recordOf } from './standing.ts';

/** Look-ups per address per minute: a supervisor scans a few; a guesser of codes gets nowhere. */
export const CERTIFICATE_LOOKUPS_PER_MINUTE = 60;

/**
 * A certificate by its code (GET /v1/certificates/:code), for anyone holding it: the award's
 * holder and qualification, valid from its moment until its oldest piece lapses, and its state
 * now, derived from the record as every status is.
 */
export async function certificateByCode(
  ctx: ServiceContext,
  code: string,
  clientAddress: string,
): Promise<Certificate> {
  const now = ctx.clock.now();
  await takeAttempt(ctx.db, now, [
    { key: `certificate:${clientAddress}`, max: CERTIFICATE_LOOKUPS_PER_MINUTE, windowMs: 60_000 },
  ]);
  const award = await ctx.db
    .selectFrom('qualification_awards as w')
    .innerJoin('vr_users as v', 'v.id', 'w.vr_user_id')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select([
      'w.organization_id',
      'w.qualification_id',
      'w.vr_user_id',
      'w.earned_at',
      'v.name as holder_name',
      'o.name as organization_name',
    ])
    .where('w.certificate_code', '=', code)
    .executeTakeFirst();
  if (!award) throw notFound('Certificate');
  const facts = await qualificationFacts(ctx.db, award.organization_id, [award.qualification_id]);
  const qualification = facts.get(award.qualification_id)!;
  const records = await pieceRecords(
    ctx.db,
    award.organization_id,
    [award.vr_user_id],
    [award.qualification_id],
  );
  const record = recordOf(records, award.vr_user_id, award.qualification_id);
  const earnedAt = new Date(award.earned_at);
  return {
    holder_name: award.holder_name,
    qualification_name: qualification.name,
    qualification_name_en: qualification.nameEn,
    organization_name: award.organization_name,
    valid_from: iso(earnedAt),
    valid_until: isoOrNull(standingAt(qualification.requirement, record, earnedAt).validUntil),
    status: certificateStatusAt(qualification.requirement, record, earnedAt, now),
  };
}
