import zlib from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newPage } from './support';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const KB = 1024;

describe('what the login page loads', () => {
  it('stays within 150 KB of gzipped JavaScript and 40 KB of gzipped CSS, without charts', async () => {
    const page = await newPage(browser, 'ru');
    const assets: Array<{ url: string; type: string; gzipBytes: number }> = [];
    page.on('response', async (response) => {
      const url = response.url();
      if (!/\.(js|css)$/.test(new URL(url).pathname)) return;
      const body = await response.body();
      assets.push({
        url,
        type: url.endsWith('.css') ? 'css' : 'js',
        gzipBytes: zlib.gzipSync(body).length,
      });
    });
    await page.goto(`${baseUrl()}/login`, { waitUntil: 'networkidle' });
    await page.locator('button[type="submit"]').waitFor();

    const total = (type: string) =>
      assets.filter((a) => a.type === type).reduce((sum, a) => sum + a.gzipBytes, 0);
    const js = total('js');
    const css = total('css');
    console.log(
      `login page: ${(js / KB).toFixed(1)} KB JS, ${(css / KB).toFixed(1)} KB CSS (gzip)`,
    );
    expect(js).toBeGreaterThan(0);
    expect(js).toBeLessThanOrEqual(150 * KB);
    expect(css).toBeLessThanOrEqual(40 * KB);
    expect(assets.some((a) => /chart|recharts/i.test(a.url))).toBe(false);
    await page.context().close();
  });
});
