import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEnrolledDevice, makeTenant } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { LastSeenBuffer } from './last-seen.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function heartbeat(headers: Record<string, string>, payload: object = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/headset/heartbeat', headers, payload });
}

async function storedDevice(id: string) {
  return t.db
    .selectFrom('devices')
    .select(['last_seen_at', 'battery_percent', 'app_version'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

async function listedStatus(headers: Record<string, string>, deviceId: string) {
  const response = await t.app.inject({ url: '/v1/devices', headers });
  expect(response.statusCode).toBe(200);
  const device = response
    .json<{ devices: Array<{ id: string; status: string }> }>()
    .devices.find((d) => d.id === deviceId);
  return device?.status;
}

describe('last seen', () => {
  it('keeps heartbeats in memory until a flush, then derives waiting and offline from it', async () => {
    const tenant = await makeTenant(t);
    const enrolledAt = t.clock.now();
    const headset = await makeEnrolledDevice(t.db, tenant.organization.id, {
      last_seen_at: enrolledAt,
    });

    t.clock.advance(t.config.offlineAfterMs + 1);
    expect(await listedStatus(tenant.headers, headset.device.id)).toBe('offline');
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    // The heartbeat itself wrote nothing.
    expect((await storedDevice(headset.device.id)).last_seen_at).toEqual(enrolledAt);

    await t.app.lastSeen.flush();
    expect((await storedDevice(headset.device.id)).last_seen_at).toEqual(t.clock.now());
    expect(await listedStatus(tenant.headers, headset.device.id)).toBe('waiting');

    t.clock.advance(t.config.offlineAfterMs + 1);
    expect(await listedStatus(tenant.headers, headset.device.id)).toBe('offline');
  });

  it('writes every buffered device with one flush, and nothing when nothing is buffered', async () => {
    const tenant = await makeTenant(t);
    const headsets = [];
    for (let i = 0; i < 50; i++) {
      headsets.push(await makeEnrolledDevice(t.db, tenant.organization.id, { last_seen_at: null }));
    }
    await t.app.lastSeen.flush(); // whatever earlier requests left behind
    t.clock.advance(1000);
    for (const headset of headsets) expect((await heartbeat(headset.headers)).statusCode).toBe(200);

    const flushed = await t.app.lastSeen.flush();
    expect(flushed).toEqual({ devices: 50, rowsUpdated: 50, dropped: [] });
    const ids = headsets.map((h) => h.device.id);
    const rows = await t.db
      .selectFrom('devices')
      .select('last_seen_at')
      .where('id', 'in', ids)
      .execute();
    expect(rows).toHaveLength(50);
    for (const row of rows) expect(row.last_seen_at).toEqual(t.clock.now());

    t.clock.advance(1000);
    expect(await t.app.lastSeen.flush()).toEqual({ devices: 0, rowsUpdated: 0, dropped: [] });
    const after = await t.db
      .selectFrom('devices')
      .select('last_seen_at')
      .where('id', 'in', ids)
      .execute();
    expect(after).toEqual(rows);
  });

  it('stores battery and app version, only writing rows whose values changed', async () => {
    const tenant = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, tenant.organization.id, {
      last_seen_at: t.clock.now(),
    });
    await heartbeat(headset.headers, { battery_percent: 90, app_version: '1.0.0' });
    expect(await t.app.lastSeen.flush()).toEqual({ devices: 1, rowsUpdated: 1, dropped: [] });
    expect(await storedDevice(headset.device.id)).toEqual({
      last_seen_at: t.clock.now(),
      battery_percent: 90,
      app_version: '1.0.0',
    });

    // Same instant, same values: nothing to write.
    await heartbeat(headset.headers, { battery_percent: 90, app_version: '1.0.0' });
    expect((await t.app.lastSeen.flush()).rowsUpdated).toBe(0);
    // Same instant, new battery: written.
    await heartbeat(headset.headers, { battery_percent: 89 });
    expect((await t.app.lastSeen.flush()).rowsUpdated).toBe(1);
    expect(await storedDevice(headset.device.id)).toMatchObject({
      battery_percent: 89,
      app_version: '1.0.0',
    });
  });

  it('never moves last seen backwards (another process may have written a newer time)', async () => {
    const tenant = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, tenant.organization.id, {
      last_seen_at: t.clock.now(),
    });
    await heartbeat(headset.headers, { battery_percent: 50 });
    const newer = new Date(t.clock.now().getTime() + 5000);
    await t.db
      .updateTable('devices')
      .set({ last_seen_at: newer, battery_percent: 40 })
      .where('id', '=', headset.device.id)
      .execute();
    expect((await t.app.lastSeen.flush()).rowsUpdated).toBe(0);
    expect(await storedDevice(headset.device.id)).toMatchObject({
      last_seen_at: newer,
      battery_percent: 40,
    });
  });

  it('drops sightings of devices deleted before the flush', async () => {
    const tenant = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, tenant.organization.id);
    await heartbeat(headset.headers);
    await t.db.deleteFrom('devices').where('id', '=', headset.device.id).execute();
    expect(await t.app.lastSeen.flush()).toEqual({ devices: 1, rowsUpdated: 0, dropped: [] });
  });

  it('writes every other device when the database refuses one sighting, and logs the one it dropped', async () => {
    const tenant = await makeTenant(t);
    const headsets = [];
    for (let i = 0; i < 9; i++) {
      headsets.push(await makeEnrolledDevice(t.db, tenant.organization.id, { last_seen_at: null }));
    }
    const [poisoned, ...healthy] = headsets;
    const logged: Array<{ details: object; message: string }> = [];
    const buffer = new LastSeenBuffer(t.db, {
      log: { error: (details, message) => logged.push({ details, message }) },
    });
    const seen = t.clock.now();
    // PostgreSQL cannot store NUL in text: the contract refuses it at the door, and the buffer must
    // survive any value that slips through some other way.
    buffer.record(poisoned!.device.id, seen, { appVersion: 'x\u0000y' });
    for (const headset of healthy) buffer.record(headset.device.id, seen, { batteryPercent: 77 });

    const result = await buffer.flush();
    expect(result).toEqual({ devices: 9, rowsUpdated: 8, dropped: [poisoned!.device.id] });
    for (const headset of healthy) {
      expect(await storedDevice(headset.device.id)).toEqual({
        last_seen_at: seen,
        battery_percent: 77,
        app_version: null,
      });
    }
    expect(logged.map((entry) => entry.message)).toEqual([
      `dropped the last-seen update of device ${poisoned!.device.id}: the database refused its values`,
    ]);

    // The next tick writes again, the dropped device included once it reports sane values.
    t.clock.advance(1000);
    buffer.record(poisoned!.device.id, t.clock.now(), { appVersion: '2.0.0' });
    expect(await buffer.flush()).toEqual({ devices: 1, rowsUpdated: 1, dropped: [] });
    expect(await storedDevice(poisoned!.device.id)).toEqual({
      last_seen_at: t.clock.now(),
      battery_percent: null,
      app_version: '2.0.0',
    });
  });

  it('keeps the whole batch for the next tick when the database cannot be reached', async () => {
    const tenant = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, tenant.organization.id, { last_seen_at: null });
    const unreachable = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
    const failing = new LastSeenBuffer(
      t.db.withPlugin({
        transformQuery() {
          throw unreachable;
        },
        transformResult: async (args) => args.result,
      }),
    );
    const seen = t.clock.now();
    failing.record(headset.device.id, seen, { batteryPercent: 12 });
    await expect(failing.flush()).rejects.toBe(unreachable);
    expect(failing.size).toBe(1);
    expect(failing.pendingSighting(headset.device.id)).toEqual(seen);
  });
});
