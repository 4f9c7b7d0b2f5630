import type { TFunction } from 'i18next';
import { dateLocale } from '../i18n';

/** Session duration as minutes and seconds ("2 мин 5 с" / "2m 5s"); em dash when unknown. */
export function formatDuration(t: TFunction, totalSeconds: number | null | undefined): string {
  if (totalSeconds === null || totalSeconds === undefined || !Number.isFinite(totalSeconds)) {
    return t('common:none');
  }
  const whole = Math.max(0, Math.floor(totalSeconds));
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

export function formatDateTime(iso: string | null | undefined, language: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(dateLocale(language), {
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(new Date(iso));
}

/** Like formatDateTime, but only the time when `iso` falls on the same local day as `sameDayAs`. */
export function formatDateTimeShort(
  iso: string | null | undefined,
  sameDayAs: string | null | undefined,
  language: string,
): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (sameDayAs && new Date(sameDayAs).toDateString() === date.toDateString()) {
    return new Intl.DateTimeFormat(dateLocale(language), { timeStyle: 'short' }).format(date);
  }
  return formatDateTime(iso, language);
}

export function formatDate(iso: string | null | undefined, language: string): string {
  if (!iso) return '—';
  return new Intl.DateTimeFormat(dateLocale(language), { dateStyle: 'medium' }).format(
    new Date(iso),
  );
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
