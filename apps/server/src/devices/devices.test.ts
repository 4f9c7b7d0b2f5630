import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeDevice, makeSession, makeTenant, markDeviceSeen } from '../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

interface DeviceBody {
  id: string;
  name: string;
  status: string;
  current_session_id: string | null;
}

async function deviceIds(db: TestApp['db'], ids: string[]) {
  const rows = await db.selectFrom('devices').select('id').where('id', 'in', ids).execute();
  return rows.map((row) => row.id).sort();
}

describe('GET /v1/devices', () => {
  it("lists the organisation's devices by name with every field", async () => {
    const { headers, organization } = await makeTenant(t, { organizationName: 'Acme Training' });
    const other = await makeTenant(t);
    await makeDevice(t.db, other.organization.id, { name: 'Foreign' });
    const seenAt = t.clock.now();
    const bravo = await makeDevice(t.db, organization.id, {
      name: 'bravo',
      type: 'pico',
      movement_type: 'teleport',
      last_seen_at: seenAt,
    });
    await makeDevice(t.db, organization.id, { name: 'Alpha' });
    await makeDevice(t.db, organization.id, { name: 'Charlie' });
    await t.db
      .updateTable('devices')
      .set({ battery_percent: 76, app_version: '1.4.2' })
      .where('id', '=', bravo.id)
      .execute();

    const response = await t.app.inject({ url: '/v1/devices', headers });
    expect(response.statusCode).toBe(200);
    const { devices } = response.json();
    expect(devices.map((d: DeviceBody) => d.name)).toEqual(['Alpha', 'bravo', 'Charlie']);
    expect(devices[1]).toEqual({
      id: bravo.id,
      name: 'bravo',
      type: 'pico',
      status: 'waiting',
      last_seen: seenAt.toISOString(),
      current_session_id: null,
      organization_id: organization.id,
      organization_name: 'Acme Training',
      movement_type: 'teleport',
      battery_percent: 76,
      app_version: '1.4.2',
      pending_reports: 0,
      created_at: bravo.created_at.toISOString(),
    });
    expect(devices[0]).toMatchObject({
      status: 'offline',
      last_seen: null,
      battery_percent: null,
      app_version: null,
      movement_type: 'slide',
    });
  });

  it('derives waiting, offline and in_session as time passes, and filters by them', async () => {
    const { headers, organization } = await makeTenant(t);
    const device = await makeDevice(t.db, organization.id, { name: 'Quest 1' });
    const statusNow = async () => {
      const all = (await t.app.inject({ url: '/v1/devices', headers })).json().devices;
      const byStatus: Record<string, string[]> = {};
      for (const status of ['waiting', 'in_session', 'offline']) {
        const list = await t.app.inject({ url: `/v1/devices?status=${status}`, headers });
        expect(list.statusCode).toBe(200);
        byStatus[status] = list.json().devices.map((d: DeviceBody) => d.id);
      }
      return { device: all[0] as DeviceBody, byStatus };
    };

    let now = await statusNow();
    expect(now.device.status).toBe('offline');
    expect(now.byStatus).toEqual({ waiting: [], in_session: [], offline: [device.id] });

    await markDeviceSeen(t.db, device.id, t.clock.now());
    now = await statusNow();
    expect(now.device.status).toBe('waiting');
    expect(now.byStatus).toEqual({ waiting: [device.id], in_session: [], offline: [] });

    t.clock.advance(t.config.offlineAfterMs - 1);
    expect((await statusNow()).device.status).toBe('waiting');
    t.clock.advance(1);
    now = await statusNow();
    expect(now.device.status).toBe('offline');
    expect(now.byStatus).toEqual({ waiting: [], in_session: [], offline: [device.id] });

    await markDeviceSeen(t.db, device.id, t.clock.now());
    const session = await makeSession(t.db, {
      organizationId: organization.id,
      deviceId: device.id,
      status: 'active',
      startedAt: t.clock.now(),
    });
    now = await statusNow();
    expect(now.device).toMatchObject({ status: 'in_session', current_session_id: session.id });
    expect(now.byStatus).toEqual({ waiting: [], in_session: [device.id], offline: [] });

    // In session wins over silence: the sweeper, not the list, ends a silent session.
    t.clock.advance(t.config.offlineAfterMs * 2);
    expect((await statusNow()).device.status).toBe('in_session');
  });

  it('validates the status filter', async () => {
    const { headers } = await makeTenant(t);
    const bad = await t.app.inject({ url: '/v1/devices?status=online', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'validation_error' });
    expect(bad.json().message).toContain('querystring.status');
    const extra = await t.app.inject({ url: '/v1/devices?colour=red', headers });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toBe('querystring.colour is not allowed');
    const anonymous = await t.app.inject({ url: '/v1/devices' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('DELETE /v1/devices/:id', () => {
  it('deletes the device; its sessions keep the device name', async () => {
    const { headers, organization } = await makeTenant(t);
    const device = await makeDevice(t.db, organization.id, { name: 'Old Quest', token_hash: 'h1' });
    const past = await makeSession(t.db, {
      organizationId: organization.id,
      deviceId: device.id,
      deviceName: 'Old Quest',
    });
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/v1/devices/${device.id}`,
      headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect(await deviceIds(t.db, [device.id])).toEqual([]);
    const kept = await t.db
      .selectFrom('sessions')
      .select(['device_id', 'device_name'])
      .where('id', '=', past.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ device_id: null, device_name: 'Old Quest' });
  });

  it('refuses while the device has an active session', async () => {
    const { headers, organization } = await makeTenant(t);
    const device = await makeDevice(t.db, organization.id);
    await makeSession(t.db, {
      organizationId: organization.id,
      deviceId: device.id,
      status: 'active',
    });
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/v1/devices/${device.id}`,
      headers,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'device_in_session',
      message: 'Cannot delete device during active session',
    });
    expect(await deviceIds(t.db, [device.id])).toEqual([device.id]);
  });

  it("answers 404 for another organisation's device and unknown ids, 400 for a bad id", async () => {
    const { headers } = await makeTenant(t);
    const other = await makeTenant(t);
    const foreign = await makeDevice(t.db, other.organization.id);
    for (const id of [foreign.id, UNKNOWN_ID]) {
      const response = await t.app.inject({ method: 'DELETE', url: `/v1/devices/${id}`, headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Device not found' });
    }
    expect(await deviceIds(t.db, [foreign.id])).toEqual([foreign.id]);
    const bad = await t.app.inject({ method: 'DELETE', url: '/v1/devices/nope', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('params.id must be a valid uuid');
  });
});

describe('PUT /v1/devices/:id/movement-type', () => {
  it('changes the movement type and answers the device', async () => {
    const { headers, organization } = await makeTenant(t);
    const device = await makeDevice(t.db, organization.id, { name: 'Pico A', type: 'pico' });
    const response = await t.app.inject({
      method: 'PUT',
      url: `/v1/devices/${device.id}/movement-type`,
      headers,
      payload: { movement_type: 'teleport' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: device.id,
      name: 'Pico A',
      type: 'pico',
      movement_type: 'teleport',
      status: 'offline',
      organization_name: organization.name,
    });
    const back = await t.app.inject({
      method: 'PUT',
      url: `/v1/devices/${device.id}/movement-type`,
      headers,
      payload: { movement_type: 'slide' },
    });
    expect(back.json().movement_type).toBe('slide');
    const row = await t.db
      .selectFrom('devices')
      .select('movement_type')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(row.movement_type).toBe('slide');
  });

  it('validates the body and hides other organisations’ devices', async () => {
    const { headers, organization } = await makeTenant(t);
    const device = await makeDevice(t.db, organization.id);
    const url = `/v1/devices/${device.id}/movement-type`;
    const cases = [
      [{}, 'body.movement_type is required'],
      [{ movement_type: 'fly' }, 'body.movement_type'],
      [{ movement_type: 'slide', speed: 2 }, 'body.speed is not allowed'],
    ] as const;
    for (const [payload, message] of cases) {
      const response = await t.app.inject({ method: 'PUT', url, headers, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    const other = await makeTenant(t);
    const foreign = await makeDevice(t.db, other.organization.id, { movement_type: 'slide' });
    const response = await t.app.inject({
      method: 'PUT',
      url: `/v1/devices/${foreign.id}/movement-type`,
      headers,
      payload: { movement_type: 'teleport' },
    });
    expect(response.statusCode).toBe(404);
    const row = await t.db
      .selectFrom('devices')
      .select('movement_type')
      .where('id', '=', foreign.id)
      .executeTakeFirstOrThrow();
    expect(row.movement_type).toBe('slide');
  });
});

describe('admin devices', () => {
  it('refuses client tokens on every admin device route', async () => {
    const { headers, organization } = await makeTenant(t);
    const device = await makeDevice(t.db, organization.id);
    const calls = [
      { method: 'GET', url: '/v1/admin/devices/all' },
      { method: 'DELETE', url: `/v1/admin/devices/${device.id}` },
      {
        method: 'POST',
        url: '/v1/admin/devices/bulk-delete',
        payload: { device_ids: [device.id] },
      },
    ] as const;
    for (const call of calls) {
      const response = await t.app.inject({ ...call, headers });
      expect(response.statusCode, call.url).toBe(403);
      expect(response.json().error).toBe('forbidden');
    }
    expect(await deviceIds(t.db, [device.id])).toEqual([device.id]);
  });

  it('lists devices of every organisation with filters', async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    const orgA = await makeTenant(t, { organizationName: 'Org A' });
    const orgB = await makeTenant(t, { organizationName: 'Org B' });
    const a1 = await makeDevice(t.db, orgA.organization.id, {
      name: 'A1',
      type: 'pico',
      last_seen_at: t.clock.now(),
    });
    const a2 = await makeDevice(t.db, orgA.organization.id, {
      name: 'A2',
      type: 'quest',
      movement_type: 'teleport',
    });
    const b1 = await makeDevice(t.db, orgB.organization.id, { name: 'B1', type: 'pico' });
    await makeSession(t.db, {
      organizationId: orgB.organization.id,
      deviceId: b1.id,
      status: 'active',
    });

    const list = async (query: string) => {
      const response = await t.app.inject({
        url: `/v1/admin/devices/all${query}`,
        headers: admin.headers,
      });
      expect(response.statusCode, query).toBe(200);
      const ours = new Set([a1.id, a2.id, b1.id]);
      return response
        .json()
        .devices.filter((d: DeviceBody) => ours.has(d.id))
        .map((d: DeviceBody) => d.name);
    };
    expect(await list('')).toEqual(['A1', 'A2', 'B1']);
    expect(await list(`?organization_id=${orgA.organization.id}`)).toEqual(['A1', 'A2']);
    expect(await list('?status=waiting')).toEqual(['A1']);
    expect(await list('?status=in_session')).toEqual(['B1']);
    expect(await list('?status=offline')).toEqual(['A2']);
    expect(await list('?device_type=pico')).toEqual(['A1', 'B1']);
    expect(await list('?movement_type=teleport')).toEqual(['A2']);
    expect(await list(`?organization_id=${orgB.organization.id}&device_type=quest`)).toEqual([]);

    const full = await t.app.inject({
      url: `/v1/admin/devices/all?organization_id=${orgB.organization.id}`,
      headers: admin.headers,
    });
    expect(full.json().devices).toEqual([
      expect.objectContaining({
        id: b1.id,
        organization_id: orgB.organization.id,
        organization_name: 'Org B',
        status: 'in_session',
      }),
    ]);

    for (const [query, field] of [
      ['?organization_id=x', 'querystring.organization_id'],
      ['?status=gone', 'querystring.status'],
      ['?device_type=vive', 'querystring.device_type'],
      ['?movement_type=walk', 'querystring.movement_type'],
      ['?search=a', 'querystring.search'],
    ]) {
      const bad = await t.app.inject({
        url: `/v1/admin/devices/all${query}`,
        headers: admin.headers,
      });
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().message).toContain(field);
    }
  });

  it("deletes any organisation's device, except during a session", async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    const other = await makeTenant(t);
    const free = await makeDevice(t.db, other.organization.id);
    const busy = await makeDevice(t.db, other.organization.id);
    await makeSession(t.db, {
      organizationId: other.organization.id,
      deviceId: busy.id,
      status: 'active',
    });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/devices/${free.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode).toBe(200);
    const refused = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/devices/${busy.id}`,
      headers: admin.headers,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'device_in_session',
      message: 'Cannot delete device during active session',
    });
    const unknown = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/devices/${free.id}`,
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
    expect(await deviceIds(t.db, [free.id, busy.id])).toEqual([busy.id]);
  });

  it('bulk-deletes, skipping devices in session and unknown ids', async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    const orgA = await makeTenant(t);
    const orgB = await makeTenant(t);
    const a = await makeDevice(t.db, orgA.organization.id);
    const b = await makeDevice(t.db, orgB.organization.id);
    const busy = await makeDevice(t.db, orgA.organization.id);
    await makeSession(t.db, {
      organizationId: orgA.organization.id,
      deviceId: busy.id,
      status: 'active',
    });

    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/devices/bulk-delete',
      headers: admin.headers,
      payload: { device_ids: [a.id, busy.id, UNKNOWN_ID, b.id, a.id] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      deleted: [a.id, b.id],
      skipped: [
        { id: busy.id, reason: 'device_in_session' },
        { id: UNKNOWN_ID, reason: 'not_found' },
      ],
    });
    expect(await deviceIds(t.db, [a.id, b.id, busy.id])).toEqual([busy.id]);
  });

  it('validates the bulk-delete body', async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    const tooMany = Array.from({ length: 501 }, () => UNKNOWN_ID);
    const cases = [
      [{}, 'body.device_ids is required'],
      [{ device_ids: [] }, 'body.device_ids must NOT have fewer than 1 items'],
      [{ device_ids: tooMany }, 'body.device_ids must NOT have more than 500 items'],
      [{ device_ids: ['abc'] }, 'body.device_ids.0 must be a valid uuid'],
      [{ device_ids: UNKNOWN_ID }, 'body.device_ids must be array'],
      [{ device_ids: [UNKNOWN_ID], force: true }, 'body.force is not allowed'],
    ] as const;
    for (const [payload, message] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/admin/devices/bulk-delete',
        headers: admin.headers,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json().message).toBe(message);
    }
  });
});
