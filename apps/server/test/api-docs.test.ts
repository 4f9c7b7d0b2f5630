import fs from 'node:fs';
import path from 'node:path';
import { ERRORS } from '@vrtc/contract';
import { describe, expect, it } from 'vitest';

/**
 * docs/api.md lists every error code of the contract (packages/contract/src/errors.ts) with its
 * status and when it happens, in the contract's order and words, between the `errors:` markers.
 */
const apiNotes = path.resolve(import.meta.dirname, '../../../docs/api.md');

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim());

describe('docs/api.md', () => {
  it('lists every error code of the contract with its status', () => {
    const text = fs.readFileSync(apiNotes, 'utf8');
    const block = /<!-- errors:start -->\n([\s\S]*?)\n<!-- errors:end -->/.exec(text);
    expect(block, 'the error table markers').not.toBeNull();
    const rows = block![1]!.trim().split('\n').slice(2).map(cells);
    expect(rows).toEqual(
      Object.entries(ERRORS).map(([code, { status, when }]) => [
        String(status),
        `\`${code}\``,
        when,
      ]),
    );
  });
});
