import { addDays, isoDate, startOfUtcDay } from '@vrtc/contract';

/**
 * The History's quick choices of days: today, the last 7 and 30 days (today included) and this
 * month so far. Days are UTC, as the history's from/to filters count them (the contract's).
 */
export const HISTORY_PRESETS = ['today', '7d', '30d', 'month'] as const;
export type HistoryPreset = (typeof HISTORY_PRESETS)[number];

/** The from/to days (YYYY-MM-DD, both inclusive) a preset sets, as of `now`. */
export function presetRange(preset: HistoryPreset, now: Date = new Date()) {
  const today = startOfUtcDay(now);
  const from = {
    today,
    '7d': addDays(today, -6),
    '30d': addDays(today, -29),
    month: new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)),
  }[preset];
  return { from: isoDate(from), to: isoDate(today) };
}

/**
 * Whether the filters' from/to are the preset's days (shown as chosen). On the first of a month
 * "today" and "this month" are the same days, and both show so.
 */
export function presetMatches(
  preset: HistoryPreset,
  from: string | undefined,
  to: string | undefined,
  now: Date = new Date(),
): boolean {
  const range = presetRange(preset, now);
  return range.from === from && range.to === to;
}
