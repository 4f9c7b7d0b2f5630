import { describe, expect, it } from 'vitest';
import {
  awardsUntil,
  certificateStatusAt,
  DAY_MS,
  standingAt,
  type PieceRecord,
  type Requirement,
} from './derive.ts';

/** The rules of docs/compliance.md, each at its boundary, on a record written by hand. */
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * DAY_MS);
const second = 1000;
const before = (at: Date) => new Date(at.getTime() - second);

const forklift: Requirement = {
  levelIds: ['A', 'B'],
  validityDays: 365,
  expiringWithinDays: 30,
  evaluationRequired: false,
};
const withEvaluation: Requirement = { ...forklift, evaluationRequired: true };
const record = (partial: Partial<PieceRecord>): PieceRecord => ({
  completions: [],
  passes: [],
  revocations: [],
  ...partial,
});
const both = record({
  completions: [
    { levelId: 'A', at: day(0) },
    { levelId: 'B', at: day(10) },
  ],
});

describe('a qualification’s status at a moment', () => {
  it('is not_qualified until every required level is passed', () => {
    expect(standingAt(forklift, record({}), day(5)).status).toBe('not_qualified');
    expect(standingAt(forklift, both, day(5))).toEqual({
      status: 'not_qualified',
      earnedAt: null,
      validUntil: null,
    });
    expect(standingAt(forklift, both, before(day(10))).status).toBe('not_qualified');
    expect(standingAt(forklift, both, day(10))).toEqual({
      status: 'qualified',
      earnedAt: day(10),
      validUntil: day(365),
    });
  });

  it('waits for a signed passing evaluation when one is required', () => {
    expect(standingAt(withEvaluation, both, day(11)).status).toBe('pending_evaluation');
    const evaluated = { ...both, passes: [day(12)] };
    expect(standingAt(withEvaluation, evaluated, day(12))).toEqual({
      status: 'qualified',
      earnedAt: day(12),
      validUntil: day(365),
    });
    // An evaluation alone is not the training.
    expect(standingAt(withEvaluation, record({ passes: [day(1)] }), day(2)).status).toBe(
      'not_qualified',
    );
  });

  it('is expiring from valid_until − expiring_within_days, expired exactly at valid_until', () => {
    const validUntil = day(365);
    const expiringFrom = day(335);
    expect(standingAt(forklift, both, before(expiringFrom)).status).toBe('qualified');
    expect(standingAt(forklift, both, expiringFrom).status).toBe('expiring');
    expect(standingAt(forklift, both, before(validUntil)).status).toBe('expiring');
    expect(standingAt(forklift, both, validUntil)).toEqual({
      status: 'expired',
      earnedAt: day(10),
      validUntil,
    });
  });

  it('never lapses without validity_days', () => {
    const forever = { ...forklift, validityDays: null };
    expect(standingAt(forever, both, day(10_000))).toEqual({
      status: 'qualified',
      earnedAt: day(10),
      validUntil: null,
    });
  });

  it('renews when the oldest piece is redone; redoing the newest moves nothing but earned_at', () => {
    const renewed = record({
      completions: [...both.completions, { levelId: 'A', at: day(300) }],
    });
    expect(standingAt(forklift, renewed, day(300))).toEqual({
      status: 'qualified',
      earnedAt: day(300),
      validUntil: day(375),
    });
    const newestAgain = record({
      completions: [...both.completions, { levelId: 'B', at: day(300) }],
    });
    expect(standingAt(forklift, newestAgain, day(300)).validUntil).toEqual(day(365));
  });

  it('is revoked until new pieces are done, and counts only pieces after the revocation', () => {
    const revoked = { ...both, revocations: [day(20)] };
    expect(standingAt(forklift, revoked, before(day(20))).status).toBe('qualified');
    expect(standingAt(forklift, revoked, day(20))).toEqual({
      status: 'revoked',
      earnedAt: null,
      validUntil: null,
    });
    const retraining = record({
      ...revoked,
      completions: [...both.completions, { levelId: 'A', at: day(25) }],
    });
    expect(standingAt(forklift, retraining, day(25)).status).toBe('not_qualified');
    const retrained = record({
      ...revoked,
      completions: [...retraining.completions, { levelId: 'B', at: day(26) }],
    });
    expect(standingAt(forklift, retrained, day(26))).toEqual({
      status: 'qualified',
      earnedAt: day(26),
      validUntil: day(390),
    });
    // A piece at the very moment of the revocation is not after it.
    const sameMoment = record({
      completions: [
        { levelId: 'A', at: day(20) },
        { levelId: 'B', at: day(20) },
      ],
      revocations: [day(20)],
    });
    expect(standingAt(forklift, sameMoment, day(21)).status).toBe('revoked');
  });

  it('reads the record as it stood at a past moment, and looks ahead to a future one', () => {
    const later = record({
      completions: [
        ...both.completions,
        { levelId: 'A', at: day(350) },
        { levelId: 'B', at: day(360) },
      ],
    });
    // In the past: the renewal of days 350 and 360 had not happened yet.
    expect(standingAt(forklift, later, day(340))).toEqual({
      status: 'expiring',
      earnedAt: day(10),
      validUntil: day(365),
    });
    expect(standingAt(forklift, later, day(355)).validUntil).toEqual(day(375));
    // In the future: nothing more is done, so it lapses on its date (the oldest piece, day 350).
    expect(standingAt(forklift, later, day(600)).status).toBe('qualified');
    expect(standingAt(forklift, later, day(685)).status).toBe('expiring');
    expect(standingAt(forklift, later, before(day(715))).status).toBe('expiring');
    expect(standingAt(forklift, later, day(715)).status).toBe('expired');
  });
});

describe('awards and their certificates', () => {
  it('awards each time the set of pieces becomes complete while still valid', () => {
    const history = record({
      completions: [
        ...both.completions,
        { levelId: 'A', at: day(300) },
        // Complete again only long after A lapsed: B is done, but A of day 300 is too old.
        { levelId: 'B', at: day(700) },
      ],
    });
    expect(awardsUntil(forklift, history, day(800))).toEqual([
      { earnedAt: day(10), validUntil: day(365) },
      { earnedAt: day(300), validUntil: day(375) },
    ]);
    expect(awardsUntil(forklift, history, day(100))).toEqual([
      { earnedAt: day(10), validUntil: day(365) },
    ]);
  });

  it('states each certificate: valid, expiring, expired, superseded, revoked', () => {
    const renewed = record({
      completions: [...both.completions, { levelId: 'A', at: day(300) }],
    });
    expect(certificateStatusAt(forklift, both, day(10), day(11))).toBe('valid');
    expect(certificateStatusAt(forklift, both, day(10), day(340))).toBe('expiring');
    expect(certificateStatusAt(forklift, both, day(10), day(365))).toBe('expired');
    expect(certificateStatusAt(forklift, renewed, day(10), day(301))).toBe('superseded');
    expect(certificateStatusAt(forklift, renewed, day(300), day(301))).toBe('valid');
    const revoked = { ...renewed, revocations: [day(302)] };
    expect(certificateStatusAt(forklift, revoked, day(300), day(303))).toBe('revoked');
  });
});
