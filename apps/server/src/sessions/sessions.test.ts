import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYSTEM } from '../audit/audit.ts';
import { createTestApp, untilWaitingOnLocks, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeDevice,
  makeEnrolledDevice,
  makeScenarioTree,
  makeSession,
  makeStartableSetup,
  makeTenant,
  makeTenantInSession,
  makeVrUser,
  markDeviceSeen,
} from '../../test/factories.ts';
import { endActiveSession, recordSessionEnd } from './session-end.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
type Headers = Record<string, string>;

function start(headers: Headers, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/v1/sessions/start', headers, payload });
}

async function vrUserNames(organizationId: string) {
  const rows = await t.db
    .selectFrom('vr_users')
    .select('name')
    .where('organization_id', '=', organizationId)
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}

async function activeSessionCount(deviceId: string) {
  const rows = await t.db
    .selectFrom('sessions')
    .select('id')
    .where('device_id', '=', deviceId)
    .where('status', '=', 'active')
    .execute();
  return rows.length;
}

describe('POST /v1/sessions/start', () => {
  it('starts a session with snapshot names and creates the VR user', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id, {
      deviceName: 'Quest 7',
      scenarioName: 'Fire safety',
      optionNames: ['Night', 'Rain', 'Smoke'],
    });
    const [night, , smoke] = setup.options;
    const response = await start(tenant.headers, {
      device_id: setup.device.id,
      level_id: setup.level.id,
      vr_user_name: '  Ivan Petrov ',
      selected_options: [smoke!.id, night!.id],
    });
    expect(response.statusCode).toBe(201);
    const session = response.json();
    const vrUser = await t.db
      .selectFrom('vr_users')
      .selectAll()
      .where('organization_id', '=', tenant.organization.id)
      .executeTakeFirstOrThrow();
    expect(vrUser.name).toBe('Ivan Petrov');
    expect(session).toEqual({
      id: expect.any(String),
      vr_user_name: 'Ivan Petrov',
      vr_user_id: vrUser.id,
      device_id: setup.device.id,
      device_name: 'Quest 7',
      scenario_name: 'Fire safety',
      module_name: 'Module 1',
      level_name: 'Level 1',
      scenario_name_en: null,
      module_name_en: null,
      level_name_en: null,
      level_number: 1,
      level_revision: expect.any(Number),
      status: 'active',
      completed_tasks: 0,
      total_tasks: 3,
      max_tasks: 3,
      duration_seconds: null,
      started_by_email: tenant.account.email,
      started_at: t.clock.now().toISOString(),
      ended_at: null,
      success: null,
      selected_options: [
        { id: night!.id, name: 'Night', name_en: null },
        { id: smoke!.id, name: 'Smoke', name_en: null },
      ],
      late_result: false,
      ended_by_server_as: null,
    });

    const devices = await t.app.inject({ url: '/v1/devices', headers: tenant.headers });
    expect(devices.json().devices).toEqual([
      expect.objectContaining({ status: 'in_session', current_session_id: session.id }),
    ]);
    const row = await t.db
      .selectFrom('sessions')
      .select(['started_by_account_id', 'device_type', 'scenario_id', 'module_id', 'level_id'])
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      started_by_account_id: tenant.account.id,
      device_type: 'quest',
      scenario_id: setup.scenario.id,
      module_id: setup.module.id,
      level_id: setup.level.id,
    });
  });

  it('matches an existing VR user by name (trimmed, any case), or by id', async () => {
    const tenant = await makeTenant(t);
    const anna = await makeVrUser(t.db, tenant.organization.id, { name: 'Anna Smirnova' });
    const first = await makeStartableSetup(t, tenant.organization.id);
    const byName = await start(tenant.headers, {
      device_id: first.device.id,
      level_id: first.level.id,
      vr_user_name: ' anna SMIRNOVA  ',
    });
    expect(byName.statusCode).toBe(201);
    expect(byName.json()).toMatchObject({
      vr_user_id: anna.id,
      vr_user_name: 'Anna Smirnova',
      selected_options: [],
    });

    const second = await makeStartableSetup(t, tenant.organization.id);
    const byId = await start(tenant.headers, {
      device_id: second.device.id,
      level_id: second.level.id,
      vr_user_name: 'Whatever is typed',
      vr_user_id: anna.id,
    });
    expect(byId.statusCode).toBe(201);
    expect(byId.json()).toMatchObject({ vr_user_id: anna.id, vr_user_name: 'Anna Smirnova' });
    expect(await vrUserNames(tenant.organization.id)).toEqual(['Anna Smirnova']);
  });

  it("answers 404 for another organisation's VR user id, device or unknown ids", async () => {
    const tenant = await makeTenant(t);
    const other = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const foreignUser = await makeVrUser(t.db, other.organization.id, { name: 'Foreigner' });
    const foreignSetup = await makeStartableSetup(t, other.organization.id);

    const cases = [
      [{ vr_user_id: foreignUser.id }, 'VR user not found'],
      [{ vr_user_id: UNKNOWN_ID }, 'VR user not found'],
      [{ device_id: foreignSetup.device.id }, 'Device not found'],
      [{ device_id: UNKNOWN_ID }, 'Device not found'],
      [{ level_id: UNKNOWN_ID }, 'Level not found'],
    ] as const;
    for (const [override, message] of cases) {
      const response = await start(tenant.headers, {
        device_id: setup.device.id,
        level_id: setup.level.id,
        vr_user_name: 'Foreigner',
        ...override,
      });
      expect(response.statusCode, JSON.stringify(override)).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message });
    }
    expect(await vrUserNames(tenant.organization.id)).toEqual([]);
    expect(await activeSessionCount(foreignSetup.device.id)).toBe(0);
    expect(await activeSessionCount(setup.device.id)).toBe(0);
  });

  it('needs a live grant on an active scenario for the level', async () => {
    const tenant = await makeTenant(t);
    const device = await makeDevice(t.db, tenant.organization.id, { last_seen_at: t.clock.now() });
    const now = t.clock.now();
    const ungranted = await makeScenarioTree(t.db);
    const expired = await makeScenarioTree(t.db);
    await grantAccess(
      t.db,
      expired.scenario.id,
      tenant.organization.id,
      new Date(now.getTime() - 1),
    );
    const otherOrgOnly = await makeScenarioTree(t.db);
    const other = await makeTenant(t);
    await grantAccess(t.db, otherOrgOnly.scenario.id, other.organization.id, null);
    const inactive = await makeScenarioTree(t.db);
    await grantAccess(t.db, inactive.scenario.id, tenant.organization.id, null);
    await t.db
      .updateTable('scenarios')
      .set({ active: false })
      .where('id', '=', inactive.scenario.id)
      .execute();

    for (const tree of [ungranted, expired, otherOrgOnly, inactive]) {
      const response = await start(tenant.headers, {
        device_id: device.id,
        level_id: tree.level.id,
        vr_user_name: 'Trainee',
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Level not found' });
    }

    const future = await makeScenarioTree(t.db);
    await grantAccess(
      t.db,
      future.scenario.id,
      tenant.organization.id,
      new Date(now.getTime() + 60_000),
    );
    const ok = await start(tenant.headers, {
      device_id: device.id,
      level_id: future.level.id,
      vr_user_name: 'Trainee',
    });
    expect(ok.statusCode).toBe(201);
  });

  it('refuses an offline device and a busy one', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const body = { device_id: setup.device.id, level_id: setup.level.id, vr_user_name: 'Oleg' };

    t.clock.advance(t.config.offlineAfterMs);
    const offline = await start(tenant.headers, body);
    expect(offline.statusCode).toBe(409);
    expect(offline.json()).toEqual({ error: 'device_not_waiting', message: 'Device is offline' });

    const neverSeen = await makeDevice(t.db, tenant.organization.id);
    const never = await start(tenant.headers, { ...body, device_id: neverSeen.id });
    expect(never.statusCode).toBe(409);
    expect(never.json().error).toBe('device_not_waiting');

    await markDeviceSeen(t.db, setup.device.id, t.clock.now());
    expect((await start(tenant.headers, body)).statusCode).toBe(201);
    const busy = await start(tenant.headers, body);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({
      error: 'device_busy',
      message: 'Device already has an active session',
    });
    expect(await activeSessionCount(setup.device.id)).toBe(1);
  });

  it('rejects an option that is not of the level, naming it', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const elsewhere = await makeScenarioTree(t.db, { optionNames: ['Fog'] });
    const foreign = elsewhere.options[0]!.id;
    for (const id of [foreign, UNKNOWN_ID]) {
      const response = await start(tenant.headers, {
        device_id: setup.device.id,
        level_id: setup.level.id,
        vr_user_name: 'New Person',
        selected_options: [setup.options[0]!.id, id],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('validation_error');
      expect(response.json().message).toContain('body.selected_options');
      expect(response.json().message).toContain(id);
    }
    expect(await vrUserNames(tenant.organization.id)).toEqual([]);
    expect(await activeSessionCount(setup.device.id)).toBe(0);
  });

  it('validates the body, naming the field', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const valid = { device_id: setup.device.id, level_id: setup.level.id, vr_user_name: 'A' };
    const cases = [
      [{ device_id: undefined }, 'body.device_id is required'],
      [{ level_id: undefined }, 'body.level_id is required'],
      [{ vr_user_name: undefined }, 'body.vr_user_name is required'],
      [{ vr_user_name: '   ' }, 'body.vr_user_name must not be blank'],
      [
        { vr_user_name: 'x'.repeat(201) },
        'body.vr_user_name must NOT have more than 200 characters',
      ],
      [{ device_id: 'abc' }, 'body.device_id must be a valid uuid'],
      [{ vr_user_id: 5 }, 'body.vr_user_id'],
      [{ selected_options: 'x' }, 'body.selected_options must be array'],
      [{ selected_options: ['x'] }, 'body.selected_options.0 must be a valid uuid'],
      [{ extra: 1 }, 'body.extra is not allowed'],
    ] as const;
    for (const [override, message] of cases) {
      const response = await start(tenant.headers, { ...valid, ...override });
      expect(response.statusCode, JSON.stringify(override)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    expect(await activeSessionCount(setup.device.id)).toBe(0);
  });

  it('lets exactly one of ten concurrent starts on one device through', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        start(tenant.headers, {
          device_id: setup.device.id,
          level_id: setup.level.id,
          vr_user_name: `Racer ${i}`,
        }),
      ),
    );
    const codes = responses.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, ...Array(9).fill(409)]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json().error).toBe('device_busy');
    }
    expect(await activeSessionCount(setup.device.id)).toBe(1);
  });

  it('creates one VR user for concurrent starts with the same new name', async () => {
    const tenant = await makeTenant(t);
    const setups = [];
    for (let i = 0; i < 4; i++) setups.push(await makeStartableSetup(t, tenant.organization.id));
    const responses = await Promise.all(
      setups.map((setup, i) =>
        start(tenant.headers, {
          device_id: setup.device.id,
          level_id: setup.level.id,
          vr_user_name: i % 2 ? 'Maria Ivanova' : 'maria ivanova',
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    expect(new Set(responses.map((r) => r.json().vr_user_id)).size).toBe(1);
    expect(await vrUserNames(tenant.organization.id)).toHaveLength(1);
  });
});

describe('GET /v1/sessions and /v1/sessions/active', () => {
  it('lists ended sessions newest first without a filter, any status with one', async () => {
    const tenant = await makeTenant(t);
    const other = await makeTenant(t);
    const day = (n: number) => new Date(`2026-02-0${n}T08:00:00Z`);
    const org = tenant.organization.id;
    await makeSession(t.db, {
      organizationId: org,
      status: 'completed',
      startedAt: day(1),
      scenarioName: 'S1',
    });
    await makeSession(t.db, {
      organizationId: org,
      status: 'cancelled',
      startedAt: day(2),
      scenarioName: 'S2',
    });
    await makeSession(t.db, {
      organizationId: org,
      status: 'timeout',
      startedAt: day(3),
      scenarioName: 'S3',
    });
    await makeSession(t.db, {
      organizationId: org,
      status: 'active',
      startedAt: day(4),
      scenarioName: 'S4',
    });
    await makeSession(t.db, {
      organizationId: other.organization.id,
      startedAt: day(5),
      scenarioName: 'X',
    });

    const names = (body: { sessions: Array<{ scenario_name: string }> }) =>
      body.sessions.map((s) => s.scenario_name);
    const all = await t.app.inject({ url: '/v1/sessions', headers: tenant.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 3, limit: 50, offset: 0 });
    expect(names(all.json())).toEqual(['S3', 'S2', 'S1']);
    expect(all.json().sessions[2]).toMatchObject({
      status: 'completed',
      completed_tasks: 3,
      total_tasks: 3,
      duration_seconds: 300,
      success: true,
      started_by_email: 'staff@example.com',
      started_at: '2026-02-01T08:00:00.000Z',
      ended_at: '2026-02-01T08:05:00.000Z',
      vr_user_name: 'Trainee',
      device_name: 'Headset',
      module_name: 'Module 1',
      level_name: 'Level 1',
      level_number: 1,
      selected_options: [],
    });

    for (const [status, expected] of [
      ['cancelled', ['S2']],
      ['active', ['S4']],
      ['disconnected', []],
    ] as const) {
      const response = await t.app.inject({
        url: `/v1/sessions?status=${status}`,
        headers: tenant.headers,
      });
      expect(response.statusCode).toBe(200);
      expect(names(response.json())).toEqual(expected);
      expect(response.json().total).toBe(expected.length);
    }

    const page = await t.app.inject({
      url: '/v1/sessions?limit=1&offset=1',
      headers: tenant.headers,
    });
    expect(page.json()).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(names(page.json())).toEqual(['S2']);

    for (const [query, field] of [
      ['status=running', 'querystring.status'],
      ['limit=0', 'querystring.limit'],
      ['limit=501', 'querystring.limit'],
      ['offset=-1', 'querystring.offset'],
      ['offset=1e20', 'querystring.offset'],
      ['sort=asc', 'querystring.sort'],
    ]) {
      const bad = await t.app.inject({ url: `/v1/sessions?${query}`, headers: tenant.headers });
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().message).toContain(field);
    }
  });

  it('lists active sessions with seconds active by the clock', async () => {
    const tenant = await makeTenant(t);
    const other = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id, { deviceName: 'Pico 2' });
    const started = await start(tenant.headers, {
      device_id: setup.device.id,
      level_id: setup.level.id,
      vr_user_name: 'Nina',
      selected_options: [setup.options[0]!.id],
    });
    await makeSession(t.db, { organizationId: other.organization.id, status: 'active' });
    t.clock.advance(125_400);
    const seenAt = new Date(t.clock.now().getTime() - 40_000);
    await markDeviceSeen(t.db, setup.device.id, seenAt);
    const response = await t.app.inject({ url: '/v1/sessions/active', headers: tenant.headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      active_sessions: [
        {
          id: started.json().id,
          vr_user_name: 'Nina',
          device_name: 'Pico 2',
          device_id: setup.device.id,
          scenario_name: setup.scenario.name,
          module_name: 'Module 1',
          level_name: 'Level 1',
          scenario_name_en: null,
          module_name_en: null,
          level_name_en: null,
          seconds_active: 125,
          completed_tasks: 0,
          max_tasks: 3,
          // The live card names the options the session was started with.
          selected_options: started.json().selected_options,
          started_at: started.json().started_at,
          tasks: [],
          device_last_seen_at: seenAt.toISOString(),
        },
      ],
      offline_after_ms: t.config.offlineAfterMs,
      disconnect_after_ms: t.config.disconnectAfterMs,
    });
    const history = await t.app.inject({ url: '/v1/sessions', headers: tenant.headers });
    expect(history.json().sessions).toEqual([]);
  });

  it("says when an active session's headset was last heard from, fresh from its heartbeats", async () => {
    const { tenant, headset, session } = await makeTenantInSession(t);
    const enrolled = headset;
    await markDeviceSeen(t.db, enrolled.device.id, null);
    const lastSeen = async () =>
      (await t.app.inject({ url: '/v1/sessions/active', headers: tenant.headers }))
        .json()
        .active_sessions.find((row: { id: string }) => row.id === session.id)?.device_last_seen_at;
    expect(await lastSeen()).toBeNull();

    t.clock.advance(3_000);
    const heardAt = t.clock.now().toISOString();
    const beat = await t.app.inject({
      method: 'POST',
      url: '/v1/headset/heartbeat',
      headers: enrolled.headers,
      payload: {},
    });
    expect(beat.statusCode).toBe(200);
    // Heartbeats are written in batches; the list reads what the last batch wrote.
    await t.app.lastSeen.flush();
    t.clock.advance(20_000);
    expect(await lastSeen()).toBe(heardAt);

    await t.db.deleteFrom('devices').where('id', '=', enrolled.device.id).execute();
    expect(await lastSeen()).toBeNull();
  });
});

