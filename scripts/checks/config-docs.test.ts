import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { README, withCurrentTable } from '../config-docs.ts';

describe("README's environment table", () => {
  it('is the one the configuration declarations make (npm run docs:config writes it)', async () => {
    const readme = fs.readFileSync(README, 'utf8');
    expect(readme).toBe(await withCurrentTable(readme));
  });

  it('catches a table that drifted from the declarations', async () => {
    const stale = fs.readFileSync(README, 'utf8').replace('| `PORT` ', '| `PORTS`');
    expect(await withCurrentTable(stale)).not.toBe(stale);
  });
});
