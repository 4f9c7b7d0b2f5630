import type {
  AuditEventPage,
  LmsLaunch,
  LmsLaunchCreated,
  LmsPackageKeyList,
} from '@vrtc/contract';
import { unzipSync, strFromU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStartableSetup, makeTenant } from '../../test/factories.ts';
import { createTestApp, sweepNow, type TestApp } from '../../test/harness.ts';

/** Into any LMS (issue 41, docs/lms.md): packages, launches, PINs and results. */
const DAY = 24 * 3600 * 1000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { lateResultWindowMs: DAY } });
});
afterAll(() => t.close());

type Tenant = Awaited<ReturnType<typeof makeTenant>>;

/** A tenant with a startable headset and a package exported for its level. */
async function exported(version: '1.2' | '2004' = '1.2') {
  const tenant = await makeTenant(t);
  const setup = await makeStartableSetup(t, tenant.organization.id);
  const zip = await t.app.inject({
    method: 'POST',
    url: `/v1/lms/packages?level_id=${setup.level.id}&scorm_version=${version}`,
    headers: tenant.headers,
  });
  expect(zip.statusCode).toBe(200);
  const files = unzipSync(new Uint8Array(zip.rawPayload));
  const config = strFromU8(files['config.js']!);
  const key = /"packageKey": "([^"]+)"/.exec(config)![1]!;
  return { tenant, setup, key, files, config };
}

async function launch(key: string, learner = 'learner-1', name = 'Ivanov, Ivan') {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/lms/launches',
    headers: { origin: 'https://lms.example.com' },
    payload: { package_key: key, learner_id: learner, learner_name: name },
  });
  return response;
}

async function follow(token: string) {
  const response = await t.app.inject({
    url: '/v1/lms/launches/current',
    headers: { 'x-lms-launch-token': token, origin: 'https://lms.example.com' },
  });
  expect(response.statusCode).toBe(200);
  return response.json<LmsLaunch>();
}

function claim(headers: Record<string, string>, pin: string) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/headset/launches/claim',
    headers,
    payload: { pin },
  });
}

