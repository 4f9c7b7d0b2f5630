/**
 * Calendar days in UTC, as the API counts them (statistics periods, history filters, access
 * expiry): one definition for the server, the console and the tools.
 */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight UTC of the day `at` falls on. */
export const startOfUtcDay = (at: Date): Date =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

export const addDays = (at: Date, days: number): Date => new Date(at.getTime() + days * DAY_MS);

/** The UTC day of `at` as YYYY-MM-DD. */
export const isoDate = (at: Date): string => at.toISOString().slice(0, 10);

/** Midnight UTC of a YYYY-MM-DD day. */
export const parseIsoDate = (date: string): Date => new Date(`${date}T00:00:00.000Z`);

/**
 * The statistics' period of `days` days (issue #42): that many whole calendar days in UTC, the
 * last of them today's, both ends inclusive. Every figure "over the last N days" counts the
 * sessions started within it (the global and the organisation statistics, the admin's
 * organisation analytics, their CSV files), so two figures for the same period agree.
 */
export function lastDays(days: number, now: Date): { start_date: string; end_date: string } {
  const today = startOfUtcDay(now);
  return { start_date: isoDate(addDays(today, -(days - 1))), end_date: isoDate(today) };
}