describe('POST /v1/sessions/:id/cancel', () => {
  it('cancels an active session once', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const started = await start(tenant.headers, {
      device_id: setup.device.id,
      level_id: setup.level.id,
      vr_user_name: 'Pavel',
    });
    const id = started.json().id;
    t.clock.advance(90_000);
    await markDeviceSeen(t.db, setup.device.id, t.clock.now());
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({
      id,
      status: 'cancelled',
      duration_seconds: 90,
      ended_at: t.clock.now().toISOString(),
      success: false,
      vr_user_name: 'Pavel',
      total_tasks: 3,
    });
    const devices = await t.app.inject({ url: '/v1/devices', headers: tenant.headers });
    expect(devices.json().devices[0]).toMatchObject({
      status: 'waiting',
      current_session_id: null,
    });

    const again = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${id}/cancel`,
      headers: tenant.headers,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: 'session_not_active',
      message: 'Session is no longer active',
    });
  });

  it("answers 404 for another organisation's or an unknown session, 400 for a bad id", async () => {
    const tenant = await makeTenant(t);
    const other = await makeTenant(t);
    const foreign = await makeSession(t.db, {
      organizationId: other.organization.id,
      status: 'active',
    });
    for (const id of [foreign.id, UNKNOWN_ID]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/v1/sessions/${id}/cancel`,
        headers: tenant.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Session not found' });
    }
    const row = await t.db
      .selectFrom('sessions')
      .select('status')
      .where('id', '=', foreign.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('active');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/v1/sessions/123/cancel',
      headers: tenant.headers,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('params.id must be a valid uuid');
  });
});

