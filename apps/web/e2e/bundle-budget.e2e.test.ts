import zlib from 'node:zlib';
import type { Browser, Cookie, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, createTenant, type Tenant } from './seed';
import { apiCall, baseUrl, launchBrowser, newPage, signIn } from './support';
import { waitFor } from './wait-for';

let browser: Browser;
let tenant: Tenant;
beforeAll(async () => {
  browser = await launchBrowser();
  tenant = await createTenant(await adminToken(), 'Budget');
  // A full first page of the list, as an organisation in use has.
  for (let index = 1; index <= 12; index++) {
    await apiCall('POST', '/v1/vr-users', tenant.token, {
      name: `Trainee ${String(index).padStart(2, '0')}`,
      notes: index % 3 === 0 ? 'Night shift, second week' : null,
    });
  }
});
afterAll(() => browser?.close());

const KB = 1024;

/**
 * Everything the page receives, counted as the benchmark counts it (bench/console-load.bench.ts):
 * each response's bytes on the wire from the DevTools protocol (the body as sent, compressed,
 * plus its headers), and every request, the live stream's included (it stays open).
 */
async function received(page: Page, visit: () => Promise<void>) {
  const cdp = await page.context().newCDPSession(page);
  const open = new Map<string, { url: string; type: string; cached: boolean }>();
  const done: Array<{ url: string; type: string; bytes: number }> = [];
  let last = Date.now();
  cdp.on('Network.requestWillBeSent', (event) => {
    last = Date.now();
    open.set(event.requestId, { url: event.request.url, type: event.type ?? '', cached: false });
  });
  cdp.on('Network.requestServedFromCache', (event) => {
    const request = open.get(event.requestId);
    if (request) request.cached = true;
  });
  cdp.on('Network.responseReceived', (event) => {
    const request = open.get(event.requestId);
    if (!request) return;
    request.type = event.type;
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) request.cached = true;
  });
  const finish = (requestId: string, bytes: number) => {
    last = Date.now();
    const request = open.get(requestId);
    if (request === undefined) return;
    open.delete(requestId);
    done.push({ url: request.url, type: request.type, bytes: request.cached ? 0 : bytes });
  };
  cdp.on('Network.loadingFinished', (event) => finish(event.requestId, event.encodedDataLength));
  cdp.on('Network.loadingFailed', (event) => finish(event.requestId, 0));
  await cdp.send('Network.enable');
  await visit();
  // Settled: nothing but the live stream open, and nothing started or ended for half a second.
  await waitFor(
    () =>
      [...open.values()].every(({ url }) => url.includes('/v1/events')) && Date.now() - last >= 500,
    { what: 'the page to settle', timeout: 30_000, interval: 100 },
  );
  const bytes = done.reduce((sum, transfer) => sum + transfer.bytes, 0);
  const requests = done.length + open.size;
  const list = done.map((t) => `${new URL(t.url).pathname} ${t.bytes}`).join('\n  ');
  const scriptBytes = done
    .filter((transfer) => transfer.type === 'Script')
    .reduce((sum, transfer) => sum + transfer.bytes, 0);
  return { bytes, requests, scriptBytes, list, urls: done.map((t) => t.url) };
}

describe('what a first visit loads (issue #27)', () => {
  it('keeps /login within 180 KB received, without charts', async () => {
    const page = await newPage(browser, 'ru');
    const login = await received(page, async () => {
      await page.goto(`${baseUrl()}/login`);
      await page.locator('button[type="submit"]').waitFor();
    });
    console.log(`/login: ${(login.bytes / KB).toFixed(1)} KB in ${login.requests} requests`);
    expect(login.bytes, login.list).toBeLessThanOrEqual(180 * KB);
    expect(login.urls.some((url) => /chart|recharts/i.test(url))).toBe(false);
    await page.context().close();
  });

  it('keeps the login page within 150 KB of gzipped JavaScript and 40 KB of gzipped CSS', async () => {
    const page = await newPage(browser, 'ru');
    const assets: Array<{ type: string; gzipBytes: number }> = [];
    page.on('response', async (response) => {
      const url = response.url();
      if (!/\.(js|css)$/.test(new URL(url).pathname)) return;
      const body = await response.body();
      assets.push({
        type: url.endsWith('.css') ? 'css' : 'js',
        gzipBytes: zlib.gzipSync(body).length,
      });
    });
    await page.goto(`${baseUrl()}/login`, { waitUntil: 'networkidle' });
    await page.locator('button[type="submit"]').waitFor();
    const total = (type: string) =>
      assets.filter((a) => a.type === type).reduce((sum, a) => sum + a.gzipBytes, 0);
    expect(total('js')).toBeGreaterThan(0);
    expect(total('js')).toBeLessThanOrEqual(150 * KB);
    expect(total('css')).toBeLessThanOrEqual(40 * KB);
    await page.context().close();
  });

  describe('a signed-in first visit of /vr-users (an empty cache), then a repeat visit', () => {
    let first: Awaited<ReturnType<typeof received>>;
    let repeat: Awaited<ReturnType<typeof received>>;
    let cookies: Cookie[];
    beforeAll(async () => {
      // Signed in elsewhere; the visit measured has the sign-in cookie and an empty cache.
      const signingIn = await newPage(browser, 'ru');
      await signIn(signingIn, tenant.email, tenant.password);
      cookies = await signingIn.context().cookies(baseUrl());
      await signingIn.context().close();

      const page = await newPage(browser, 'ru');
      await page.context().addCookies(cookies);
      first = await received(page, async () => {
        await page.goto(`${baseUrl()}/vr-users`);
        await page.locator('table tbody tr').first().waitFor();
      });
      console.log(`/vr-users: ${(first.bytes / KB).toFixed(1)} KB in ${first.requests} requests`);
      // The next day: the same browser's cache, every script from it.
      const again = await page.context().newPage();
      repeat = await received(again, async () => {
        await again.goto(`${baseUrl()}/vr-users`);
        await again.locator('table tbody tr').first().waitFor();
      });
      await page.context().close();
    });

    it('makes at most 25 requests, and the repeat visit loads no script', () => {
      expect(first.requests, first.list).toBeLessThanOrEqual(25);
      expect(repeat.scriptBytes, repeat.list).toBe(0);
    });

    // Issue #27's target: 198.0 KB received in 16 requests when it was reached (docs/benchmarks.md,
    // console-load). Floating, toasts, dialogs and the other language load on first use; a change
    // that brings any of it back to the first render fails here. Issue #42: merging a round's
    // capabilities had taken it to 202.8 KB in 17 requests (a split shared chunk, the login page's
    // and the account dialogs' strings in every page's dictionaries, the page itself uncompressed).
    it('receives at most 200 KB (issues #27 and #42)', () => {
      expect(first.bytes, first.list).toBeLessThanOrEqual(200 * KB);
    });

    // On a slow computer the layout's first render was thrown away (something below it still
    // loading) and rendered afresh with an empty cache: the list was asked for twice, 3 KB over
    // the budget on a loaded machine.
    it('asks for the list once, on a computer twelve times slower too', async () => {
      const page = await newPage(browser, 'ru');
      await page.context().addCookies(cookies);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 12 });
      const slow = await received(page, async () => {
        await page.goto(`${baseUrl()}/vr-users`);
        await page.locator('table tbody tr').first().waitFor();
      });
      const lists = slow.urls.filter((url) => new URL(url).pathname === '/v1/vr-users');
      expect(lists, slow.list).toHaveLength(1);
      await page.context().close();
    });
  });
});
