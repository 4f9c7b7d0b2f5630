import { describe, expect, it } from 'vitest';
import { HISTORY_PRESETS, presetMatches, presetRange } from './history-presets';

describe('history date presets', () => {
  const now = new Date('2026-03-15T10:30:00Z');

  it('sets from/to to UTC days ending today, both inclusive', () => {
    expect(presetRange('today', now)).toEqual({ from: '2026-03-15', to: '2026-03-15' });
    expect(presetRange('7d', now)).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(presetRange('30d', now)).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(presetRange('month', now)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
  });

  it('counts the UTC day, not the browser\u2019s: 23:30 UTC is still that day', () => {
    const late = new Date('2026-12-31T23:30:00Z');
    expect(presetRange('today', late)).toEqual({ from: '2026-12-31', to: '2026-12-31' });
    expect(presetRange('month', late)).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(presetRange('30d', new Date('2026-01-05T00:00:00Z'))).toEqual({
      from: '2025-12-07',
      to: '2026-01-05',
    });
  });

  it('knows the preset the filters are, and none for other days', () => {
    const matching = (from?: string, to?: string) =>
      HISTORY_PRESETS.filter((preset) => presetMatches(preset, from, to, now));
    expect(matching('2026-03-09', '2026-03-15')).toEqual(['7d']);
    expect(matching('2026-03-01', '2026-03-15')).toEqual(['month']);
    expect(matching('2026-03-10', '2026-03-15')).toEqual([]);
    expect(matching(undefined, undefined)).toEqual([]);
    // On the first of a month, today is this month so far.
    const first = new Date('2026-04-01T08:00:00Z');
    expect(
      HISTORY_PRESETS.filter((preset) => presetMatches(preset, '2026-04-01', '2026-04-01', first)),
    ).toEqual(['today', 'month']);
  });
});