describe('history survives later changes', () => {
  it('keeps the names after the device, level and scenario are renamed or deleted', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id, {
      deviceName: 'Quest Blue',
      scenarioName: 'Evacuation',
    });
    const started = await start(tenant.headers, {
      device_id: setup.device.id,
      level_id: setup.level.id,
      vr_user_name: 'Lena',
      selected_options: [setup.options[1]!.id],
    });
    const id = started.json().id;
    await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${id}/cancel`,
      headers: tenant.headers,
    });

    await t.db
      .updateTable('levels')
      .set({ name: 'Renamed level' })
      .where('id', '=', setup.level.id)
      .execute();
    await t.db
      .updateTable('scenarios')
      .set({ name: 'Renamed scenario' })
      .where('id', '=', setup.scenario.id)
      .execute();
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/devices/${setup.device.id}`,
      headers: tenant.headers,
    });
    expect(deleted.statusCode).toBe(200);
    await t.db.deleteFrom('scenarios').where('id', '=', setup.scenario.id).execute();

    const history = await t.app.inject({ url: '/v1/sessions', headers: tenant.headers });
    expect(history.json().sessions).toEqual([
      expect.objectContaining({
        id,
        device_id: null,
        device_name: 'Quest Blue',
        scenario_name: 'Evacuation',
        module_name: 'Module 1',
        level_name: 'Level 1',
        vr_user_name: 'Lena',
        status: 'cancelled',
        selected_options: [{ id: setup.options[1]!.id, name: 'Rain', name_en: null }],
      }),
    ]);
  });
});

