import { describe, expect, it } from 'vitest';
import { defaultExpiryDay, expiryTimestamp, minExpiryDay } from './expiry-date';

describe('access expiry dates', () => {
  it('ends access at 23:59:59 UTC of the chosen day', () => {
    expect(expiryTimestamp('2026-05-10')).toBe('2026-05-10T23:59:59.000Z');
    expect(expiryTimestamp('2026-12-31')).toBe('2026-12-31T23:59:59.000Z');
    expect(expiryTimestamp('2028-02-29')).toBe('2028-02-29T23:59:59.000Z');
  });

  it('refuses anything but a calendar day', () => {
    expect(() => expiryTimestamp('10.05.2026')).toThrow();
    expect(() => expiryTimestamp('')).toThrow();
  });

  it('defaults to the same day one year from today', () => {
    expect(defaultExpiryDay(new Date(2026, 4, 10, 9, 30))).toBe('2027-05-10');
    expect(defaultExpiryDay(new Date(2026, 11, 31, 23, 0))).toBe('2027-12-31');
    // No 29 February next year: the last day of February.
    expect(defaultExpiryDay(new Date(2028, 1, 29, 12, 0))).toBe('2029-02-28');
  });

  it('lets no day before today be chosen, and none whose 23:59:59 UTC is already past', () => {
    const now = new Date();
    const day = minExpiryDay(now);
    const localToday = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    expect(day >= localToday).toBe(true);
    expect(Date.parse(expiryTimestamp(day))).toBeGreaterThan(now.getTime());
    // The default is always selectable.
    expect(defaultExpiryDay(now) > day).toBe(true);
  });
});
