import { describe, expect, it } from 'vitest';
import { accessExpiryState, daysUntil, EXPIRING_SOON_DAYS, formatExpiryDay } from './expiry';

const now = new Date('2026-05-10T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

describe('access expiry state', () => {
  it('is never without an expiry date', () => {
    expect(accessExpiryState(null, now)).toBe('never');
    expect(accessExpiryState(undefined, now)).toBe('never');
  });

  it('is expired once the date is past, including the very instant', () => {
    expect(accessExpiryState(at(-DAY), now)).toBe('expired');
    expect(accessExpiryState(at(-1), now)).toBe('expired');
    expect(accessExpiryState(at(0), now)).toBe('expired');
  });

  it('is expiring from just after now up to and including 30 days', () => {
    expect(EXPIRING_SOON_DAYS).toBe(30);
    expect(accessExpiryState(at(1), now)).toBe('expiring');
    expect(accessExpiryState(at(29 * DAY), now)).toBe('expiring');
    expect(accessExpiryState(at(30 * DAY), now)).toBe('expiring');
  });

  it('is active beyond 30 days', () => {
    expect(accessExpiryState(at(30 * DAY + 1), now)).toBe('active');
    expect(accessExpiryState(at(365 * DAY), now)).toBe('active');
  });

  it('accepts Date objects too', () => {
    expect(accessExpiryState(new Date(now.getTime() + 31 * DAY), now)).toBe('active');
  });

  it('counts whole days left, rounding up', () => {
    expect(daysUntil(at(DAY / 2), now)).toBe(1);
    expect(daysUntil(at(30 * DAY), now)).toBe(30);
    expect(daysUntil(at(-DAY), now)).toBe(0);
  });
});

describe('the day an access ends', () => {
  it('is the UTC day of the expiry, in either language', () => {
    // 23:59:59 UTC is already the next morning in Moscow: still the 10th.
    expect(formatExpiryDay('2026-12-10T23:59:59.000Z', 'ru')).toBe('10.12.2026');
    expect(formatExpiryDay('2026-12-10T23:59:59.000Z', 'en')).toBe('10/12/2026');
    expect(formatExpiryDay('2026-12-10T00:00:00.000Z', 'ru')).toBe('10.12.2026');
  });
});
