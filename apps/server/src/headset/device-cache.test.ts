import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../app.ts';
import {
  makeEnrolledDevice,
  makeSession,
  makeTenant,
  makeStartableSetup,
} from '../../test/factories.ts';
import { createTestApp, type TestApp, BACKGROUND, contextOf } from '../../test/harness.ts';
import { databaseUrlFor } from '../../test/template.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { openDatabase } from '../platform/database/db.ts';
import { DeviceCache } from './device-cache.ts';
import type { AuthenticatedDevice } from './device-cache.ts';
import { runSweep } from './sweeper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const onPostgres = inject('dbTemplate').kind === 'postgres';

function heartbeat(headers: Record<string, string>, app: AppInstance = t.app) {
  return app.inject({ method: 'POST', url: '/v1/headset/heartbeat', headers, payload: {} });
}

/** A tenant with an enrolled headset seen now and a level it may start. */
async function setup() {
  const tenant = await makeTenant(t);
  const { headset, ...tree } = await makeStartableSetup(t, tenant.organization.id);
  return { tenant, headset, tree };
}

async function startSession(
  headers: Record<string, string>,
  deviceId: string,
  levelId: string,
  app: AppInstance = t.app,
) {
  const response = await app.inject({
    method: 'POST',
    url: '/v1/sessions/start',
    headers,
    payload: { device_id: deviceId, level_id: levelId, vr_user_name: 'Ada' },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string }>();
}

describe('device cache (heartbeat answered from memory)', () => {
  it('serves repeated heartbeats without reading the database', async () => {
    const { headset } = await setup();
    const stats = t.app.deviceEvents.cache.stats;
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    const before = { ...stats };
    for (let i = 0; i < 5; i++) expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    expect(stats.hits - before.hits).toBe(5);
    expect(stats.misses - before.misses).toBe(0);
    // A row deleted behind the application's back (no API, so no invalidation) is not even
    // looked at: the answer came from memory. Deleting through the API is another matter (below).
    await t.db.deleteFrom('devices').where('id', '=', headset.device.id).execute();
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    // The safety TTL still ends it.
    t.clock.advance(31_000);
    expect((await heartbeat(headset.headers)).statusCode).toBe(401);
  });

  it('delivers a started session on the next heartbeat, and null once cancelled (progress 409)', async () => {
    const { tenant, headset, tree } = await setup();
    expect((await heartbeat(headset.headers)).json().session).toBeNull();
    const session = await startSession(tenant.headers, headset.device.id, tree.level.id);
    const delivered = (await heartbeat(headset.headers)).json();
    expect(delivered.session).toMatchObject({ id: session.id, completed_tasks: 0 });

    const progress = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${session.id}/progress`,
      headers: headset.headers,
      payload: { completed_tasks: 1 },
    });
    expect(progress.statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).json().session).toMatchObject({
      id: session.id,
      completed_tasks: 1,
    });

    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${session.id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancelled.statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).json().session).toBeNull();
    const late = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${session.id}/progress`,
      headers: headset.headers,
      payload: { completed_tasks: 2 },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('session_cancelled');
  });

  it('shows null on the next heartbeat once the headset finishes, or the sweeper ends the session', async () => {
    const { tenant, headset, tree } = await setup();
    const first = await startSession(tenant.headers, headset.device.id, tree.level.id);
    expect((await heartbeat(headset.headers)).json().session.id).toBe(first.id);
    const finished = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${first.id}/finish`,
      headers: headset.headers,
      payload: { completed_tasks: 1, success: true },
    });
    expect(finished.statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).json().session).toBeNull();

    await t.app.lastSeen.flush();
    const second = await startSession(tenant.headers, headset.device.id, tree.level.id);
    expect((await heartbeat(headset.headers)).json().session.id).toBe(second.id);
    // Long enough for the session to time out, not for the cached entry's TTL to matter: the
    // heartbeats keep the device seen, and the entry is refreshed after each invalidation.
    t.clock.advance(t.config.sessionTimeoutMs + 1);
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    await t.app.lastSeen.flush();
    const ctx = contextOf(t);
    const sweep = await runSweep(ctx);
    expect(sweep.timedOut).toContain(second.id);
    expect((await heartbeat(headset.headers)).json().session).toBeNull();
  });

  it('refuses a device deleted through the API at once, singly or in bulk', async () => {
    const { tenant, headset } = await setup();
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).statusCode).toBe(200); // now cached
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/devices/${headset.device.id}`,
      headers: tenant.headers,
    });
    expect(deleted.statusCode).toBe(200);
    const refused = await heartbeat(headset.headers);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('unauthorized');

    const admin = await makeTenant(t, { role: 'admin' });
    const a = await makeEnrolledDevice(t.db, tenant.organization.id);
    const b = await makeEnrolledDevice(t.db, tenant.organization.id);
    for (const h of [a, b]) expect((await heartbeat(h.headers)).statusCode).toBe(200);
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/devices/bulk-delete',
      headers: admin.headers,
      payload: { device_ids: [a.device.id, b.device.id] },
    });
    expect(bulk.statusCode).toBe(200);
    for (const h of [a, b]) expect((await heartbeat(h.headers)).statusCode).toBe(401);
  });

  it('shows a movement type change on the next heartbeat', async () => {
    const { tenant, headset } = await setup();
    expect((await heartbeat(headset.headers)).json().movement_type).toBe('slide');
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/v1/devices/${headset.device.id}/movement-type`,
      headers: tenant.headers,
      payload: { movement_type: 'teleport' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).json().movement_type).toBe('teleport');
  });

  it('refuses the devices of an organisation deactivated through the API, and takes them back', async () => {
    const { tenant, headset } = await setup();
    const admin = await makeTenant(t, { role: 'admin' });
    const setActive = (active: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/admin/organizations/${tenant.organization.id}`,
        headers: admin.headers,
        payload: { active },
      });
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    expect((await setActive(false)).statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).statusCode).toBe(401);
    expect((await setActive(true)).statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
  });

  it('does not store what a fill read when the device was invalidated meanwhile', async () => {
    const now = 0;
    const cache = new DeviceCache(() => now);
    const device = (session: string | null) =>
      ({ id: 'd1', session: session && { id: session } }) as unknown as AuthenticatedDevice;
    let release!: () => void;
    const slow = cache.fill('h1', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return device(null); // read before the session started
    });
    cache.invalidate('d1'); // the session starts meanwhile
    release();
    expect((await slow).session).toBeNull();
    expect(cache.stats.discarded).toBe(1);
    expect(cache.size).toBe(0);
    // The next call reads again and keeps that.
    expect((await cache.fill('h1', async () => device('s1'))).session).toEqual({ id: 's1' });
    expect(cache.peek('h1')?.session).toEqual({ id: 's1' });
    expect(cache.stats).toEqual({ hits: 1, misses: 2, discarded: 1, refreshed: 0 });

    // Clearing everything during a fill has the same effect.
    cache.invalidate('d1');
    const cleared = cache.fill('h1', async () => device('s2'));
    cache.clear();
    await cleared;
    expect(cache.size).toBe(0);
  });
});

