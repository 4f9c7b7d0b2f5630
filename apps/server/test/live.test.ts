import type { AddressInfo } from 'node:net';
import type { LiveEvent } from '@vrtc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/platform/database/db.ts';
import { devicesGoneOffline } from '../src/headset/sweeper.ts';
import { makeEnrolledDevice, makeStartableSetup, makeTenant, makeVrUser } from './factories.ts';
import { BACKGROUND, contextOf, createTestApp, type TestApp } from './harness.ts';
import { databaseUrlFor } from './template.ts';
import { openStream as liveStream } from './live-stream.ts';

/**
 * The console's live stream (GET /v1/events) and the task detail headsets report: what a
 * supervisor sees happen, as it happens.
 */

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const openStream = (headers: Record<string, string>, origin = base) => liveStream(origin, headers);

const post = (url: string, headers: Record<string, string>, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers, payload });

describe('the live stream', () => {
  it('needs a signed-in account, and never takes the token from the URL', async () => {
    const tenant = await makeTenant(t);
    expect((await fetch(`${base}/v1/events`)).status).toBe(401);
    expect((await fetch(`${base}/v1/events?access_token=${tenant.token}`)).status).toBe(401);
  });

  it('tells an organisation what happens to its sessions and headsets, task by task', async () => {
    const tenant = await makeTenant(t);
    const { headset, ...setup } = await makeStartableSetup(t, tenant.organization.id);
    const stream = await openStream(tenant.headers);
    try {
      const started = await post('/v1/sessions/start', tenant.headers, {
        device_id: headset.device.id,
        level_id: setup.level.id,
        vr_user_name: 'Anna',
      });
      expect(started.statusCode).toBe(201);
      const sessionId = started.json().id;
      expect(
        await stream.next(
          (e) =>
            e.event === 'session' &&
            (e.data as LiveEvent & { change: string }).change === 'started',
        ),
      ).toMatchObject({ session_id: sessionId, status: 'active', device_id: headset.device.id });
      expect(
        await stream.next(
          (e) =>
            e.event === 'device' &&
            (e.data as { device_id: string }).device_id === headset.device.id,
        ),
      ).toMatchObject({ change: 'updated', organization_id: tenant.organization.id });

      const progress = await post(`/v1/headset/sessions/${sessionId}/progress`, headset.headers, {
        completed_tasks: 1,
        task: {
          number: 1,
          key: 'ladder',
          name: 'Climb the ladder',
          result: 'passed',
          score: 92.5,
          duration_ms: 41_000,
        },
      });
      expect(progress.statusCode).toBe(200);
      expect(
        await stream.next((e) => (e.data as { change?: string }).change === 'progress'),
      ).toMatchObject({
        session_id: sessionId,
        completed_tasks: 1,
        task: { number: 1, key: 'ladder', result: 'passed', score: 92.5, duration_ms: 41_000 },
      });

      const cancelled = await post(`/v1/sessions/${sessionId}/cancel`, tenant.headers);
      expect(cancelled.statusCode).toBe(200);
      expect(
        await stream.next((e) => (e.data as { change?: string }).change === 'ended'),
      ).toMatchObject({ session_id: sessionId, status: 'cancelled' });
    } finally {
      stream.close();
    }
  });

  it('never tells one organisation of another’s, but tells admins every organisation’s headsets', async () => {
    const a = await makeTenant(t);
    const b = await makeTenant(t);
    const admin = await makeTenant(t, { role: 'admin' });
    const streamB = await openStream(b.headers);
    const streamAdmin = await openStream(admin.headers);
    try {
      const code = (await post('/v1/devices/enrollment-code', a.headers)).json().code;
      const enrolled = await post('/v1/headset/enroll', {}, { code, name: 'A-1', type: 'pico' });
      expect(enrolled.statusCode).toBe(201);
      const deviceId = enrolled.json().device_id;
      expect(
        await streamAdmin.next((e) => (e.data as { device_id?: string }).device_id === deviceId),
      ).toEqual({
        type: 'device',
        change: 'enrolled',
        device_id: deviceId,
        organization_id: a.organization.id,
      });
      // B's own event arrives; A's never did.
      await makeVrUser(t.db, b.organization.id);
      const bCode = (await post('/v1/devices/enrollment-code', b.headers)).json().code;
      const bDevice = (
        await post('/v1/headset/enroll', {}, { code: bCode, name: 'B-1', type: 'pico' })
      ).json().device_id;
      await streamB.next((e) => (e.data as { device_id?: string }).device_id === bDevice);
      expect(
        streamB.events.some(
          (e) => (e.data as { organization_id?: string }).organization_id === a.organization.id,
        ),
      ).toBe(false);
    } finally {
      streamB.close();
      streamAdmin.close();
    }
  });

  it('tells when a headset comes online and goes offline', async () => {
    const tenant = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, tenant.organization.id, { last_seen_at: null });
    const stream = await openStream(tenant.headers);
    try {
      const before = t.clock.now();
      expect((await post('/v1/headset/heartbeat', headset.headers)).statusCode).toBe(200);
      await t.app.lastSeen.flush();
      expect(
        await stream.next((e) => (e.data as { change?: string }).change === 'online'),
      ).toMatchObject({ device_id: headset.device.id });
      // Heard again a moment later: nothing to tell.
      t.clock.advance(1000);
      await post('/v1/headset/heartbeat', headset.headers);
      await t.app.lastSeen.flush();
      t.clock.advance(t.config.offlineAfterMs + 1000);
      const gone = await devicesGoneOffline(contextOf(t), before, t.clock.now());
      expect(gone.map((device) => device.id)).toContain(headset.device.id);
      expect(
        stream.events.filter((e) => (e.data as { change?: string }).change === 'online'),
      ).toHaveLength(1);
    } finally {
      stream.close();
    }
  });

  it('refuses more than 5 streams per account, with a clear error', async () => {
    const tenant = await makeTenant(t);
    const streams = await Promise.all(Array.from({ length: 5 }, () => openStream(tenant.headers)));
    try {
      const sixth = await fetch(`${base}/v1/events`, { headers: tenant.headers });
      expect(sixth.status).toBe(429);
      expect(await sixth.json()).toEqual({
        error: 'too_many_streams',
        message:
          'At most 5 live streams per account at once; close one (another tab) or rely on refreshes',
        details: { limit: 5, scope: 'account' },
      });
    } finally {
      for (const stream of streams) stream.close();
    }
    // Closed streams free their places.
    await vi.waitFor(async () => {
      const again = await openStream(tenant.headers);
      again.close();
    }, BACKGROUND);
  });
});

