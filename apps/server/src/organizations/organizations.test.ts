import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../auth/auth.service.ts';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeAccount,
  makeDevice,
  makeOrganization,
  makeScenarioTree,
  makeSession,
  makeTenant,
  makeVrUser,
} from '../../test/factories.ts';
import { DAY_MS, lastDays } from '@vrtc/contract';

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
const ago = (ms: number) => new Date(t.clock.now().getTime() - ms);

const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });

const ZERO_STATS = {
  total_users: 0,
  total_vr_users: 0,
  total_sessions: 0,
  active_sessions: 0,
  success_rate: 0,
  total_devices: 0,
  online_devices: 0,
};

describe('organisations CRUD', () => {
  it('creates, lists, reads and updates', async () => {
    const created = await request('POST', '/v1/admin/organizations', { name: '  Northwind  ' });
    expect(created.statusCode).toBe(201);
    const northwind = created.json();
    expect(northwind).toEqual({
      id: expect.any(String),
      name: 'Northwind',
      active: true,
      mfa_required: false,
      created_at: t.clock.now().toISOString(),
      stats: ZERO_STATS,
    });

    const plain = await request('GET', '/v1/admin/organizations');
    expect(plain.statusCode).toBe(200);
    const listed = plain.json().organizations.find((o: { id: string }) => o.id === northwind.id);
    expect(listed).toEqual({
      id: northwind.id,
      name: 'Northwind',
      active: true,
      mfa_required: false,
      created_at: northwind.created_at,
    });
    const withStats = await request('GET', '/v1/admin/organizations?include_stats=true');
    expect(
      withStats.json().organizations.find((o: { id: string }) => o.id === northwind.id),
    ).toEqual(northwind);
    const withoutStats = await request('GET', '/v1/admin/organizations?include_stats=false');
    expect(withoutStats.json().organizations.every((o: object) => !('stats' in o))).toBe(true);

    const updated = await request('PUT', `/v1/admin/organizations/${northwind.id}`, {
      name: 'Northwind Ltd',
      active: false,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      id: northwind.id,
      name: 'Northwind Ltd',
      active: false,
    });

    const renamedOnly = await request('PUT', `/v1/admin/organizations/${northwind.id}`, {
      name: 'NW',
    });
    expect(renamedOnly.json()).toMatchObject({ name: 'NW', active: false });

    const read = await request('GET', `/v1/admin/organizations/${northwind.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ ...northwind, name: 'NW', active: false });
  });

  it('lists organisations by name', async () => {
    await makeOrganization(t.db, { name: 'zeta sort' });
    await makeOrganization(t.db, { name: 'Alpha sort' });
    const names = (await request('GET', '/v1/admin/organizations'))
      .json()
      .organizations.map((o: { name: string }) => o.name)
      .filter((name: string) => name.endsWith(' sort'));
    expect(names).toEqual(['Alpha sort', 'zeta sort']);
  });

  it('validates input and answers 404 for unknown ids', async () => {
    const cases = [
      ['POST', '/v1/admin/organizations', {}, 'body.name is required'],
      ['POST', '/v1/admin/organizations', { name: '  ' }, 'body.name must not be blank'],
      [
        'POST',
        '/v1/admin/organizations',
        { name: 'x'.repeat(201) },
        'body.name must NOT have more',
      ],
      ['POST', '/v1/admin/organizations', { name: 'A', extra: 1 }, 'body.extra is not allowed'],
      [
        'POST',
        '/v1/admin/organizations',
        { name: 'A\u0000B' },
        'body.name contains a character that cannot be stored',
      ],
      [
        'PUT',
        `/v1/admin/organizations/${admin.organization.id}`,
        { name: 'A\u0000' },
        'body.name contains a character that cannot be stored',
      ],
      ['PUT', `/v1/admin/organizations/${admin.organization.id}`, { active: 'no' }, 'body.active'],
      ['PUT', `/v1/admin/organizations/${admin.organization.id}`, { name: '' }, 'body.name'],
      ['PUT', '/v1/admin/organizations/nope', { name: 'A' }, 'params.id must be a valid uuid'],
      [
        'GET',
        '/v1/admin/organizations?include_stats=maybe',
        undefined,
        'querystring.include_stats',
      ],
      ['GET', '/v1/admin/organizations?page=2', undefined, 'querystring.page is not allowed'],
      ['GET', '/v1/admin/organizations/123', undefined, 'params.id must be a valid uuid'],
      ['DELETE', '/v1/admin/organizations/123', undefined, 'params.id must be a valid uuid'],
    ] as const;
    for (const [method, url, payload, message] of cases) {
      const response = await request(method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'validation_error',
        message: expect.stringContaining(message),
      });
    }
    for (const [method, url, payload] of [
      ['GET', `/v1/admin/organizations/${UNKNOWN_ID}`, undefined],
      ['PUT', `/v1/admin/organizations/${UNKNOWN_ID}`, { name: 'A' }],
      ['DELETE', `/v1/admin/organizations/${UNKNOWN_ID}`, undefined],
      ['GET', `/v1/admin/organizations/${UNKNOWN_ID}/analytics`, undefined],
    ] as const) {
      const response = await request(method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Organization not found' });
    }
  });
});

describe('organisation figures', () => {
  it('counts accounts, VR users, sessions and devices of each organisation', async () => {
    const organization = await makeOrganization(t.db, { name: 'Figures Inc' });
    const other = await makeOrganization(t.db);
    await makeAccount(t.db, { organization_id: organization.id });
    await makeAccount(t.db, { organization_id: organization.id, role: 'admin' });
    await makeAccount(t.db, { organization_id: other.id });
    for (let i = 0; i < 3; i++) await makeVrUser(t.db, organization.id);
    await makeVrUser(t.db, other.id);

    const online = await makeDevice(t.db, organization.id, { last_seen_at: ago(5_000) });
    await makeDevice(t.db, organization.id, { last_seen_at: ago(t.config.offlineAfterMs - 1) });
    await makeDevice(t.db, organization.id, { last_seen_at: ago(t.config.offlineAfterMs + 1000) });
    await makeDevice(t.db, organization.id, { last_seen_at: null });
    await makeDevice(t.db, other.id, { last_seen_at: ago(1000) });

    const base = { organizationId: organization.id };
    await makeSession(t.db, { ...base, status: 'completed' });
    await makeSession(t.db, { ...base, status: 'completed' });
    await makeSession(t.db, { ...base, status: 'disconnected' });
    await makeSession(t.db, { ...base, status: 'active', deviceId: online.id });
    await makeSession(t.db, { organizationId: other.id, status: 'cancelled' });

    const expected = {
      total_users: 2,
      total_vr_users: 3,
      total_sessions: 4,
      active_sessions: 1,
      success_rate: 66.7, // 2 of the 3 ended sessions
      total_devices: 4,
      online_devices: 2,
    };
    const one = await request('GET', `/v1/admin/organizations/${organization.id}`);
    expect(one.json().stats).toEqual(expected);
    const list = (await request('GET', '/v1/admin/organizations?include_stats=true')).json();
    const listed = list.organizations.find((o: { id: string }) => o.id === organization.id);
    expect(listed.stats).toEqual(expected);
    expect(list.organizations.find((o: { id: string }) => o.id === other.id).stats).toMatchObject({
      total_users: 1,
      total_sessions: 1,
      success_rate: 0,
      online_devices: 1,
    });

    // A completed session that the headset reported as failed is not a success.
    await t.db
      .updateTable('sessions')
      .set({ success: false })
      .where('organization_id', '=', organization.id)
      .where('status', '=', 'completed')
      .execute();
    const after = await request('GET', `/v1/admin/organizations/${organization.id}`);
    expect(after.json().stats.success_rate).toBe(0);

    // Devices go offline as time passes.
    t.clock.advance(t.config.offlineAfterMs);
    const later = await request('GET', `/v1/admin/organizations/${organization.id}`);
    expect(later.json().stats.online_devices).toBe(0);
  });
});

describe('GET /v1/admin/organizations/:id/analytics', () => {
  it('reports top VR users, device usage and scenarios over the window', async () => {
    // Noon UTC today: the sessions below, hours and days ago, fall on the days they are meant to.
    const now = t.clock.now();
    t.clock.set(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 12)));
    const organization = await makeOrganization(t.db);
    const other = await makeOrganization(t.db);
    const anna = await makeVrUser(t.db, organization.id, { name: 'Anna' });
    const boris = await makeVrUser(t.db, organization.id, { name: 'Boris' });
    const quest = await makeDevice(t.db, organization.id, { name: 'Quest A', type: 'quest' });
    const pico = await makeDevice(t.db, organization.id, { name: 'Pico B', type: 'pico' });
    const fire = await makeScenarioTree(t.db, { scenarioName: 'Fire safety' });
    const base = { organizationId: organization.id };

    // Anna: 3 sessions, 2 successes of 3 ended; Boris: 2 sessions, 0 successes of 1 ended.
    await makeSession(t.db, {
      ...base,
      vrUserId: anna.id,
      vrUserName: 'Anna',
      deviceId: quest.id,
      scenarioId: fire.scenario.id,
      scenarioName: 'Old fire name',
      status: 'completed',
      completedTasks: 3,
      maxTasks: 3,
      startedAt: ago(1 * DAY_MS),
    });
    await makeSession(t.db, {
      ...base,
      vrUserId: anna.id,
      vrUserName: 'Anna',
      deviceId: quest.id,
      scenarioId: fire.scenario.id,
      scenarioName: 'Fire safety',
      status: 'completed',
      completedTasks: 4,
      maxTasks: 4,
      startedAt: ago(2 * DAY_MS),
    });
    await makeSession(t.db, {
      ...base,
      vrUserId: anna.id,
      vrUserName: 'Anna',
      deviceId: pico.id,
      scenarioName: 'Flood',
      status: 'cancelled',
      completedTasks: 1,
      maxTasks: 4,
      startedAt: ago(3 * DAY_MS),
    });
    await makeSession(t.db, {
      ...base,
      vrUserId: boris.id,
      vrUserName: 'Boris',
      deviceId: pico.id,
      scenarioId: fire.scenario.id,
      scenarioName: 'Fire safety',
      status: 'timeout',
      completedTasks: 1,
      maxTasks: 3,
      startedAt: ago(4 * DAY_MS),
    });
    await makeSession(t.db, {
      ...base,
      vrUserId: boris.id,
      vrUserName: 'Boris',
      deviceId: pico.id,
      scenarioName: 'Flood',
      status: 'active',
      startedAt: ago(60_000),
    });
    // A session on a device deleted since keeps its recorded name.
    await makeSession(t.db, {
      ...base,
      vrUserName: 'Ghost',
      deviceName: 'Old headset',
      deviceType: 'oculus',
      scenarioName: 'Flood',
      status: 'completed',
      completedTasks: 2,
      maxTasks: 2,
      startedAt: ago(5 * DAY_MS),
    });
    // Outside the 30-day window, and another organisation's: not counted.
    await makeSession(t.db, {
      ...base,
      vrUserId: boris.id,
      deviceId: quest.id,
      startedAt: ago(31 * DAY_MS),
    });
    await makeSession(t.db, { organizationId: other.id, startedAt: ago(DAY_MS) });

    const response = await request('GET', `/v1/admin/organizations/${organization.id}/analytics`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      days: 30,
      ...lastDays(30, t.clock.now()),
      top_vr_users: [
        { vr_user_id: anna.id, name: 'Anna', session_count: 3, success_rate: 66.7 },
        { vr_user_id: boris.id, name: 'Boris', session_count: 2, success_rate: 0 },
        { vr_user_id: null, name: 'Ghost', session_count: 1, success_rate: 100 },
      ],
      device_usage: [
        { device_id: pico.id, device_name: 'Pico B', device_type: 'pico', session_count: 3 },
        { device_id: quest.id, device_name: 'Quest A', device_type: 'quest', session_count: 2 },
        { device_id: null, device_name: 'Old headset', device_type: 'oculus', session_count: 1 },
      ],
      scenario_stats: [
        // Grouped by scenario while it exists, under its current name.
        {
          scenario_name: 'Fire safety',
          scenario_name_en: null,
          session_count: 3,
          success_rate: 66.7,
          average_completion: 77.8,
        },
        // cancelled 1/4 and completed 2/2 ended; the active session is not counted.
        {
          scenario_name: 'Flood',
          scenario_name_en: null,
          session_count: 3,
          success_rate: 50,
          average_completion: 62.5,
        },
      ],
    });

    const wider = await request(
      'GET',
      `/v1/admin/organizations/${organization.id}/analytics?days=60`,
    );
    expect(wider.json().days).toBe(60);
    expect(wider.json().top_vr_users.slice(0, 2)).toEqual([
      { vr_user_id: anna.id, name: 'Anna', session_count: 3, success_rate: 66.7 },
      { vr_user_id: boris.id, name: 'Boris', session_count: 3, success_rate: 50 },
    ]);

    // The window is whole UTC days, the statistics' period: one day is today's sessions alone
    // (Anna's of 24 hours ago started yesterday).
    const narrow = await request(
      'GET',
      `/v1/admin/organizations/${organization.id}/analytics?days=1`,
    );
    expect(narrow.json()).toMatchObject(lastDays(1, t.clock.now()));
    expect(narrow.json().top_vr_users).toEqual([
      { vr_user_id: boris.id, name: 'Boris', session_count: 1, success_rate: 0 },
    ]);
  });

  it('keeps the top 10 exact when session counts tie at the cut, by current name', async () => {
    const organization = await makeOrganization(t.db);
    const zed = await makeVrUser(t.db, organization.id, { name: 'Zed' });
    for (let i = 0; i < 2; i++) {
      await makeSession(t.db, {
        organizationId: organization.id,
        vrUserId: zed.id,
        vrUserName: 'Zed',
        startedAt: ago(DAY_MS),
      });
    }
    // Forty with one session each, made in reverse order; one renamed since its session.
    for (let n = 39; n >= 0; n--) {
      const name = `User ${String(n + 1).padStart(2, '0')}`;
      const person = await makeVrUser(t.db, organization.id, { name });
      await makeSession(t.db, {
        organizationId: organization.id,
        vrUserId: person.id,
        vrUserName: name,
        startedAt: ago(DAY_MS),
      });
      if (n === 0) {
        await t.db
          .updateTable('vr_users')
          .set({ name: 'Yannick' })
          .where('id', '=', person.id)
          .execute();
      }
    }
    const response = await request('GET', `/v1/admin/organizations/${organization.id}/analytics`);
    expect(response.statusCode).toBe(200);
    const top = (
      response.json() as { top_vr_users: Array<{ name: string; session_count: number }> }
    ).top_vr_users;
    expect(top.map((user) => [user.name, user.session_count])).toEqual([
      ['Zed', 2],
      ...Array.from({ length: 9 }, (_, i) => [`User ${String(i + 2).padStart(2, '0')}`, 1]),
    ]);
  });

  it('lists at most 10 VR users, most sessions first', async () => {
    const organization = await makeOrganization(t.db);
    for (let i = 0; i < 12; i++) {
      const user = await makeVrUser(t.db, organization.id, {
        name: `Trainee ${String(i).padStart(2, '0')}`,
      });
      for (let n = 0; n < (i === 11 ? 3 : 1); n++) {
        await makeSession(t.db, {
          organizationId: organization.id,
          vrUserId: user.id,
          startedAt: ago(DAY_MS),
        });
      }
    }
    const body = (
      await request('GET', `/v1/admin/organizations/${organization.id}/analytics`)
    ).json();
    expect(body.top_vr_users).toHaveLength(10);
    expect(body.top_vr_users.map((u: { name: string }) => u.name)).toEqual([
      'Trainee 11',
      ...Array.from({ length: 9 }, (_, i) => `Trainee 0${i}`),
    ]);
  });

  it('answers empty lists for an organisation without sessions, and validates days', async () => {
    const organization = await makeOrganization(t.db);
    const empty = await request(
      'GET',
      `/v1/admin/organizations/${organization.id}/analytics?days=7`,
    );
    expect(empty.json()).toEqual({
      days: 7,
      ...lastDays(7, t.clock.now()),
      top_vr_users: [],
      device_usage: [],
      scenario_stats: [],
    });
    for (const days of ['0', '366', 'abc', '1.5']) {
      const response = await request(
        'GET',
        `/v1/admin/organizations/${organization.id}/analytics?days=${days}`,
      );
      expect(response.statusCode, days).toBe(400);
      expect(response.json().message).toContain('querystring.days');
    }
    expect(
      (await request('GET', `/v1/admin/organizations/${organization.id}/analytics?days=365`))
        .statusCode,
    ).toBe(200);
  });
});

describe('DELETE /v1/admin/organizations/:id', () => {
  it('refuses while the organisation has accounts, saying what it has', async () => {
    const organization = await makeOrganization(t.db, { name: 'Busy' });
    await makeAccount(t.db, { organization_id: organization.id });
    await makeVrUser(t.db, organization.id);
    await makeVrUser(t.db, organization.id);
    const response = await request('DELETE', `/v1/admin/organizations/${organization.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'organization_in_use',
      message:
        'Cannot delete Busy - it has 1 account(s), 2 VR user(s). Deactivate the organization instead.',
      details: { name: 'Busy', accounts: 1, vr_users: 2, devices: 0, sessions: 0 },
    });
    const still = await t.db
      .selectFrom('organizations')
      .select('id')
      .where('id', '=', organization.id)
      .execute();
    expect(still).toHaveLength(1);
  });

  it('refuses while it has devices or sessions', async () => {
    const organization = await makeOrganization(t.db, { name: 'Headsets' });
    const device = await makeDevice(t.db, organization.id);
    await makeSession(t.db, { organizationId: organization.id, deviceId: device.id });
    const response = await request('DELETE', `/v1/admin/organizations/${organization.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      'Cannot delete Headsets - it has 1 device(s), 1 session(s). Deactivate the organization instead.',
    );
  });

  it('deletes an empty organisation with its grants and enrolment code', async () => {
    const organization = await makeOrganization(t.db);
    const tree = await makeScenarioTree(t.db);
    await grantAccess(t.db, tree.scenario.id, organization.id, null);
    await t.db
      .insertInto('enrollment_codes')
      .values({
        organization_id: organization.id,
        code: `C${organization.id.slice(0, 7)}`,
        created_at: t.clock.now(),
        expires_at: new Date(t.clock.now().getTime() + DAY_MS),
      })
      .execute();
    const response = await request('DELETE', `/v1/admin/organizations/${organization.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect((await request('GET', `/v1/admin/organizations/${organization.id}`)).statusCode).toBe(
      404,
    );
    const grants = await t.db
      .selectFrom('scenario_access')
      .select('scenario_id')
      .where('organization_id', '=', organization.id)
      .execute();
    const codes = await t.db
      .selectFrom('enrollment_codes')
      .select('code')
      .where('organization_id', '=', organization.id)
      .execute();
    expect(grants).toEqual([]);
    expect(codes).toEqual([]);
    const scenario = await t.db
      .selectFrom('scenarios')
      .select('id')
      .where('id', '=', tree.scenario.id)
      .execute();
    expect(scenario).toHaveLength(1);
  });
});

describe('deactivation', () => {
  it('refuses to deactivate the admin’s own organisation', async () => {
    const response = await request('PUT', `/v1/admin/organizations/${admin.organization.id}`, {
      active: false,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'cannot_deactivate_own_organization',
      message: 'You cannot deactivate your own organization: you would lose access to the console.',
    });
    const me = await t.app.inject({ url: '/v1/me', headers: admin.headers });
    expect(me.statusCode).toBe(200);
    // Renaming it is fine.
    const renamed = await request('PUT', `/v1/admin/organizations/${admin.organization.id}`, {
      name: 'Platform HQ',
      active: true,
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('signs out the organisation’s accounts at once, also after reactivation', async () => {
    const member = await makeTenant(t);
    expect((await t.app.inject({ url: '/v1/me', headers: member.headers })).statusCode).toBe(200);
    const off = await request('PUT', `/v1/admin/organizations/${member.organization.id}`, {
      active: false,
    });
    expect(off.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/me', headers: member.headers })).statusCode).toBe(401);
    await request('PUT', `/v1/admin/organizations/${member.organization.id}`, { active: true });
    expect((await t.app.inject({ url: '/v1/me', headers: member.headers })).statusCode).toBe(401);
    const fresh = await issueToken(t, member.account.id);
    expect((await t.app.inject({ url: '/v1/me', headers: bearer(fresh.token) })).statusCode).toBe(
      200,
    );
  });
});

describe('access', () => {
  it('is admin-only on every route', async () => {
    const client = await makeTenant(t);
    const id = client.organization.id;
    const routes = [
      ['GET', '/v1/admin/organizations', undefined],
      ['POST', '/v1/admin/organizations', { name: 'X' }],
      ['GET', `/v1/admin/organizations/${id}`, undefined],
      ['PUT', `/v1/admin/organizations/${id}`, { name: 'X' }],
      ['DELETE', `/v1/admin/organizations/${id}`, undefined],
      ['GET', `/v1/admin/organizations/${id}/analytics`, undefined],
    ] as const;
    for (const [method, url, payload] of routes) {
      const asClient = await t.app.inject({
        method,
        url,
        headers: client.headers,
        ...(payload ? { payload } : {}),
      });
      expect(asClient.statusCode, `${method} ${url}`).toBe(403);
      expect(asClient.json().error).toBe('forbidden');
      const anonymous = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
    }
    const untouched = await t.db
      .selectFrom('organizations')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(untouched.name).toBe(client.organization.name);
  });
});
