import type { Tx } from '../platform/database/db.ts';
import { DAY_MS, isHeld, standingAt } from './derive.ts';
import { pieceRecords, qualificationFacts, recordOf } from './standing.ts';

/**
 * What the daily digest tells an organisation's staff (docs/compliance.md): the trainees whose
 * assignment became expiring, expired or overdue within a window (from, to], each derived from
 * the record as the compliance view derives it. The moment a row became so is known from its
 * standing: expiring at valid_until − expiring_within_days, expired at valid_until, overdue at
 * due_at; so a row is told once, in the window that holds that moment, whenever the job runs.
 */

export type DigestKind = 'expiring' | 'expired' | 'overdue';
export const DIGEST_KINDS: readonly DigestKind[] = ['expiring', 'expired', 'overdue'];

export interface DigestEntry {
  kind: DigestKind;
  vrUserName: string;
  qualificationName: string;
  qualificationNameEn: string | null;
  /** valid_until for expiring and expired, due_at for overdue. */
  at: Date;
}

async function assignedPairs(trx: Tx, organizationId: string) {
  return trx
    .selectFrom('qualification_assignments as a')
    .innerJoin('qualifications as q', 'q.id', 'a.qualification_id')
    .innerJoin('vr_users as v', 'v.id', 'a.vr_user_id')
    .select(['a.vr_user_id', 'a.qualification_id', 'a.due_at', 'v.name as vr_user_name'])
    .where('a.organization_id', '=', organizationId)
    .where('q.archived_at', 'is', null)
    .execute();
}

/** The entries of one organisation's digest for the window (from, to], by trainee's name. */
export async function digestEntries(
  trx: Tx,
  organizationId: string,
  from: Date,
  to: Date,
): Promise<DigestEntry[]> {
  const pairs = await assignedPairs(trx, organizationId);
  if (pairs.length === 0) return [];
  const qualificationIds = [...new Set(pairs.map((pair) => pair.qualification_id))];
  const facts = await qualificationFacts(trx, organizationId, qualificationIds);
  const records = await pieceRecords(
    trx,
    organizationId,
    [...new Set(pairs.map((pair) => pair.vr_user_id))],
    qualificationIds,
    to,
  );
  const within = (at: Date | null): at is Date => at !== null && at > from && at <= to;
  const entries: DigestEntry[] = [];
  for (const pair of pairs) {
    const qualification = facts.get(pair.qualification_id)!;
    const requirement = qualification.requirement;
    const standing = standingAt(
      requirement,
      recordOf(records, pair.vr_user_id, pair.qualification_id),
      to,
    );
    const entry = (kind: DigestKind, at: Date) =>
      entries.push({
        kind,
        vrUserName: pair.vr_user_name,
        qualificationName: qualification.name,
        qualificationNameEn: qualification.nameEn,
        at,
      });
    const validUntil = standing.validUntil;
    if (standing.status === 'expired' && within(validUntil)) entry('expired', validUntil);
    if (standing.status === 'expiring' && validUntil) {
      const expiringFrom = new Date(validUntil.getTime() - requirement.expiringWithinDays * DAY_MS);
      if (within(expiringFrom)) entry('expiring', validUntil);
    }
    if (!isHeld(standing.status) && within(pair.due_at)) entry('overdue', pair.due_at);
  }
  return entries.sort(
    (a, b) =>
      a.vrUserName.localeCompare(b.vrUserName) ||
      a.qualificationName.localeCompare(b.qualificationName),
  );
}
