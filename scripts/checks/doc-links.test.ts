import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every document the project cites exists: the relative links of its Markdown files, and the
 * documents named in its code and prose (docs/…, decisions/…, ARCHITECTURE.md). A moved or
 * renamed document, or one cited before it is written, fails here rather than in a reader's hands.
 */
const root = path.resolve(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file && fs.existsSync(path.join(root, file)));
const markdown = tracked.filter((file) => file.endsWith('.md'));
const code = tracked.filter((file) => /\.(ts|tsx|js|mjs|cjs|cs|css|json)$/.test(file));

/** `[text](target)` links to a file of the repository (not a web address or an anchor). */
const LINK = /\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;
/** A document named by its path: docs/….md, decisions/….md, or the architecture page. */
const CITED = /(?<![\w/.-])((?:docs\/|decisions\/)[\w./-]*\.md|ARCHITECTURE\.md)/g;

function citedPath(cited: string): string {
  if (cited === 'ARCHITECTURE.md') return 'docs/ARCHITECTURE.md';
  if (cited.startsWith('decisions/')) return `docs/${cited}`;
  return cited;
}

interface Citation {
  file: string;
  target: string;
}

function citationsIn(file: string): Citation[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const found: Citation[] = [];
  if (file.endsWith('.md')) {
    for (const [, link] of text.matchAll(LINK)) {
      if (/^([a-z]+:|#|\/)/i.test(link!)) continue;
      const target = decodeURI(link!.split('#')[0]!);
      if (target) found.push({ file, target: path.join(path.dirname(file), target) });
    }
  }
  for (const [, cited] of text.matchAll(CITED)) {
    found.push({ file, target: citedPath(cited!) });
  }
  return found;
}

describe('cited documents', () => {
  it('every link and cited document path leads to a file or folder of the repository', () => {
    const citations = [...markdown, ...code].flatMap(citationsIn);
    expect(citations.length).toBeGreaterThan(20);
    const missing = citations
      .filter(({ target }) => !fs.existsSync(path.join(root, target)))
      .map(({ file, target }) => `${file} → ${target}`);
    expect(missing).toEqual([]);
  });
});
