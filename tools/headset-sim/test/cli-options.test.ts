import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli, parseDuration } from '../src/cli-options.ts';

describe('the command line', () => {
  it('takes the offline mode as milliseconds or durations', () => {
    expect(
      ['1500', '1500ms', '90s', '2m', '1m30s', '0.5h'].map((t) => parseDuration('x', t)),
    ).toEqual([1500, 1500, 90_000, 120_000, 90_000, 1_800_000]);
    const options = parseCli(['--drop-network-after', '30s', '--drop-network-for', '2m']);
    expect(options).toMatchObject({ dropNetworkAfterMs: 30_000, dropNetworkForMs: 120_000 });
    expect(parseCli([]).stateDir).toBe(path.resolve('.headset-sim'));
  });

  it('says what is wrong with a duration', () => {
    expect(() => parseCli(['--drop-network-after', 'soon'])).toThrow(
      '--drop-network-after must be a duration such as 1500 (milliseconds), 30s, 2m or 1h, got "soon"',
    );
    expect(() => parseCli(['--drop-network-for', '1m'])).toThrow(
      '--drop-network-for needs --drop-network-after',
    );
  });
});
