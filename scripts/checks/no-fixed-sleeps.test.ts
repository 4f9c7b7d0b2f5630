import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No test waits a fixed time: a sleep is either too short on a loaded machine (a flaky test) or
 * longer than needed everywhere else (a slow suite). Tests wait for the thing itself, through the
 * app's one condition wait (`wait-for.ts`: apps/server/test, apps/web/e2e), Playwright's waits,
 * `vi.waitFor`, or run on fake timers. A pause that is the test's design (cuts spread over a
 * minute, a probe's sampling) says so in a `// Pacing: why` comment on the line above it.
 */
const root = path.resolve(import.meta.dirname, '../..');

const THIS_CHECK = path.relative(root, import.meta.filename);

/**
 * Test files and the helpers they share (test/, e2e/ folders); not the shared condition waits,
 * nor this check, which names what it looks for.
 */
function isTestCode(file: string): boolean {
  if (!/\.(ts|tsx|mts|js|mjs)$/.test(file) || file.includes('node_modules/')) return false;
  if (path.basename(file) === 'wait-for.ts' || file === THIS_CHECK) return false;
  return /\.test\.[mc]?[jt]sx?$/.test(file) || /(^|\/)(test|e2e)\//.test(file);
}

const SLEEPS: Array<{ what: string; pattern: RegExp }> = [
  { what: 'waitForTimeout', pattern: /\bwaitForTimeout\(/g },
  // `new Promise((resolve) => setTimeout(resolve, ms))` and its spellings, over a line or two.
  { what: 'a Promise around setTimeout', pattern: /new Promise\b[^;]{0,160}?\bsetTimeout\(/g },
  { what: 'timers/promises', pattern: /from ['"](node:)?timers\/promises['"]/g },
];
const PACING = /\/\/\s*Pacing:\s*\S/;
const FAKE_TIMERS = /\bvi\.useFakeTimers\(/;

/** The fixed sleeps of one file's text, as `line: what`. */
function fixedSleeps(text: string): string[] {
  if (FAKE_TIMERS.test(text) && !/\bwaitForTimeout\(/.test(text)) return [];
  const lines = text.split('\n');
  const found: string[] = [];
  for (const { what, pattern } of SLEEPS) {
    for (const match of text.matchAll(pattern)) {
      const line = text.slice(0, match.index).split('\n').length;
      const before = lines.slice(Math.max(0, line - 3), line).join('\n');
      if (what !== 'waitForTimeout' && PACING.test(before)) continue;
      found.push(`${line}: ${what}`);
    }
  }
  return found;
}

describe('fixed sleeps in tests', () => {
  it('the check sees a sleep, and lets a paced one with its reason and fake timers be', () => {
    expect(fixedSleeps('await page.waitForTimeout(1500);')).toEqual(['1: waitForTimeout']);
    expect(
      fixedSleeps('const a = 1;\nawait new Promise((resolve) =>\n  setTimeout(resolve, 50),\n);'),
    ).toEqual(['2: a Promise around setTimeout']);
    expect(fixedSleeps("import { setTimeout } from 'node:timers/promises';")).toEqual([
      '1: timers/promises',
    ]);
    expect(
      fixedSleeps(
        '// Pacing: the cuts are spread over a minute.\nawait new Promise((r) => setTimeout(r, 9));',
      ),
    ).toEqual([]);
    expect(
      fixedSleeps('vi.useFakeTimers();\nconst p = new Promise((r) => setTimeout(r, 1000));'),
    ).toEqual([]);
    // A timer that is not a sleep: a deadline, an answer sent later.
    expect(
      fixedSleeps('const timer = setTimeout(() => reject(new Error("late")), 60_000);'),
    ).toEqual([]);
  });

  it('no test file or test helper sleeps a fixed time', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file && isTestCode(file) && fs.existsSync(path.join(root, file)));
    expect(files.length).toBeGreaterThan(50);
    const sleeps = files.flatMap((file) =>
      fixedSleeps(fs.readFileSync(path.join(root, file), 'utf8')).map(
        (where) => `${file}:${where}`,
      ),
    );
    expect(sleeps).toEqual([]);
  });
});
