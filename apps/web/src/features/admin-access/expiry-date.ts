import dayjs from 'dayjs';

/**
 * Access expiry dates. The admin picks a calendar day; the access lasts until 23:59:59 UTC at the
 * end of that day (specification section 5). Days travel as 'YYYY-MM-DD' strings, the date
 * picker's own value format.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant access ends for the chosen day: 23:59:59 UTC of that day, as an ISO timestamp. */
export function expiryTimestamp(day: string): string {
  const match = DAY.exec(day);
  if (!match) throw new Error(`Not a calendar day: ${day}`);
  const [, year, month, date] = match;
  return new Date(
    Date.UTC(Number(year), Number(month) - 1, Number(date), 23, 59, 59),
  ).toISOString();
}

/** The default expiry: the same day one year from today (28 February after a 29 February). */
export function defaultExpiryDay(now: Date = new Date()): string {
  return dayjs(now).add(1, 'year').format('YYYY-MM-DD');
}

/**
 * The first day that may be chosen: today. Where the local day is behind the UTC day, the UTC day,
 * so that the chosen day's 23:59:59 UTC is never already past.
 */
export function minExpiryDay(now: Date = new Date()): string {
  const local = dayjs(now).format('YYYY-MM-DD');
  const utc = now.toISOString().slice(0, 10);
  return utc > local ? utc : local;
}
