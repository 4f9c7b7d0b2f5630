import fs from 'node:fs';
import path from 'node:path';
import { chromium, errors, type Browser, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';

let ownServer: string | undefined;
/**
 * A file that runs a server of its own (other settings, or one it stops and starts: own-server.ts)
 * points every helper at it; the others share the suite's.
 */
export function useOwnServer(url: string | undefined) {
  ownServer = url;
}
export const baseUrl = () => ownServer ?? inject('baseUrl');
export const adminLogin = () => ({
  email: inject('adminEmail'),
  password: inject('adminPassword'),
});

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Debian's Chromium headless shell (package `chromium-headless-shell`): the same engine without
 * the browser's own windows and their WebUI: 8–17% less wall time than `/usr/bin/chromium` on the
 * files measured (docs/benchmarks.md). Playwright gives every launch a fresh temporary profile.
 */
const CHROMIUM_EXECUTABLE = '/usr/bin/chromium-headless-shell';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_FLAGS });
}

export type Language = 'ru' | 'en';

/** The laptop and the phone every route is looked at on. */
export const VIEWPORTS = {
  laptop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

export interface PageOptions {
  /** An IANA time zone for the browser, e.g. 'Europe/Moscow' (default: the machine's). */
  timezoneId?: string;
  viewport?: { width: number; height: number };
}

/** A new page whose console language is set before the app loads. */
export async function newPage(
  browser: Browser,
  language: Language = 'ru',
  options: PageOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? VIEWPORTS.laptop,
    acceptDownloads: true,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    // Phones have touch screens; the console must not depend on hover there.
    ...(options.viewport && options.viewport.width < 600 ? { hasTouch: true, isMobile: true } : {}),
  });
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('language')) localStorage.setItem('language', lang);
  }, language);
  const page = await context.newPage();
  checkPromptly(page);
  return page;
}

/** A wait's limit at which Playwright keeps its checks 100 ms apart (it does up to 2.5 s). */
const PROMPT_WAIT_MS = 2_000;

/**
 * Locators' `waitFor` checks at most about 100 ms apart, within the same time limit. Playwright
 * checks a waiting locator after 0, 20, 50, 100 and 100 ms, then every 500 ms, unless the wait's
 * limit is at most 2.5 s; the screens answer within 300–600 ms of a click, so nearly every wait
 * slept up to half a second past its answer (11% of the route walk's and the phones' time,
 * docs/benchmarks.md). A longer wait is asked as waits of at most 2 s in turn, which Playwright
 * spaces at 100 ms. Set once for the worker's Locator prototype, shared by every page.
 */
function checkPromptly(page: Page) {
  const locator = Object.getPrototypeOf(page.locator('body')) as {
    waitFor: Locator['waitFor'];
    promptly?: true;
  };
  if (locator.promptly) return;
  locator.promptly = true;
  const waitFor = locator.waitFor;
  locator.waitFor = async function (this: Locator, options = {}) {
    // 0 is no limit; undefined, the context's default (30 s).
    if (options.timeout === 0) return waitFor.call(this, options);
    const limitMs = options.timeout ?? 30_000;
    const deadline = Date.now() + limitMs;
    for (;;) {
      const leftMs = deadline - Date.now();
      try {
        return await waitFor.call(this, {
          ...options,
          timeout: Math.max(1, Math.min(PROMPT_WAIT_MS, leftMs)),
        });
      } catch (error) {
        if (!(error instanceof errors.TimeoutError)) throw error;
        if (leftMs <= PROMPT_WAIT_MS) {
          error.message = `(${limitMs} ms in all) ${error.message}`;
          throw error;
        }
      }
    }
  };
}

/** The name of the console's sign-in cookie over plain http, as the e2e server is served. */
export const SESSION_COOKIE = 'vrtc_session';

/** The console's sign-in cookie in the page's browser context, if it has one. */
export async function sessionCookie(page: Page) {
  const cookies = await page.context().cookies(baseUrl());
  return cookies.find((cookie) => cookie.name === SESSION_COOKIE);
}

