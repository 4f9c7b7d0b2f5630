import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { settled } from './support';

/**
 * axe-core's browser bundle, evaluated in the page under test (as the browser's devtools would:
 * the console's Content-Security-Policy rightly refuses inline scripts).
 */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** WCAG 2.1 level A and AA: what the console promises. */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** Each failing node: its selector and axe's account of what fails. */
  nodes: Array<{ target: string; summary: string }>;
}

interface AxeResults {
  violations: Array<{
    id: string;
    impact?: string | null;
    help: string;
    nodes: Array<{ target: unknown[]; failureSummary?: string }>;
  }>;
}

/**
 * Runs axe-core on the page as it stands (dialogs and toasts included) against WCAG 2.1 AA, and
 * answers the violations, each with its nodes.
 */
export async function axeViolations(page: Page, scope?: string[]): Promise<AxeViolation[]> {
  await settled(page);
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    async ({ tags, scope }) => {
      const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } })
        .axe;
      return axe.run(scope ? { include: scope.map((selector) => [selector]) } : document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
    },
    { tags: WCAG_21_AA, scope },
  );
  return (results as AxeResults).violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? null,
    help: violation.help,
    nodes: violation.nodes.map((node) => ({
      target: node.target.map(String).join(' '),
      summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
    })),
  }));
}

/** "color-contrast ×3: …" per violation, for a failure message a person can act on. */
export function describeViolations(violations: AxeViolation[]): string {
  return violations
    .map(
      (violation) =>
        `${violation.id} ×${violation.nodes.length} (${violation.help}):\n` +
        violation.nodes
          .slice(0, 8)
          .map((node) => `    ${node.target} — ${node.summary}`)
          .join('\n'),
    )
    .join('\n');
}

/** An open dialog with its dropdowns (rendered outside it), without the page under its overlay. */
export const DIALOG_SCOPE = ['[role="dialog"]', '[role="listbox"]'];

/** Nodes failing, over every violation. */
export const nodeCount = (violations: AxeViolation[]) =>
  violations.reduce((sum, violation) => sum + violation.nodes.length, 0);

/**
 * Nodes failing per page checked in this test file (a summary is printed at its end). Files share
 * a worker's modules (vitest.e2e.config.ts): a file that prints it empties it first.
 */
export const axeReport: Record<string, number> = {};
export const clearAxeReport = () => {
  for (const label of Object.keys(axeReport)) delete axeReport[label];
};

/**
 * No WCAG 2.1 AA violation on the page as it stands (dialogs and toasts included), or within
 * `scope` (CSS selectors: an open dialog and its dropdowns, whose page behind sits under the
 * overlay and was checked on its own). With AXE_REPORT_ONLY set, the findings are only counted and printed (to
 * measure, not to pass).
 */
export async function expectAccessible(page: Page, label: string, scope?: string[]) {
  const violations = await axeViolations(page, scope);
  axeReport[label] = nodeCount(violations);
  if (process.env.AXE_REPORT_ONLY) {
    if (violations.length) console.log(`axe ${label}:\n${describeViolations(violations)}`);
    return;
  }
  expect(violations, `${label}\n${describeViolations(violations)}`).toEqual([]);
}