describe('task detail', () => {
  it('is stored with the session and shown on the active list and the session', async () => {
    const tenant = await makeTenant(t);
    const { headset, ...setup } = await makeStartableSetup(t, tenant.organization.id);
    const started = await post('/v1/sessions/start', tenant.headers, {
      device_id: headset.device.id,
      level_id: setup.level.id,
      vr_user_name: 'Boris',
    });
    const id = started.json().id;
    const report = (what: 'progress' | 'finish', body: object) =>
      post(`/v1/headset/sessions/${id}/${what}`, headset.headers, body);

    // An older headset: the count only.
    expect((await report('progress', { completed_tasks: 1 })).statusCode).toBe(200);
    const beyond = await report('progress', {
      completed_tasks: 2,
      task: { number: 4, result: 'passed' },
    });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().message).toBe(
      "body.task.number must be between 1 and 3 (the level's task count)",
    );
    expect(
      (
        await report('progress', {
          completed_tasks: 2,
          task: { number: 2, name: 'Fire', result: 'failed', score: 40 },
        })
      ).statusCode,
    ).toBe(200);
    const active = await t.app.inject({ url: '/v1/sessions/active', headers: tenant.headers });
    expect(active.json().active_sessions[0]).toMatchObject({
      id,
      completed_tasks: 2,
      tasks: [
        { number: 2, name: 'Fire', result: 'failed', score: 40, key: null, duration_ms: null },
      ],
    });

    const finished = await report('finish', {
      completed_tasks: 3,
      success: true,
      tasks: [
        { number: 1, result: 'passed', duration_ms: 1000 },
        { number: 2, name: 'Fire', result: 'passed', score: 80 },
        { number: 3, result: 'skipped' },
      ],
    });
    expect(finished.statusCode).toBe(200);
    const detail = await t.app.inject({ url: `/v1/sessions/${id}`, headers: tenant.headers });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      id,
      status: 'completed',
      completed_tasks: 3,
      max_tasks: 3,
      tasks: [
        { number: 1, result: 'passed', duration_ms: 1000 },
        { number: 2, result: 'passed', score: 80 },
        { number: 3, result: 'skipped' },
      ],
    });
    const other = await makeTenant(t);
    expect(
      (await t.app.inject({ url: `/v1/sessions/${id}`, headers: other.headers })).statusCode,
    ).toBe(404);
  });
});

describe.runIf(inject('dbTemplate').kind === 'postgres')('across processes on PostgreSQL', () => {
  it('a stream on one process hears what happens through another', async () => {
    // A second process on the same database: its own pool, its own LISTEN connection.
    const template = inject('dbTemplate');
    if (template.kind !== 'postgres') return;
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
    const url = databaseUrlFor(template.serverUrl, rows[0]!.name);
    const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
    const other = await buildApp({
      db: database.db,
      config: t.config,
      clock: t.clock,
      logger: false,
      databaseUrl: url,
    });
    try {
      await other.listen({ port: 0, host: '127.0.0.1' });
      const otherBase = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
      const tenant = await makeTenant(t);
      const stream = await openStream(tenant.headers, otherBase);
      try {
        // Through the first process; heard on the second.
        const code = (await post('/v1/devices/enrollment-code', tenant.headers)).json().code;
        const enrolled = await post('/v1/headset/enroll', {}, { code, name: 'Far', type: 'quest' });
        const deviceId = enrolled.json().device_id;
        expect(
          await stream.next((e) => (e.data as { device_id?: string }).device_id === deviceId),
        ).toMatchObject({ change: 'enrolled' });
        expect(
          stream.events.filter((e) => (e.data as { device_id?: string }).device_id === deviceId),
        ).toHaveLength(1);

        // A burst, as when the sweeper finds a fleet gone offline: every event heard once, in
        // the order it was published.
        const burst: string[] = Array.from({ length: 300 }, () => crypto.randomUUID());
        for (const id of burst) {
          t.app.live.publish({
            type: 'device',
            change: 'offline',
            device_id: id,
            organization_id: tenant.organization.id,
          });
        }
        const heard = () =>
          stream.events
            .map((e) => (e.data as { device_id?: string }).device_id)
            .filter((id) => id !== undefined && burst.includes(id));
        await vi.waitFor(() => expect(heard()).toHaveLength(burst.length), BACKGROUND);
        expect(heard()).toEqual(burst);
      } finally {
        stream.close();
      }
    } finally {
      await other.close();
      await database.close();
    }
  });
});
