import { DAY_MS } from '@vrtc/contract';

/** The periods the statistics screen offers, in days (specification section 9). */
export const STATS_PERIODS = [7, 30, 90, 365] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/** The period shown when the URL names none. */
export const DEFAULT_STATS_PERIOD: StatsPeriod = 30;

/** The URL's `period` parameter: one of STATS_PERIODS in days ("7", "30", …). */
export const PERIOD_PARAM = 'period';
export const isStatsPeriod = (value: string): value is `${StatsPeriod}` =>
  STATS_PERIODS.some((days) => String(days) === value);

/** The last `days` UTC days ending today, both ends inclusive, as the range API wants them. */
export function periodRange(
  days: number,
  now: Date = new Date(),
): { start_date: string; end_date: string } {
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const start = new Date(end.getTime() - (days - 1) * DAY_MS);
  return { start_date: start.toISOString().slice(0, 10), end_date: end.toISOString().slice(0, 10) };
}
