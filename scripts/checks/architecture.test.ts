import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_DOMAIN_USES, SERVER_SINKS } from '../../eslint.config.js';

/**
 * docs/ARCHITECTURE.md is the page a newcomer reads first: the README links it, and its table of
 * which server domain may use which is the one lint enforces (eslint.config.js), not a copy that
 * drifts from it.
 */
const root = path.resolve(import.meta.dirname, '../..');
const page = fs.readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
const rules = page.slice(page.indexOf('## Dependency rules'));
const names = (cell: string) => [...cell.matchAll(/`([\w-]+)`/g)].map(([, name]) => name!);

describe('docs/ARCHITECTURE.md', () => {
  it('is linked from the README', () => {
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).toContain(
      '(docs/ARCHITECTURE.md)',
    );
  });

  it('states the domain directions lint enforces (SERVER_DOMAIN_USES, SERVER_SINKS)', () => {
    const stated: Record<string, string[]> = {};
    for (const [, domains, uses] of rules.matchAll(/^\| (`[^|]*`) +\| ([^|]*?) +\|$/gm)) {
      for (const domain of names(domains!)) stated[domain] = names(uses!).sort();
    }
    const enforced = Object.fromEntries(
      Object.entries(SERVER_DOMAIN_USES).map(([domain, uses]) => [domain, [...uses].sort()]),
    );
    expect(stated).toEqual(enforced);
    for (const sink of SERVER_SINKS) expect(rules).toContain(`\`${sink}\``);
  });
});
