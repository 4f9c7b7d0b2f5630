import type { TFunction } from 'i18next';
import { dateLocale } from '../i18n';

/**
 * Session duration as minutes and seconds ("2 мин 5 с" / "2m 5s"), from an hour on as hours and
 * minutes ("8 ч 30 мин" / "8h 30m": seconds no longer matter and "510 мин" reads badly); em dash
 * when unknown.
 */
export function formatDuration(t: TFunction, totalSeconds: number | null | undefined): string {
  if (totalSeconds === null || totalSeconds === undefined || !Number.isFinite(totalSeconds)) {
    return t('common:none');
  }
  const whole = Math.max(0, Math.floor(totalSeconds));
  if (whole >= 3600) {
    return t('common:time.durationHours', {
      hours: Math.floor(whole / 3600),
      minutes: Math.floor((whole % 3600) / 60),
    });
  }
  return t('common:time.duration', { minutes: Math.floor(whole / 60), seconds: whole % 60 });
}

/** Last seen: never, just now, N minutes ago, N hours ago, then N days ago. */
export function formatRelativeTime(
  t: TFunction,
  iso: string | null | undefined,
  now: Date = new Date(),
): string {
  if (!iso) return t('common:never');
  const elapsedMs = now.getTime() - new Date(iso).getTime();
  const minutes = Math.floor(elapsedMs / 60_000);
  if (minutes < 1) return t('common:time.justNow');
  if (minutes < 60) return t('common:time.minutesAgo', { count: minutes });
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('common:time.hoursAgo', { count: hours });
  return t('common:time.daysAgo', { count: Math.floor(hours / 24) });
}

/*
 * Dates and times: the console's one way to write them, in every list, page, dialog, print view
 * and date field. One format per language, all numbers, so a date is as wide in every row and
 * never wraps: ru "10.05.2026, 14:30", en "10/05/2026, 14:30" (day first, 24-hour clock). Date and
 * time are joined by a no-break space. Nothing else in the console formats a date: a repository
 * check (scripts/checks/one-date-format.test.ts) refuses Intl.DateTimeFormat, toLocale…String,
 * dayjs display formats and literal date-field formats anywhere but here.
 */

/** What the date helpers take: an ISO timestamp or a Date; nothing (null) is written as a dash. */
export type DateValue = string | Date | null | undefined;

export interface DateOptions {
  /**
   * 'UTC' for the calendar days the API counts in UTC (statistics periods, history filters,
   * access expiry): the day shown is that day in every time zone. Otherwise the browser's zone.
   */
  timeZone?: 'UTC';
}

const NO_DATE = '—';
const NO_BREAK_SPACE = '\u00a0';

const DAY: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };
const DAY_MONTH: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit' };
const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A formatter per language, part and zone, made once: lists write hundreds of dates. */
function formatter(language: string, part: Intl.DateTimeFormatOptions, options: DateOptions) {
  const key = `${language}|${JSON.stringify(part)}|${options.timeZone ?? ''}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(dateLocale(language), { ...part, ...options });
    formatters.set(key, format);
  }
  return format;
}

function toDate(value: DateValue): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The day: ru "10.05.2026", en "10/05/2026". */
export function formatDate(value: DateValue, language: string, options: DateOptions = {}): string {
  const date = toDate(value);
  return date ? formatter(language, DAY, options).format(date) : NO_DATE;
}

/** The time of day, 24-hour: "14:30". */
export function formatTime(value: DateValue, language: string, options: DateOptions = {}): string {
  const date = toDate(value);
  return date ? formatter(language, TIME, options).format(date) : NO_DATE;
}

/** Day and time: ru "10.05.2026, 14:30", en "10/05/2026, 14:30" (never wrapped between them). */
export function formatDateTime(
  value: DateValue,
  language: string,
  options: DateOptions = {},
): string {
  const date = toDate(value);
  if (!date) return NO_DATE;
  return `${formatDate(date, language, options)},${NO_BREAK_SPACE}${formatTime(date, language, options)}`;
}

/** Like formatDateTime, but only the time when `value` falls on the same local day as `sameDayAs`. */
export function formatDateTimeShort(
  value: DateValue,
  sameDayAs: DateValue,
  language: string,
): string {
  const date = toDate(value);
  if (!date) return NO_DATE;
  const day = toDate(sameDayAs);
  if (day && day.toDateString() === date.toDateString()) return formatTime(date, language);
  return formatDateTime(date, language);
}

/** Day and month without the year, for a chart's axis: ru "10.05", en "10/05". */
export function formatDayMonth(value: DateValue, language: string, options: DateOptions = {}) {
  const date = toDate(value);
  return date ? formatter(language, DAY_MONTH, options).format(date) : NO_DATE;
}

/** Two days as a period: "01.05.2026 – 31.05.2026" (a narrow screen may wrap at the dash). */
export function formatDateRange(
  from: DateValue,
  to: DateValue,
  language: string,
  options: DateOptions = {},
): string {
  return `${formatDate(from, language, options)} – ${formatDate(to, language, options)}`;
}

/** The browser's time zone (e.g. "Europe/Moscow"): what the local times on a page are in. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The same format for a date field (Mantine's `valueFormat`, dayjs tokens). */
export function dateInputFormat(language: string): string {
  return language === 'en' ? 'DD/MM/YYYY' : 'DD.MM.YYYY';
}

/** Progress percent = completed over max tasks, max treated as 1 when missing (the contract's). */
export { progressPercent } from '@vrtc/contract';

/** A percent figure (0..100) with at most one decimal, in the language's number format. */
export function formatPercent(value: number | null | undefined, language: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  return new Intl.NumberFormat(dateLocale(language), {
    style: 'percent',
    maximumFractionDigits: 1,
  }).format(value / 100);
}
