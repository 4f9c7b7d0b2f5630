import i18n from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import '../i18n';
import { formatDuration, formatRelativeTime, progressPercent } from './format';

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