function finish(
  headers: Record<string, string>,
  sessionId: string,
  done: number,
  success: boolean,
) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/headset/sessions/${sessionId}/finish`,
    headers,
    payload: { completed_tasks: done, success },
  });
}

async function auditOf(tenant: Tenant, action: string) {
  const page = await t.app.inject({
    url: `/v1/audit-events?action=${action}`,
    headers: tenant.headers,
  });
  return page.json<AuditEventPage>().audit_events;
}

describe('export', () => {
  it('zips the manifest, the launch page and its config with the console address and the key', async () => {
    const { files, config, tenant } = await exported('2004');
    expect(Object.keys(files).sort()).toEqual([
      'config.js',
      'imsmanifest.xml',
      'index.html',
      'launch.css',
      'launch.js',
    ]);
    expect(config).toContain('"scormVersion": "2004"');
    expect(config).toMatch(/"consoleUrl": "http:\/\/localhost/);
    expect(strFromU8(files['imsmanifest.xml']!)).toContain('2004 4th Edition');
    // Nothing from elsewhere: every script and style is the package's own.
    expect(strFromU8(files['index.html']!)).not.toMatch(/https?:\/\//);
    const events = await auditOf(tenant, 'lms_package.exported');
    expect(events).toHaveLength(1);
    expect(events[0]!.changes).toMatchObject({ scorm_version: [null, '2004'] });
  });

  it('lists the key and revokes it: the next launch is refused at once', async () => {
    const { tenant, key } = await exported();
    expect((await launch(key)).statusCode).toBe(201);
    const list = await t.app.inject({ url: '/v1/lms/package-keys', headers: tenant.headers });
    const [listed] = list.json<LmsPackageKeyList>().package_keys;
    expect(listed).toMatchObject({ revoked_at: null, launch_count: 1, scorm_version: '1.2' });
    const revoked = await t.app.inject({
      method: 'POST',
      url: `/v1/lms/package-keys/${listed!.id}/revoke`,
      headers: tenant.headers,
    });
    expect(revoked.json<{ revoked_at: string | null }>().revoked_at).not.toBeNull();
    const refused = await launch(key);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'lms_key_invalid' });
  });

  it('refuses a level of a scenario the organisation has no access to', async () => {
    const { setup } = await exported();
    const other = await makeTenant(t);
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/lms/packages?level_id=${setup.level.id}&scorm_version=1.2`,
      headers: other.headers,
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('launch', () => {
  it('answers CORS for the LMS origin without credentials, and a preflight', async () => {
    const { key } = await exported();
    const response = await launch(key);
    expect(response.headers['access-control-allow-origin']).toBe('https://lms.example.com');
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/lms/launches/current',
      headers: { origin: 'https://lms.example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toContain('x-lms-launch-token');
  });

  it('links a learner seen again to the same VR user, created once and audited', async () => {
    const { key, tenant } = await exported();
    const first = (await launch(key, 'emp-42', 'Petrova, Anna')).json<LmsLaunchCreated>();
    const second = (await launch(key, 'emp-42', 'Renamed')).json<LmsLaunchCreated>();
    expect(first.pin).toMatch(/^\d{6}$/);
    expect(second.learner_name).toBe('Petrova, Anna');
    const users = await t.db
      .selectFrom('vr_users')
      .select(['id', 'external_id'])
      .where('organization_id', '=', tenant.organization.id)
      .where('external_id', '=', 'emp-42')
      .execute();
    expect(users).toHaveLength(1);
    const created = await auditOf(tenant, 'vr_user.created');
    expect(created.filter((event) => event.target.id === users[0]!.id)).toHaveLength(1);
  });
});

describe('claim', () => {
  it('starts the session for the learner, once: a PIN used twice is refused', async () => {
    const { key, setup, tenant } = await exported();
    const created = (await launch(key)).json<LmsLaunchCreated>();
    const claimed = await claim(setup.headset.headers, created.pin!);
    expect(claimed.statusCode).toBe(201);
    expect(claimed.json()).toMatchObject({ vr_user_name: 'Ivanov, Ivan', status: 'active' });
    expect((await follow(created.launch_token)).state).toBe('running');
    const again = await claim(setup.headset.headers, created.pin!);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'launch_pin_invalid' });
    const [started] = await auditOf(tenant, 'session.started');
    expect(started!.actor).toMatchObject({ type: 'headset', id: setup.headset.device.id });
    expect(started!.changes).toMatchObject({ started_by: [null, 'lms_launch'] });
  });

  it('refuses an expired PIN, and the page sees the launch expired', async () => {
    const { key, setup } = await exported();
    const created = (await launch(key)).json<LmsLaunchCreated>();
    t.clock.advance(15 * 60 * 1000 + 1);
    expect((await claim(setup.headset.headers, created.pin!)).statusCode).toBe(400);
    expect((await follow(created.launch_token)).state).toBe('expired');
  });

  it('refuses a PIN of another organisation', async () => {
    const { key } = await exported();
    const created = (await launch(key)).json<LmsLaunchCreated>();
    const other = await makeTenant(t);
    const foreign = await makeStartableSetup(t, other.organization.id);
    const response = await claim(foreign.headset.headers, created.pin!);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'launch_pin_invalid' });
  });

  it('refuses a waiting PIN once its key is revoked', async () => {
    const { key, setup, tenant } = await exported();
    const created = (await launch(key)).json<LmsLaunchCreated>();
    const [listed] = (
      await t.app.inject({ url: '/v1/lms/package-keys', headers: tenant.headers })
    ).json<LmsPackageKeyList>().package_keys;
    await t.app.inject({
      method: 'POST',
      url: `/v1/lms/package-keys/${listed!.id}/revoke`,
      headers: tenant.headers,
    });
    expect((await claim(setup.headset.headers, created.pin!)).statusCode).toBe(400);
  });

  it('throttles wrong PINs per headset', async () => {
    const { setup } = await exported();
    const answers: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      answers.push((await claim(setup.headset.headers, '000000')).statusCode);
    }
    expect(answers.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(answers[10]).toBe(429);
  });
});

describe('result', () => {
  it('reports passed with the score, also to a page that reloads with its token', async () => {
    const { key, setup } = await exported();
    const created = (await launch(key)).json<LmsLaunchCreated>();
    const session = (await claim(setup.headset.headers, created.pin!)).json<{ id: string }>();
    expect((await finish(setup.headset.headers, session.id, 2, true)).statusCode).toBe(200);
    const reloaded = await follow(created.launch_token);
    expect(reloaded).toMatchObject({
      state: 'ended',
      pin: null,
      result: { status: 'completed', success: true, completed_tasks: 2, max_tasks: 3, score: 67 },
    });
  });

  it('reports a cancel as ended without success, and a late result that follows it', async () => {
    const { key, setup } = await exported();
    const created = (await launch(key)).json<LmsLaunchCreated>();
    const session = (await claim(setup.headset.headers, created.pin!)).json<{ id: string }>();
    t.clock.advance(t.config.disconnectAfterMs + 1000);
    await sweepNow(t);
    expect((await follow(created.launch_token)).result).toMatchObject({
      status: 'disconnected',
      success: false,
    });
    expect((await finish(setup.headset.headers, session.id, 3, true)).statusCode).toBe(200);
    expect((await follow(created.launch_token)).result).toMatchObject({
      status: 'completed',
      success: true,
      score: 100,
      late_result: true,
    });
  });
});