describe.runIf(onPostgres)('device cache across two app instances on one database', () => {
  let other: { app: AppInstance; close(): Promise<void> };
  beforeAll(async () => {
    const template = inject('dbTemplate');
    if (template.kind !== 'postgres') throw new Error('PostgreSQL only');
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
    const url = databaseUrlFor(template.serverUrl, rows[0]!.name);
    const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
    const app = await buildApp({
      db: database.db,
      config: t.config,
      clock: t.clock,
      logger: false,
      databaseUrl: url,
    });
    await app.ready();
    other = {
      app,
      async close() {
        await app.close();
        await database.close();
      },
    };
  });
  afterAll(() => other?.close());

  it('delivers on instance B a session started through instance A', async () => {
    expect(t.app.deviceEvents.listening).toBe(true);
    expect(other.app.deviceEvents.listening).toBe(true);
    const { tenant, headset, tree } = await setup();
    // Cached on B (twice: the second is a hit).
    expect((await heartbeat(headset.headers, other.app)).json().session).toBeNull();
    expect((await heartbeat(headset.headers, other.app)).json().session).toBeNull();
    const session = await startSession(tenant.headers, headset.device.id, tree.level.id);
    await vi.waitFor(async () => {
      const body = (await heartbeat(headset.headers, other.app)).json();
      expect(body.session?.id).toBe(session.id);
    }, BACKGROUND);
  });

  it('refuses on instance B a device deleted through instance A', async () => {
    const { tenant, headset } = await setup();
    expect((await heartbeat(headset.headers, other.app)).statusCode).toBe(200);
    expect((await heartbeat(headset.headers, other.app)).statusCode).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/devices/${headset.device.id}`,
      headers: tenant.headers,
    });
    expect(deleted.statusCode).toBe(200);
    await vi.waitFor(async () => {
      expect((await heartbeat(headset.headers, other.app)).statusCode).toBe(401);
    }, BACKGROUND);
  });

  it('shows on instance B a session ended by a sweep on instance A', async () => {
    const tenant = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, tenant.organization.id, {
      last_seen_at: t.clock.now(),
    });
    const session = await makeSession(t.db, {
      organizationId: tenant.organization.id,
      deviceId: headset.device.id,
      status: 'active',
      startedAt: t.clock.now(),
    });
    expect((await heartbeat(headset.headers, other.app)).json().session.id).toBe(session.id);
    await other.app.lastSeen.flush();
    t.clock.advance(t.config.sessionTimeoutMs + 1);
    await other.app.lastSeen.flush();
    // Keep the device seen so the sweep's verdict is timeout, and the entry on B cached.
    expect((await heartbeat(headset.headers, other.app)).statusCode).toBe(200);
    await other.app.lastSeen.flush();
    const sweep = await runSweep(contextOf(t));
    expect([...sweep.timedOut, ...sweep.disconnected]).toContain(session.id);
    await vi.waitFor(async () => {
      expect((await heartbeat(headset.headers, other.app)).json().session).toBeNull();
    }, BACKGROUND);
  });
});

describe('cache misses', () => {
  it('arriving together are answered by one SELECT', async () => {
    const tenant = await makeTenant(t);
    const headsets = await Promise.all(
      Array.from({ length: 20 }, () =>
        makeEnrolledDevice(t.db, tenant.organization.id, { last_seen_at: t.clock.now() }),
      ),
    );
    let lookups = 0;
    const counting: KyselyPlugin = {
      transformQuery(args) {
        const text = JSON.stringify(args.node);
        if (args.node.kind === 'SelectQueryNode' && text.includes('"token_hash"')) lookups++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    // A fresh process: nothing cached yet.
    const cold = await buildApp({
      db: t.db.withPlugin(counting),
      config: t.config,
      clock: t.clock,
      logger: false,
    });
    try {
      const answers = await Promise.all(
        headsets.map((headset) => heartbeat(headset.headers, cold)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(headsets.map(() => 200));
      expect(lookups).toBe(1);
      // Cached from now on.
      await Promise.all(headsets.map((headset) => heartbeat(headset.headers, cold)));
      expect(lookups).toBe(1);
    } finally {
      await cold.close();
    }
  });
});
