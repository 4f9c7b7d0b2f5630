import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let distDir: string;
beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-dist-'));
  fs.mkdirSync(path.join(distDir, 'assets'));
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>console</title>');
  fs.writeFileSync(path.join(distDir, 'assets', 'app-1.js'), 'console.log(1)');
  // As `npm run build` leaves a hashed asset: the file, and its brotli and gzip copies.
  const bundle = `export const big = ${JSON.stringify('x'.repeat(5000))};`;
  fs.writeFileSync(path.join(distDir, 'assets', 'index-Bq3xZ9aF.js'), bundle);
  fs.writeFileSync(
    path.join(distDir, 'assets', 'index-Bq3xZ9aF.js.br'),
    zlib.brotliCompressSync(bundle),
  );
  fs.writeFileSync(path.join(distDir, 'assets', 'index-Bq3xZ9aF.js.gz'), zlib.gzipSync(bundle));
  t = await createTestApp({ config: { webDistDir: distDir } });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(distDir, { recursive: true, force: true });
});

describe('the console at /', () => {
  it('serves the built files and index.html for client-side routes', async () => {
    const asset = await t.app.inject({ url: '/assets/app-1.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    for (const url of ['/', '/vr-users', '/admin/global-stats?days=7']) {
      const page = await t.app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<title>console</title>');
    }
  });

  it('serves files written after start (a rebuild needs no restart)', async () => {
    fs.writeFileSync(path.join(distDir, 'assets', 'app-2.js'), 'console.log(2)');
    const asset = await t.app.inject({ url: '/assets/app-2.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(2)');
  });

  it('sends the precompressed copy a client accepts, and lets hashed assets be cached for good', async () => {
    const url = '/assets/index-Bq3xZ9aF.js';
    const plain = await t.app.inject({ url });
    const brotli = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    const gzip = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotli.rawPayload.length).toBeLessThan(plain.rawPayload.length / 10);
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    for (const response of [plain, brotli, gzip]) {
      expect(response.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toContain('accept-encoding');
    }
    // The page itself is compressed too, at every client-side route (a first visit's document).
    const html = '<!doctype html><title>console</title>';
    fs.writeFileSync(path.join(distDir, 'index.html.br'), zlib.brotliCompressSync(html));
    try {
      for (const page of ['/', '/vr-users', '/admin/global-stats?days=7']) {
        const response = await t.app.inject({ url: page, headers: { 'accept-encoding': 'br' } });
        expect(response.headers['content-encoding'], page).toBe('br');
        expect(zlib.brotliDecompressSync(response.rawPayload).toString(), page).toBe(html);
      }
    } finally {
      fs.rmSync(path.join(distDir, 'index.html.br'));
    }
    // index.html names the current build's assets: always revalidated.
    for (const page of ['/', '/login', '/index.html']) {
      const response = await t.app.inject({ url: page });
      expect(response.headers['cache-control'], page).toBe('no-cache');
    }
  });

  it('sends the page-only security headers with pages, and only what applies to any file with assets', async () => {
    const pageHeaders = [
      'content-security-policy',
      'cross-origin-opener-policy',
      'referrer-policy',
      'strict-transport-security',
      'x-frame-options',
    ];
    for (const url of ['/', '/login', '/vr-users', '/index.html']) {
      const page = await t.app.inject({ url });
      for (const name of pageHeaders) expect(page.headers[name], `${url} ${name}`).toBeDefined();
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['x-content-type-options']).toBe('nosniff');
    }
    for (const encoding of ['br', 'gzip', 'identity']) {
      const asset = await t.app.inject({
        url: '/assets/index-Bq3xZ9aF.js',
        headers: { 'accept-encoding': encoding },
      });
      expect(asset.statusCode).toBe(200);
      for (const name of pageHeaders)
        expect(asset.headers[name], `${encoding} ${name}`).toBeUndefined();
      expect(asset.headers['x-content-type-options']).toBe('nosniff');
      expect(asset.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
    // The API's answers keep every header (an error page or JSON opened in a tab is a document).
    const api = await t.app.inject({ url: '/v1/not-a-route' });
    expect(api.headers['content-security-policy']).toBeDefined();
  });

  it('keeps JSON 404s for unknown API paths', async () => {
    const response = await t.app.inject({ url: '/v1/not-a-route' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'No route GET /v1/not-a-route',
    });
  });
});
