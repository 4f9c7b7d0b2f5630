import lighthouse, { desktopConfig, type Result } from 'lighthouse';
import puppeteer, { type CookieData } from 'puppeteer-core';

/**
 * Lighthouse (desktop preset: simulated throttling, 1350×940) on pages of the console, for
 * `npm run bench:console-load -- --lighthouse`. Each page is audited in a browser context of its
 * own (an empty cache), signed in by the console's cookie when `cookies` are given, with the
 * console's language set in localStorage before the visit. Lighthouse's own storage reset is off:
 * it would clear the language (and a reset between pages is not needed, each context starts empty).
 *
 * Lighthouse 12.8 (Node ≥ 18.16; 13.x needs Node ≥ 22) runs on Debian's Chromium through
 * puppeteer-core; nothing is downloaded.
 */

export interface LighthousePage {
  path: string;
  language: 'ru' | 'en';
  signedIn: boolean;
}

export interface LighthouseScore {
  page: LighthousePage;
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Main-thread work during the load (Lighthouse's mainthread-work-breakdown), milliseconds. */
  mainThreadMs: number;
  /** The three largest categories of that work, e.g. "scriptEvaluation 410 ms". */
  mainThreadTop: string[];
  /** The scripts that took the most main-thread time (bootup-time), with their milliseconds. */
  scripts: string[];
  /** Accessibility audits that failed, by id. */
  failedAccessibility: string[];
}

interface CookieLike {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
}

const numeric = (result: Result, id: string) => result.audits[id]?.numericValue ?? NaN;

interface TableItem {
  [key: string]: unknown;
}
const itemsOf = (result: Result, id: string): TableItem[] => {
  const details = result.audits[id]?.details as { items?: TableItem[] } | undefined;
  return details?.items ?? [];
};

export async function runLighthouse(
  origin: string,
  pages: LighthousePage[],
  options: { chromium: string; cookies: CookieLike[]; flags: string[] },
  progress: (what: string) => void,
): Promise<LighthouseScore[]> {
  const browser = await puppeteer.launch({
    executablePath: options.chromium,
    args: options.flags.filter((flag) => flag !== '--headless'),
    headless: true,
    defaultViewport: null,
  });
  const scores: LighthouseScore[] = [];
  try {
    for (const page of pages) {
      progress(`lighthouse ${page.path} (${page.language})`);
      const context = await browser.createBrowserContext();
      try {
        if (page.signedIn) {
          await context.setCookie(
            ...options.cookies.map((cookie): CookieData => ({
              name: cookie.name,
              value: cookie.value,
              domain: cookie.domain,
              path: cookie.path,
              expires: cookie.expires,
              httpOnly: cookie.httpOnly,
              secure: cookie.secure,
              sameSite: cookie.sameSite,
            })),
          );
        }
        const tab = await context.newPage();
        // The language, stored as the console stores it, on a same-origin answer that loads no
        // script (the cache stays empty for the audited visit).
        await tab.goto(`${origin}/readyz`);
        await tab.evaluate((language) => localStorage.setItem('language', language), page.language);
        const runner = await lighthouse(
          `${origin}${page.path}`,
          {
            onlyCategories: ['performance', 'accessibility'],
            disableStorageReset: true,
            logLevel: 'error',
          },
          desktopConfig,
          tab as unknown as Parameters<typeof lighthouse>[3],
        );
        if (!runner) throw new Error(`lighthouse gave no result for ${page.path}`);
        const result = runner.lhr;
        if (result.runtimeError) {
          throw new Error(`lighthouse: ${result.runtimeError.code} ${result.runtimeError.message}`);
        }
        const breakdown = itemsOf(result, 'mainthread-work-breakdown')
          .map((item) => ({
            group: String(item.groupLabel ?? item.group),
            ms: Number(item.duration),
          }))
          .sort((a, b) => b.ms - a.ms);
        const scripts = itemsOf(result, 'bootup-time')
          .map((item) => ({ url: String(item.url), ms: Number(item.total) }))
          .sort((a, b) => b.ms - a.ms)
          .slice(0, 4);
        const accessibility = result.categories.accessibility!;
        scores.push({
          page,
          performance: Math.round((result.categories.performance!.score ?? 0) * 100),
          accessibility: Math.round((accessibility.score ?? 0) * 100),
          fcpMs: numeric(result, 'first-contentful-paint'),
          lcpMs: numeric(result, 'largest-contentful-paint'),
          tbtMs: numeric(result, 'total-blocking-time'),
          mainThreadMs: numeric(result, 'mainthread-work-breakdown'),
          mainThreadTop: breakdown.slice(0, 3).map((b) => `${b.group} ${b.ms.toFixed(0)} ms`),
          scripts: scripts.map((s) => {
            let name = s.url;
            try {
              name = new URL(s.url).pathname.replace(/^\/assets\//, '');
            } catch {
              // "Other" and "Unattributable" are not addresses
            }
            return `${name} ${s.ms.toFixed(0)} ms`;
          }),
          failedAccessibility: accessibility.auditRefs
            .filter((ref) => ref.weight > 0 && result.audits[ref.id]?.score === 0)
            .map((ref) => ref.id),
        });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return scores;
}
