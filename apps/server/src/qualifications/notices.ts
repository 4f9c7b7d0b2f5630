import { recordOutbox } from '../outbox/outbox.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import { repeatingJob } from '../platform/ops/job-monitor.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { isoOrNull } from '../platform/service/serialize.ts';
import { awardsUntil, standingAt, type Standing } from './derive.ts';
import {
  awardKey,
  certificateCodes,
  pieceRecords,
  qualificationFacts,
  recordOf,
  type QualificationFacts,
} from './standing.ts';

/**
 * The outgoing events of qualifications (docs/integrations.md): qualification.earned, .expiring,
 * .expired and .revoked, each once per award and state. The notice row and the outbox event are
 * written in one transaction, and the notice's key makes another process, or a later run, write
 * nothing: two nodes deriving the same lapse at once send it once, a restart re-sends nothing.
 */

export type NoticeState = 'earned' | 'expiring' | 'expired' | 'revoked';

export interface Notice {
  organizationId: string;
  vrUser: { id: string; name: string };
  qualification: Pick<QualificationFacts, 'id' | 'name' | 'nameEn'>;
  state: NoticeState;
  /** The award's earned_at; the revocation's moment for revoked. */
  moment: Date;
  standing: Standing;
  certificateCode: string | null;
  reason?: string;
}

/** Writes the notice and its event in `trx` unless it was written before; true when written. */
export async function noticeOnce(trx: Tx, notice: Notice, at: Date): Promise<boolean> {
  const noted = await trx
    .insertInto('qualification_notices')
    .values({
      qualification_id: notice.qualification.id,
      vr_user_id: notice.vrUser.id,
      moment: notice.moment,
      state: notice.state,
      organization_id: notice.organizationId,
      sent_at: at,
    })
    .onConflict((conflict) => conflict.doNothing())
    .returning('state')
    .executeTakeFirst();
  if (!noted) return false;
  await recordOutbox(trx, {
    organizationId: notice.organizationId,
    type: `qualification.${notice.state}`,
    at,
    data: {
      organization_id: notice.organizationId,
      vr_user: notice.vrUser,
      qualification: {
        id: notice.qualification.id,
        name: notice.qualification.name,
        name_en: notice.qualification.nameEn,
      },
      status: notice.state === 'earned' ? notice.standing.status : notice.state,
      earned_at: isoOrNull(notice.standing.earnedAt),
      valid_until: isoOrNull(notice.standing.validUntil),
      certificate_code: notice.certificateCode,
      reason: notice.reason ?? null,
    },
  });
  return true;
}

/** The states a standing tells of: its award (when it is one), and its lapse. */
function statesOf(standing: Standing, isAward: boolean): NoticeState[] {
  const states: NoticeState[] = isAward ? ['earned'] : [];
  if (standing.status === 'expiring') states.push('expiring');
  if (standing.status === 'expired') states.push('expired');
  return states;
}

/**
 * Derives every assigned or awarded trainee's standing now and tells what has not been told:
 * awards made by sessions (which the sessions domain finishes without knowing of qualifications),
 * and lapses as time passes. Answers how many events were written.
 */
export async function checkQualificationNotices(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock.now();
  const pairs = await pairsToWatch(ctx.db);
  let told = 0;
  for (const [organizationId, rows] of groupBy(pairs, (pair) => pair.organization_id)) {
    const qualificationIds = [...new Set(rows.map((row) => row.qualification_id))];
    const facts = await qualificationFacts(ctx.db, organizationId, qualificationIds);
    const records = await pieceRecords(
      ctx.db,
      organizationId,
      [...new Set(rows.map((row) => row.vr_user_id))],
      qualificationIds,
    );
    for (const row of rows) {
      const qualification = facts.get(row.qualification_id);
      if (!qualification || qualification.archived) continue;
      const record = recordOf(records, row.vr_user_id, row.qualification_id);
      const standing = standingAt(qualification.requirement, record, now);
      if (!standing.earnedAt) continue;
      const earnedAt = standing.earnedAt;
      const isAward = awardsUntil(qualification.requirement, record, now).some(
        (award) => award.earnedAt.getTime() === earnedAt.getTime(),
      );
      const states = statesOf(standing, isAward);
      if (states.length === 0) continue;
      const award = { vrUserId: row.vr_user_id, qualificationId: qualification.id, earnedAt };
      const codes = isAward ? await certificateCodes(ctx.db, organizationId, [award]) : new Map();
      told += await ctx.db.transaction().execute(async (trx) => {
        let written = 0;
        for (const state of states) {
          const notice: Notice = {
            organizationId,
            vrUser: { id: row.vr_user_id, name: row.vr_user_name },
            qualification,
            state,
            moment: earnedAt,
            standing,
            certificateCode: codes.get(awardKey(award)) ?? null,
          };
          if (await noticeOnce(trx, notice, now)) written += 1;
        }
        return written;
      });
    }
  }
  return told;
}

/** Assigned trainees of active qualifications, and every trainee ever awarded one. */
function pairsToWatch(db: Db) {
  const assigned = db
    .selectFrom('qualification_assignments as a')
    .innerJoin('vr_users as v', 'v.id', 'a.vr_user_id')
    .select(['a.organization_id', 'a.qualification_id', 'a.vr_user_id', 'v.name as vr_user_name']);
  const awarded = db
    .selectFrom('qualification_awards as w')
    .innerJoin('vr_users as v', 'v.id', 'w.vr_user_id')
    .select(['w.organization_id', 'w.qualification_id', 'w.vr_user_id', 'v.name as vr_user_name']);
  return assigned.union(awarded).execute();
}

function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return groups;
}

const CHECK_EVERY_MS = 5 * 60 * 1000;
const CHECK_FIRST_AFTER_MS = 20_000;

/** Every five minutes in every process: the notices' keys keep each event to one. */
export const startQualificationNotices = repeatingJob<ServiceContext>({
  job: 'qualification_notices',
  everyMs: CHECK_EVERY_MS,
  firstAfterMs: CHECK_FIRST_AFTER_MS,
  run: checkQualificationNotices,
  failureMessage: 'qualification notices failed; retrying in five minutes',
});
