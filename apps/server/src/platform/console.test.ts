import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

let t: TestApp;
let distDir: string;
beforeAll(async () => {
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-dist-'));
  fs.mkdirSync(path.join(distDir, 'assets'));
  fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>console</title>');
  fs.writeFileSync(path.join(distDir, 'assets', 'app-1.js'), 'console.log(1)');
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

  it('keeps JSON 404s for unknown API paths', async () => {
    const response = await t.app.inject({ url: '/v1/not-a-route' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      error: 'not_found',
      message: 'No route GET /v1/not-a-route',
    });
  });
});
