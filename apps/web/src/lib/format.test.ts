import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import '../i18n';
import {
  dateInputFormat,
  formatDate,
  formatDateRange,
  formatDateTime,
  formatDateTimeShort,
  formatDayMonth,
  formatDuration,
  formatRelativeTime,
  formatTime,
  progressPercent,
} from './format';

const now = new Date('2026-05-10T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

describe('formatting', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows durations as minutes and seconds', () => {
    expect(formatDuration(i18n.t, 125)).toBe('2m 5s');
    expect(formatDuration(i18n.t, 0)).toBe('0m 0s');
    expect(formatDuration(i18n.t, null)).toBe('—');
  });

  it('shows durations from an hour on as hours and minutes', () => {
    expect(formatDuration(i18n.t, 3599)).toBe('59m 59s');
    expect(formatDuration(i18n.t, 3600)).toBe('1h 0m');
    expect(formatDuration(i18n.t, 510 * 60 + 41)).toBe('8h 30m');
  });

  it('shows last seen as never, just now, minutes, hours, days', () => {
    expect(formatRelativeTime(i18n.t, null, now)).toBe('Never');
    expect(formatRelativeTime(i18n.t, ago(20_000), now)).toBe('just now');
    expect(formatRelativeTime(i18n.t, ago(60_000), now)).toBe('1 minute ago');
    expect(formatRelativeTime(i18n.t, ago(5 * 60_000), now)).toBe('5 minutes ago');
    expect(formatRelativeTime(i18n.t, ago(3 * 3600_000), now)).toBe('3 hours ago');
    expect(formatRelativeTime(i18n.t, ago(49 * 3600_000), now)).toBe('2 days ago');
  });

  it('uses Russian plural forms', async () => {
    await i18n.changeLanguage('ru');
    expect(formatRelativeTime(i18n.t, ago(1 * 60_000), now)).toBe('1 минуту назад');
    expect(formatRelativeTime(i18n.t, ago(3 * 60_000), now)).toBe('3 минуты назад');
    expect(formatRelativeTime(i18n.t, ago(5 * 60_000), now)).toBe('5 минут назад');
    expect(formatRelativeTime(i18n.t, ago(21 * 3600_000), now)).toBe('21 час назад');
    expect(formatDuration(i18n.t, 61)).toBe('1 мин 1 с');
    expect(formatDuration(i18n.t, 510 * 60 + 41)).toBe('8 ч 30 мин');
    await i18n.changeLanguage('en');
  });

  it('computes progress percent with max treated as 1 when missing', () => {
    expect(progressPercent(2, 4)).toBe(50);
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(1, 0)).toBe(100);
    expect(progressPercent(0, null)).toBe(0);
    expect(progressPercent(1, undefined)).toBe(100);
  });
});

describe('dates: one format per language', () => {
  // Local times: the helpers write the browser's zone unless told UTC (the tests run in UTC).
  const at = new Date(2026, 4, 9, 7, 5);
  const NBSP = '\u00a0';

  it('writes days and times in Russian: 09.05.2026, 07:05', () => {
    expect(formatDate(at, 'ru')).toBe('09.05.2026');
    expect(formatTime(at, 'ru')).toBe('07:05');
    expect(formatDateTime(at, 'ru')).toBe(`09.05.2026,${NBSP}07:05`);
    expect(formatDayMonth(at, 'ru')).toBe('09.05');
    expect(dateInputFormat('ru')).toBe('DD.MM.YYYY');
  });

  it('writes days and times in English, day first and on a 24-hour clock: 09/05/2026, 07:05', () => {
    expect(formatDate(at, 'en')).toBe('09/05/2026');
    expect(formatTime(new Date(2026, 4, 9, 19, 45), 'en')).toBe('19:45');
    expect(formatDateTime(at, 'en')).toBe(`09/05/2026,${NBSP}07:05`);
    expect(formatDayMonth(at, 'en')).toBe('09/05');
    expect(dateInputFormat('en')).toBe('DD/MM/YYYY');
  });

  it('takes ISO text or a Date, and writes a dash for none or nonsense', () => {
    expect(formatDate(at.toISOString(), 'ru')).toBe(formatDate(at, 'ru'));
    for (const value of [null, undefined, '', 'not a date']) {
      expect(formatDate(value, 'en')).toBe('—');
      expect(formatDateTime(value, 'ru')).toBe('—');
    }
  });

  it('writes the UTC day of the API when told, in any zone', () => {
    expect(formatDate('2026-12-10T23:59:59.000Z', 'ru', { timeZone: 'UTC' })).toBe('10.12.2026');
    expect(formatDateRange('2026-05-01', '2026-05-31', 'en', { timeZone: 'UTC' })).toBe(
      '01/05/2026 – 31/05/2026',
    );
  });

  it('never breaks a date: no breaking space inside one (a period may wrap between its days)', () => {
    for (const language of ['ru', 'en']) {
      for (const text of [
        formatDate(at, language),
        formatDateTime(at, language),
        formatDateTimeShort(at, new Date(2026, 4, 1), language),
      ]) {
        expect(text).not.toMatch(/[ \t\n]/);
      }
    }
  });

  it('writes only the time of an end on the day the session started', () => {
    const start = new Date(2026, 4, 9, 7, 5);
    expect(formatDateTimeShort(new Date(2026, 4, 9, 7, 35), start, 'ru')).toBe('07:35');
    expect(formatDateTimeShort(new Date(2026, 4, 10, 0, 5), start, 'en')).toBe(
      `10/05/2026,${NBSP}00:05`,
    );
  });
});
