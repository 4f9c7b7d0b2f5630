import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeEnrolledDevice,
  makeOrganization,
  makeHeadsetInSession,
} from '../../test/factories.ts';
import { createTestDatabase, BACKGROUND } from '../../test/harness.ts';
import { buildApp } from '../app.ts';
import { DEVICE_CACHE_REFRESH_MS } from './device-cache.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { ManualClock } from '../platform/service/clock.ts';
import { testConfig } from '../platform/config/config.ts';
import type { DatabaseHandle } from '../platform/database/db.ts';

let database: DatabaseHandle;
let app: AppInstance;
let closed = false;
const clock = new ManualClock(new Date());
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-jobs-'));
/** What the database held when the app handed it over for closing. */
let lastSeenAtClose: Date | null | undefined;
let closingDeviceId: string | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    db: database.db,
    config: testConfig({
      dataDir,
      lastSeenFlushMs: 20,
      offlineAfterMs: 400,
      disconnectAfterMs: 1000,
      sessionTimeoutMs: 60_000,
    }),
    clock,
    logger: false,
    backgroundJobs: true,
    onClosed: async () => {
      if (closingDeviceId) {
        const row = await database.db
          .selectFrom('devices')
          .select('last_seen_at')
          .where('id', '=', closingDeviceId)
          .executeTakeFirst();
        lastSeenAtClose = row?.last_seen_at;
      }
      await database.close();
    },
  });
  await app.ready();
});
afterAll(async () => {
  if (!closed) await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function lastSeenOf(deviceId: string) {
  const row = await database.db
    .selectFrom('devices')
    .select('last_seen_at')
    .where('id', '=', deviceId)
    .executeTakeFirstOrThrow();
  return row.last_seen_at;
}

async function endOf(sessionId: string) {
  return database.db
    .selectFrom('sessions')
    .select(['status', 'ended_at'])
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
}

function heartbeat(headers: Record<string, string>) {
  return app.inject({ method: 'POST', url: '/v1/headset/heartbeat', headers, payload: {} });
}

describe('background jobs', () => {
  it('flush last-seen times and sweep silent devices on their own', async () => {
    const organization = await makeOrganization(database.db);
    const { session } = await makeHeadsetInSession(database.db, organization.id, {
      at: clock.now(),
    });
    const alive = await makeEnrolledDevice(database.db, organization.id, {
      last_seen_at: clock.now(),
    });

    clock.advance(5000);
    expect((await heartbeat(alive.headers)).statusCode).toBe(200);
    const seen = clock.now();
    await vi.waitFor(
      async () => expect(await lastSeenOf(alive.device.id)).toEqual(seen),
      BACKGROUND,
    );

    await vi.waitFor(
      async () =>
        expect(await endOf(session.id)).toEqual({
          status: 'disconnected',
          ended_at: expect.any(Date),
        }),
      BACKGROUND,
    );
  });

  it('keep every organisation alive when one headset sends text the database cannot store', async () => {
    const hostileOrganization = await makeOrganization(database.db);
    const hostile = await makeEnrolledDevice(database.db, hostileOrganization.id, {
      last_seen_at: clock.now(),
    });
    const organization = await makeOrganization(database.db);
    const alive = await makeEnrolledDevice(database.db, organization.id, {
      last_seen_at: clock.now(),
    });
    const { session } = await makeHeadsetInSession(database.db, organization.id, {
      at: clock.now(),
    });

    for (const appVersion of ['x\u0000y', 'x\ud800y']) {
      const refused = await app.inject({
        method: 'POST',
        url: '/v1/headset/heartbeat',
        headers: hostile.headers,
        payload: { app_version: appVersion },
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({
        error: 'validation_error',
        message:
          'body.app_version contains a character that cannot be stored (NUL or an unpaired surrogate)',
        details: { field: 'body.app_version', rule: 'storable' },
      });
    }
    // Whatever else might one day reach the buffer with a value the database refuses.
    app.lastSeen.record(hostile.device.id, clock.now(), { appVersion: 'x\u0000y' });

    clock.advance(5000);
    expect((await heartbeat(alive.headers)).statusCode).toBe(200);
    const seen = clock.now();
    await vi.waitFor(
      async () => expect(await lastSeenOf(alive.device.id)).toEqual(seen),
      BACKGROUND,
    );
    await vi.waitFor(
      async () =>
        expect(await endOf(session.id)).toEqual({ status: 'disconnected', ended_at: clock.now() }),
      BACKGROUND,
    );
    // The jobs go on: the next heartbeat is written too.
    clock.advance(500);
    expect((await heartbeat(alive.headers)).statusCode).toBe(200);
    const again = clock.now();
    await vi.waitFor(
      async () => expect(await lastSeenOf(alive.device.id)).toEqual(again),
      BACKGROUND,
    );
  });

  it('read the devices headsets use again before their cache entries expire', async () => {
    const organization = await makeOrganization(database.db);
    const headset = await makeEnrolledDevice(database.db, organization.id, {
      last_seen_at: clock.now(),
    });
    const { stats } = app.deviceEvents.cache;
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    const { misses, refreshed } = stats;
    // Entries live 22.5–30 s; the job (every DEVICE_CACHE_REFRESH_MS) reads again what expires
    // within the next two of its intervals.
    clock.advance(21_000);
    await vi.waitFor(() => expect(stats.refreshed).toBeGreaterThan(refreshed), {
      timeout: 3 * DEVICE_CACHE_REFRESH_MS,
      interval: 50,
    });
    clock.advance(9_000);
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    expect(stats.misses).toBe(misses);
  });

  it('flush once more on close, before the database is closed', async () => {
    const organization = await makeOrganization(database.db);
    const headset = await makeEnrolledDevice(database.db, organization.id, { last_seen_at: null });
    closingDeviceId = headset.device.id;
    clock.advance(1000);
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    const seen = clock.now();
    closed = true;
    await app.close();
    expect(lastSeenAtClose).toEqual(seen);
  });
});
