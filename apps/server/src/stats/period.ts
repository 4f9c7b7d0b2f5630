import {
  DAY_MS,
  addDays,
  isoDate,
  lastDays,
  parseIsoDate,
  STATS_EXPORT_DEFAULT_DAYS,
  STATS_RANGE_MAX_DAYS,
} from '@vrtc/contract';
import { AppError } from '../platform/service/errors.ts';

/**
 * The one definition of a statistics period on the server (issue #42): whole calendar days in
 * UTC, both ends inclusive, a session counted on the UTC day it started. "The last N days" is N
 * such days ending today (lastDays in the contract, which the console uses too). The global
 * statistics, the organisation's statistics, the admin's organisation analytics and their CSV
 * files all count the sessions started within [from, to) of a DayRange made here, so two figures
 * for the same period count the same sessions.
 */
export interface DayRange {
  startDate: string;
  endDate: string;
  /** Midnight UTC of the first day. */
  from: Date;
  /** Midnight UTC after the last day (exclusive). */
  to: Date;
}

/** Dates outside these bounds are refused: nobody needs them, and they keep timestamps sane. */
const MIN_DATE = '1970-01-01';
const MAX_DATE = '2999-12-31';

/** The UTC days start_date..end_date (inclusive), checked: 400 for a range the API refuses. */
export function dayRange(startDate: string, endDate: string): DayRange {
  for (const [field, value] of [
    ['start_date', startDate],
    ['end_date', endDate],
  ] as const) {
    if (value < MIN_DATE || value > MAX_DATE) {
      throw new AppError(
        'validation_error',
        `querystring.${field} must be between ${MIN_DATE} and ${MAX_DATE}`,
      );
    }
  }
  const from = parseIsoDate(startDate);
  const to = addDays(parseIsoDate(endDate), 1);
  if (from >= to) {
    throw new AppError('validation_error', 'querystring.start_date must not be after end_date');
  }
  const days = Math.round((to.getTime() - from.getTime()) / DAY_MS);
  if (days > STATS_RANGE_MAX_DAYS) {
    throw new AppError(
      'validation_error',
      `querystring.end_date: the range may cover at most ${STATS_RANGE_MAX_DAYS} days (it covers ${days})`,
    );
  }
  return { startDate, endDate, from, to };
}

/** The last `days` UTC calendar days, today's the last of them. */
export function lastDaysRange(now: Date, days: number): DayRange {
  const { start_date, end_date } = lastDays(days, now);
  return dayRange(start_date, end_date);
}

/**
 * The range an export writes, and the organisation's statistics show: the one asked, its dates
 * defaulting to the last 30 days ending
 * today (UTC); a start after today alone is a range of that one day.
 */
export function exportDayRange(
  now: Date,
  query: { start_date?: string; end_date?: string },
): DayRange {
  const today = isoDate(now);
  const endDate =
    query.end_date ?? (query.start_date && query.start_date > today ? query.start_date : today);
  const startDate =
    query.start_date ?? isoDate(addDays(parseIsoDate(endDate), -(STATS_EXPORT_DEFAULT_DAYS - 1)));
  return dayRange(startDate, endDate);
}
