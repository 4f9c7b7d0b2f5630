import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SimulatedHeadset } from '@vrtc/headset-sim';
import { unzipSync } from 'fflate';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { grantAccess, makeScenarioTree, makeTenant } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * Each exported package (SCORM 1.2 and 2004) in Chromium under a real SCORM runtime
 * (scorm-again, as an LMS serves it) in a parent page of another origin than the console: the
 * page shows a PIN, a simulated headset claims it and plays, and the LMS's data model ends up
 * passed with the score, failed, or incomplete for a cancel (docs/lms.md).
 */

let t: TestApp;
let consoleOrigin: string;
let lms: http.Server;
let lmsOrigin: string;
let browser: Browser;
const headsets: SimulatedHeadset[] = [];
/** Each package's files, by the path the LMS serves them under. */
const packages = new Map<string, Uint8Array>();
const SCORM_AGAIN = path.resolve(import.meta.dirname, '../../../node_modules/scorm-again');
const SHOTS = process.env.LMS_SHOTS_DIR;

const PLAYING = { timeout: 30_000, interval: 100 };

beforeAll(async () => {
  t = await createTestApp({ config: { heartbeatIntervalMs: 100 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  consoleOrigin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  lms = http.createServer(serveLms);
  await new Promise<void>((resolve) => lms.listen(0, 'localhost', resolve));
  // localhost, not 127.0.0.1: another origin than the console's.
  lmsOrigin = `http://localhost:${(lms.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium-headless-shell',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
});
afterAll(async () => {
  await Promise.all(headsets.map((headset) => headset.stop()));
  await browser?.close();
  await new Promise((resolve) => lms?.close(resolve));
  await t.close();
});

/** The LMS: its player page with scorm-again, and the packages it was given. */
function serveLms(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://lms');
  const send = (type: string, body: string | Uint8Array) => {
    response.writeHead(200, { 'content-type': type });
    response.end(body);
  };
  if (url.pathname === '/player') {
    return send('text/html; charset=utf-8', playerPage(url.searchParams));
  }
  if (url.pathname.startsWith('/scorm-again/')) {
    const file = path.join(SCORM_AGAIN, 'dist', path.basename(url.pathname));
    return send('text/javascript', fs.readFileSync(file));
  }
  const file = packages.get(url.pathname);
  if (!file) {
    response.writeHead(404).end();
    return;
  }
  const types: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'text/javascript',
    '.css': 'text/css',
  };
  return send(types[path.extname(url.pathname)] ?? 'application/octet-stream', file);
}

/** The LMS's page: the SCORM runtime on the window the package's frame searches. */
function playerPage(query: URLSearchParams) {
  const version = query.get('version');
  const learner = JSON.stringify({ id: query.get('learner'), name: query.get('name') });
  const language = JSON.stringify(query.get('lang') ?? '');
  const runtime =
    version === '1.2'
      ? `window.API = new Scorm12API({ autocommit: false, logLevel: 5 });
         API.cmi.core.student_id = learner.id; API.cmi.core.student_name = learner.name;
         API.cmi.student_preference.language = ${language};`
      : `window.API_1484_11 = new Scorm2004API({ autocommit: false, logLevel: 5 });
         API_1484_11.cmi.learner_id = learner.id; API_1484_11.cmi.learner_name = learner.name;
         API_1484_11.cmi.learner_preference.language = ${language};`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>LMS</title>
<script src="/scorm-again/${version === '1.2' ? 'scorm12' : 'scorm2004'}.js"></script>
<script>var learner = ${learner}; ${runtime}</script></head>
<body><iframe id="sco" title="course" style="width:100%;height:600px;border:0"
src="/pkg/${query.get('pkg')}/index.html"></iframe></body></html>`;
}

/** An organisation with a level of 4 tasks, a headset playing, and the level's package. */
async function organisationWithPackage(version: '1.2' | '2004') {
  const tenant = await makeTenant(t);
  const tree = await makeScenarioTree(t.db, { levelName: 'Уровень 1', maxTasks: 4 });
  await t.db
    .updateTable('levels')
    .set({ name_en: 'Level 1' })
    .where('id', '=', tree.level.id)
    .execute();
  await grantAccess(t.db, tree.scenario.id, tenant.organization.id, null, t.clock.now());
  const zip = await t.app.inject({
    method: 'POST',
    url: `/v1/lms/packages?level_id=${tree.level.id}&scorm_version=${version}`,
    headers: { ...tenant.headers, host: new URL(consoleOrigin).host },
  });
  expect(zip.statusCode).toBe(200);
  const name = `${version}-${tenant.organization.id}`;
  for (const [file, bytes] of Object.entries(unzipSync(new Uint8Array(zip.rawPayload)))) {
    packages.set(`/pkg/${name}/${file}`, bytes);
  }
  const code = await t.app.inject({
    method: 'POST',
    url: '/v1/devices/enrollment-code',
    headers: tenant.headers,
  });
  return { tenant, tree, name, code: code.json<{ code: string }>().code };
}

async function headsetFor(code: string, successRate: number, paceMs = 20) {
  const headset = new SimulatedHeadset({
    server: consoleOrigin,
    name: `Quest ${headsets.length + 1}`,
    code,
    paceMs,
    successRate,
  });
  headsets.push(headset);
  await headset.start();
  return headset;
}

async function openInLms(pkg: string, version: string, learner: string, lang = '') {
  const page = await browser.newPage({ viewport: { width: 1024, height: 700 } });
  const query = new URLSearchParams({ version, pkg, learner, name: `Learner ${learner}`, lang });
  await page.goto(`${lmsOrigin}/player?${query}`);
  const frame = page.frameLocator('#sco');
  await expect.poll(async () => frame.locator('#pin').textContent(), PLAYING).toMatch(/^\d{6}$/);
  const pin = (await frame.locator('#pin').textContent())!;
  return { page, pin, frame: page.frame({ url: /index\.html/ })! };
}

const cmi12 = (page: Page) =>
  page.evaluate(() => {
    const core = (window as unknown as { API: { cmi: { core: Record<string, unknown> } } }).API.cmi
      .core as { lesson_status: string; session_time: string; score: Record<string, string> };
    return {
      status: core.lesson_status,
      raw: core.score.raw,
      min: core.score.min,
      max: core.score.max,
    };
  });

const cmi2004 = (page: Page) =>
  page.evaluate(() => {
    const cmi = (
      window as unknown as {
        API_1484_11: {
          cmi: {
            completion_status: string;
            success_status: string;
            session_time: string;
            score: Record<string, string>;
          };
        };
      }
    ).API_1484_11.cmi;
    return {
      completion: cmi.completion_status,
      success: cmi.success_status,
      scaled: cmi.score.scaled,
      raw: cmi.score.raw,
    };
  });

const message = (frame: Frame) => frame.locator('#message').textContent();

describe('a SCORM 1.2 package in an LMS', () => {
  it('writes passed with the score when the headset succeeds', async () => {
    const { name, code } = await organisationWithPackage('1.2');
    const headset = await headsetFor(code, 1);
    const { page, pin, frame } = await openInLms(name, '1.2', 'emp-1');
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'lms-launch-ru.png') });
    await headset.claimLaunch(pin);
    await expect.poll(() => cmi12(page), PLAYING).toMatchObject({ status: 'passed', raw: '100' });
    expect(await cmi12(page)).toMatchObject({ min: '0', max: '100' });
    expect(await message(frame)).toBe('Тренировка пройдена.');
    await page.close();
  });

  it('writes failed when the headset fails', async () => {
    const { name, code } = await organisationWithPackage('1.2');
    const headset = await headsetFor(code, 0);
    const { page, pin } = await openInLms(name, '1.2', 'emp-2');
    await headset.claimLaunch(pin);
    await expect.poll(async () => (await cmi12(page)).status, PLAYING).toBe('failed');
    expect(Number((await cmi12(page)).raw)).toBeLessThan(100);
    await page.close();
  });
});

describe('a SCORM 2004 package in an LMS', () => {
  it('writes completed and passed with the score, in the LMS’s language', async () => {
    const { name, code } = await organisationWithPackage('2004');
    const headset = await headsetFor(code, 1);
    const { page, pin, frame } = await openInLms(name, '2004', 'emp-3', 'en-US');
    expect(await frame.locator('#title').textContent()).toBe('Level 1');
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'lms-launch-en.png') });
    await headset.claimLaunch(pin);
    await expect
      .poll(() => cmi2004(page), PLAYING)
      .toMatchObject({ completion: 'completed', success: 'passed', scaled: '1', raw: '100' });
    expect(await message(frame)).toBe('Training passed.');
    await page.close();
  });

  it('writes incomplete for a cancelled session and offers a new PIN', async () => {
    const { name, code, tenant } = await organisationWithPackage('2004');
    // Slow: the console cancels it while it plays.
    const headset = await headsetFor(code, 1, 60_000);
    const { page, pin, frame } = await openInLms(name, '2004', 'emp-4');
    const session = await headset.claimLaunch(pin);
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${session.id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    await expect
      .poll(() => cmi2004(page), PLAYING)
      .toMatchObject({ completion: 'incomplete', success: 'unknown' });
    await vi.waitFor(
      async () => expect(await frame.locator('#again').isVisible()).toBe(true),
      PLAYING,
    );
    await frame.locator('#again').click();
    await expect.poll(async () => frame.locator('#pin').textContent(), PLAYING).toMatch(/^\d{6}$/);
    expect(await frame.locator('#pin').textContent()).not.toBe(pin);
    await page.close();
  });
});
