import type { CertificateStatus, QualificationStatus } from '@vrtc/contract';

/**
 * A trainee's standing in a qualification at a moment T, derived from the record alone
 * (docs/compliance.md). Pure: the same record and moment always give the same answer, so every
 * status can be explained line by line, and a past or future `as_of` is only another T.
 *
 * - A piece is a required level, done by a session of it that ended with success (the record's
 *   completion), or the evaluation, done by a signed evaluation with result pass.
 * - Only pieces done after the latest revocation at or before T count; each piece counts by its
 *   latest occurrence at or before T.
 * - not_qualified while a level has no counting completion; else pending_evaluation while the
 *   evaluation is required and has none; else valid_until = the oldest counting piece +
 *   validity_days (none when null): expired when valid_until ≤ T, expiring when
 *   valid_until − expiring_within_days ≤ T, otherwise qualified. A revocation followed by no
 *   counting piece shows revoked.
 * - earned_at is the moment the current set of pieces became complete: its newest piece. Each
 *   piece lapses on its own, so redoing the oldest one renews.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface Requirement {
  levelIds: readonly string[];
  validityDays: number | null;
  expiringWithinDays: number;
  evaluationRequired: boolean;
}

/** What the record holds for one trainee and one qualification (any order, any moments). */
export interface PieceRecord {
  /** Sessions of a required level that ended with success, at their end. */
  completions: readonly { levelId: string; at: Date }[];
  /** Signed evaluations with result pass, at their signature. */
  passes: readonly Date[];
  revocations: readonly Date[];
}

export interface Standing {
  status: QualificationStatus;
  earnedAt: Date | null;
  validUntil: Date | null;
}

const latest = (moments: Iterable<Date>, counts: (at: Date) => boolean): Date | null => {
  let found: Date | null = null;
  for (const at of moments) if (counts(at) && (!found || at > found)) found = at;
  return found;
};

export function standingAt(requirement: Requirement, record: PieceRecord, t: Date): Standing {
  const revokedAt = latest(record.revocations, (at) => at <= t);
  const counts = (at: Date) => at <= t && (!revokedAt || at > revokedAt);
  const levelPieces = requirement.levelIds.map((levelId) =>
    latest(
      record.completions.filter((completion) => completion.levelId === levelId).map((c) => c.at),
      counts,
    ),
  );
  const evaluation = requirement.evaluationRequired ? latest(record.passes, counts) : null;
  const none: Standing = { status: 'not_qualified', earnedAt: null, validUntil: null };
  if (revokedAt && levelPieces.every((at) => !at) && !evaluation) {
    return { ...none, status: 'revoked' };
  }
  if (levelPieces.some((at) => !at)) return none;
  if (requirement.evaluationRequired && !evaluation)
    return { ...none, status: 'pending_evaluation' };
  const pieces = [...(levelPieces as Date[]), ...(evaluation ? [evaluation] : [])];
  const times = pieces.map((at) => at.getTime());
  const earnedAt = new Date(Math.max(...times));
  if (requirement.validityDays === null) return { status: 'qualified', earnedAt, validUntil: null };
  const validUntil = new Date(Math.min(...times) + requirement.validityDays * DAY_MS);
  const expiringFrom = validUntil.getTime() - requirement.expiringWithinDays * DAY_MS;
  const status: QualificationStatus =
    validUntil <= t ? 'expired' : expiringFrom <= t.getTime() ? 'expiring' : 'qualified';
  return { status, earnedAt, validUntil };
}

/** Held at that moment: a certificate of it is valid or expiring. */
export const isHeld = (status: QualificationStatus) =>
  status === 'qualified' || status === 'expiring';

export interface Award {
  /** The moment the set of pieces became complete (its newest piece). */
  earnedAt: Date;
  /** As awarded: its oldest piece + validity_days. */
  validUntil: Date | null;
}

/**
 * Every award up to T: each moment a piece was done that completed a set still valid then. A
 * set complete only after it had lapsed (its oldest piece too old) is no award.
 */
export function awardsUntil(requirement: Requirement, record: PieceRecord, t: Date): Award[] {
  const moments = [...record.completions.map((c) => c.at), ...record.passes]
    .filter((at) => at <= t)
    .sort((a, b) => a.getTime() - b.getTime());
  const awards: Award[] = [];
  for (const at of moments) {
    const standing = standingAt(requirement, record, at);
    if (!isHeld(standing.status) || standing.earnedAt?.getTime() !== at.getTime()) continue;
    if (awards.at(-1)?.earnedAt.getTime() === at.getTime()) continue;
    awards.push({ earnedAt: at, validUntil: standing.validUntil });
  }
  return awards;
}

/**
 * One award's certificate at T: revoked when a revocation came after it, superseded when a later
 * award replaced it, else the standing's own (valid, expiring, expired).
 */
export function certificateStatusAt(
  requirement: Requirement,
  record: PieceRecord,
  award: Date,
  t: Date,
): CertificateStatus {
  if (record.revocations.some((at) => at > award && at <= t)) return 'revoked';
  const standing = standingAt(requirement, record, t);
  if (standing.earnedAt && standing.earnedAt.getTime() > award.getTime()) return 'superseded';
  if (standing.status === 'expired') return 'expired';
  return standing.status === 'expiring' ? 'expiring' : 'valid';
}