describe('sessions in two languages', () => {
  it('record the English names of what they ran, for history and its export in English', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id, {
      scenarioName: 'Пожарная безопасность',
      optionNames: ['Дым'],
    });
    await t.db
      .updateTable('scenarios')
      .set({ name_en: 'Fire safety' })
      .where('id', '=', setup.scenario.id)
      .execute();
    await t.db
      .updateTable('modules')
      .set({ name_en: 'Evacuation' })
      .where('id', '=', setup.module.id)
      .execute();
    await t.db
      .updateTable('level_options')
      .set({ name_en: 'Smoke' })
      .where('id', '=', setup.options[0]!.id)
      .execute();
    const started = await start(tenant.headers, {
      device_id: setup.device.id,
      level_id: setup.level.id,
      vr_user_name: 'Anna',
      selected_options: [setup.options[0]!.id],
    });
    expect(started.json()).toMatchObject({
      scenario_name: 'Пожарная безопасность',
      scenario_name_en: 'Fire safety',
      module_name_en: 'Evacuation',
      level_name_en: null, // none given: the console shows the primary name
      selected_options: [{ id: setup.options[0]!.id, name: 'Дым', name_en: 'Smoke' }],
    });
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${started.json().id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancelled.statusCode).toBe(200);

    const exported = async (lang: string) => {
      const response = await t.app.inject({
        url: `/v1/sessions/export?lang=${lang}`,
        headers: tenant.headers,
      });
      // A Russian reader's spreadsheet splits on ';' (csv-language.test.ts).
      return response.body
        .split('\r\n')[1]!
        .split(lang === 'ru' ? ';' : ',')
        .slice(3, 6);
    };
    expect(await exported('en')).toEqual(['Fire safety', 'Evacuation', 'Level 1']);
    expect(await exported('ru')).toEqual(['Пожарная безопасность', 'Module 1', 'Level 1']);
  });
});