/**
 * Signs in as a person does, through the login form; the page ends on /vr-users. The browser keeps
 * the sign-in in its httpOnly cookie (decision 025); its value, the token, is answered for tests
 * that call the API as that sign-in. For the tests of signing in itself; the others use `signIn`.
 */
export async function signInWithForm(page: Page, email: string, password: string): Promise<string> {
  await page.goto(`${baseUrl()}/login`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/vr-users');
  return signedInCookie(page, email);
}

/**
 * Signs the page's browser in by the console's own sign-in call (POST /v1/auth/login, from the
 * console's origin, into the page's cookie jar) and opens `landing` (by default /vr-users, where
 * the form would have left it): a test whose subject is not the sign-in skips loading and filling
 * the login page (about 0.65 s of the browser's CPU each time), and one that starts elsewhere
 * loads only that screen (docs/benchmarks.md). Answers the token.
 */
export async function signIn(
  page: Page,
  email: string,
  password: string,
  landing = '/vr-users',
): Promise<string> {
  const response = await page.request.post(`${baseUrl()}/v1/auth/login`, {
    data: { email, password },
    headers: { origin: baseUrl() },
  });
  if (!response.ok()) {
    throw new Error(`Signing in as ${email}: ${response.status()} ${await response.text()}`);
  }
  await page.goto(`${baseUrl()}${landing}`);
  return signedInCookie(page, email);
}

/**
 * Opens `path` in the console already loaded on the page, as its own links do (a new history
 * entry, the router told of it), without loading the page again: a load costs the browser about
 * 0.3–0.5 s of CPU, a change of screen about 0.1 s (docs/benchmarks.md). For tests whose subject
 * is the screen, not how its address loads. The router may render after this answers: wait for
 * what the new screen shows.
 */
export async function openInApp(page: Page, path: string) {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

async function signedInCookie(page: Page, email: string): Promise<string> {
  const cookie = await sessionCookie(page);
  if (!cookie) throw new Error(`Signed in as ${email}, but the browser holds no ${SESSION_COOKIE}`);
  return cookie.value;
}

/**
 * Narrows a list the server searches (the search box labelled `label`) to `text`, and waits for
 * the server's answer to show. The admin's lists hold what every test file creates, and files run
 * side by side: a file finds its own rows among the matches, never by where they fall on a first
 * page that other files fill too.
 */
export async function searchList(page: Page, label: string, text: string) {
  const answered = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return response.request().method() === 'GET' && url.searchParams.get('q') === text.trim();
  });
  await page.getByRole('textbox', { name: label, exact: true }).fill(text);
  await answered;
  // Until then the table showed the rows it had before, faded (axe would measure them so).
  await page.waitForFunction(() => !document.querySelector('table[aria-busy="true"]'));
}

const screenshotDir = path.resolve(import.meta.dirname, 'screenshots');

/**
 * Saves a full-page screenshot under e2e/screenshots/<language>/<name>.png (gitignored); a page
 * narrower than a tablet goes under e2e/screenshots/<language>/phone/.
 */
export async function screenshot(page: Page, language: Language, name: string) {
  await settled(page);
  const width = page.viewportSize()?.width ?? VIEWPORTS.laptop.width;
  const dir = path.join(screenshotDir, language, ...(width < 600 ? ['phone'] : []));
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/**
 * Expanding panels, opening dialogs and toasts animate: waits for every finite animation to end
 * (a half-faded dialog is neither what a user reads nor what axe should measure).
 */
export async function settled(page: Page) {
  await page.waitForFunction(
    () =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getTiming().iterations === Infinity,
        ),
    undefined,
    { timeout: 5_000 },
  );
}

/** Calls the API directly (seeding data a flow needs); throws with the server's message. */
export async function apiCall<T>(
  method: string,
  urlPath: string,
  token: string | undefined,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl()}${urlPath}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${urlPath} → ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export async function apiLogin(email: string, password: string): Promise<string> {
  const body = await apiCall<{ token: string }>('POST', '/v1/auth/login', undefined, {
    email,
    password,
  });
  return body.token;
}

let counter = 0;
export const uniqueName = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${(counter++).toString(36)}`;
