import { lastDays } from '@vrtc/contract';

/** The periods the statistics screen offers, in days (specification section 9). */
export const STATS_PERIODS = [7, 30, 90, 365] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/** The period shown when the URL names none. */
export const DEFAULT_STATS_PERIOD: StatsPeriod = 30;

/** The URL's `period` parameter: one of STATS_PERIODS in days ("7", "30", …). */
export const PERIOD_PARAM = 'period';
export const isStatsPeriod = (value: string): value is `${StatsPeriod}` =>
  STATS_PERIODS.some((days) => String(days) === value);

/**
 * The last `days` UTC calendar days ending today, both ends inclusive, as the range API wants
 * them: the statistics' one period (lastDays in the contract, which the server counts by too).
 */
export function periodRange(
  days: number,
  now: Date = new Date(),
): { start_date: string; end_date: string } {
  return lastDays(days, now);
}