describe.runIf(inject('dbTemplate').kind === 'postgres')('starts beside ends (PostgreSQL)', () => {
  it('starts a session for a new trainee while another session of the organisation ends', async () => {
    const tenant = await makeTenant(t);
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const other = await makeEnrolledDevice(t.db, tenant.organization.id, {
      last_seen_at: t.clock.now(),
    });
    const first = await start(tenant.headers, {
      device_id: setup.device.id,
      level_id: setup.level.id,
      vr_user_name: 'First trainee',
    });
    expect(first.statusCode, first.body).toBe(201);

    // The first session ends (as the sweeper ends one): its update moves the day's rollup rows...
    let starting: ReturnType<typeof start> | undefined;
    await t.db.transaction().execute(async (trx) => {
      const ended = await endActiveSession(
        t.app.deviceEvents,
        trx,
        { sessionId: first.json<{ id: string }>().id },
        { status: 'disconnected', now: t.clock.now() },
      );
      // ...while a start for a trainee not seen before comes in and waits for those rows...
      starting = start(tenant.headers, {
        device_id: other.device.id,
        level_id: setup.level.id,
        vr_user_name: 'New trainee',
      });
      await untilWaitingOnLocks(t.db, 1);
      // ...then the end is audited, in the organisation's chain, and commits.
      await recordSessionEnd(trx, SYSTEM, t.clock.now(), 'session.disconnected', ended!);
    });
    // Both happen: neither is aborted as a deadlock (the start once answered 500).
    const started = await starting!;
    expect(started.statusCode, started.body).toBe(201);
    const actions = await t.db
      .selectFrom('audit_events')
      .select('action')
      .where('organization_id', '=', tenant.organization.id)
      .where('action', 'in', ['vr_user.created', 'session.started', 'session.disconnected'])
      .orderBy('seq')
      .execute();
    expect(actions.map((row) => row.action)).toEqual([
      'vr_user.created',
      'session.started',
      'session.disconnected',
      'vr_user.created',
      'session.started',
    ]);
  });
});
