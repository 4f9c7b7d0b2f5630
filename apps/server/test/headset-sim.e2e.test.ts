import type { AddressInfo } from 'node:net';
import { SimulatedHeadset, type HeadsetEvent } from '@vrtc/headset-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runSweep } from '../src/headset/sweeper.ts';
import { grantAccess, makeScenarioTree, makeTenant } from './factories.ts';
import { createTestApp, type TestApp, contextOf } from './harness.ts';

/**
 * The simulated headset against the real server over HTTP: enrolment with a console code, a
 * session started through the client API, played to the end; a cancelled and a disconnected
 * session stop the headset. Real timers, fast pace, no fixed sleeps: conditions are polled.
 */

let t: TestApp;
let server: string;
const headsets: SimulatedHeadset[] = [];

beforeAll(async () => {
  t = await createTestApp({ config: { heartbeatIntervalMs: 50 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(headsets.map((headset) => headset.stop()));
  await t.close();
});

/** A simulated headset plays on its own timers: give it time. */
const PLAYING = { timeout: 10_000, interval: 20 };

/** An organisation with staff, a granted level with an option, and its enrolment code. */
async function setup() {
  const tenant = await makeTenant(t);
  const tree = await makeScenarioTree(t.db, {
    scenarioName: 'Пожарная безопасность',
    moduleName: 'Модуль 1',
    levelName: 'Уровень 2',
    maxTasks: 3,
    optionNames: ['Ночь'],
  });
  await grantAccess(t.db, tree.scenario.id, tenant.organization.id, null, t.clock.now());
  const codeResponse = await t.app.inject({
    method: 'POST',
    url: '/v1/devices/enrollment-code',
    headers: tenant.headers,
  });
  expect(codeResponse.statusCode).toBe(200);
  return { tenant, tree, code: codeResponse.json<{ code: string }>().code };
}

function simulate(options: ConstructorParameters<typeof SimulatedHeadset>[0]) {
  const headset = new SimulatedHeadset(options);
  const events: HeadsetEvent[] = [];
  headset.on('event', (event) => events.push(event));
  headsets.push(headset);
  return { headset, events };
}

async function startSession(headers: Record<string, string>, body: object) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/sessions/start',
    headers,
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>();
}

async function historyEntry(headers: Record<string, string>, sessionId: string) {
  const response = await t.app.inject({ url: '/v1/sessions', headers });
  expect(response.statusCode).toBe(200);
  return response
    .json<{
      sessions: Array<{
        id: string;
        status: string;
        success: boolean | null;
        completed_tasks: number;
      }>;
    }>()
    .sessions.find((session) => session.id === sessionId);
}

describe('simulated headset end to end', () => {
  it('enrols, receives a session started in the console and plays it to completion', async () => {
    const { tenant, tree, code } = await setup();
    const { headset, events } = simulate({
      server,
      name: 'Quest-1',
      type: 'quest',
      code: code.toLowerCase(),
      paceMs: 20,
      successRate: 1,
    });
    await headset.start();
    expect(headset.deviceId).toMatch(/^[0-9a-f-]{36}$/);

    const devices = await t.app.inject({ url: '/v1/devices', headers: tenant.headers });
    expect(devices.json().devices).toEqual([
      expect.objectContaining({ id: headset.deviceId, name: 'Quest-1', status: 'waiting' }),
    ]);

    const session = await startSession(tenant.headers, {
      device_id: headset.deviceId,
      level_id: tree.level.id,
      vr_user_name: 'Анна',
      selected_options: [tree.options[0]!.id],
    });

    await vi.waitFor(async () => {
      expect(await historyEntry(tenant.headers, session.id)).toMatchObject({
        status: 'completed',
        success: true,
        completed_tasks: 3,
      });
    }, PLAYING);
    await vi.waitFor(() => expect(events.map((e) => e.type)).toContain('finished'), PLAYING);
    // It told of each task as it went: the session keeps the timeline.
    const detail = await t.app.inject({
      url: `/v1/sessions/${session.id}`,
      headers: tenant.headers,
    });
    expect(detail.json().tasks).toEqual(
      [1, 2, 3].map((number) =>
        expect.objectContaining({ number, key: `task-${number}`, result: 'passed' }),
      ),
    );

    const lines = events.filter((e) => e.type !== 'heartbeat').map((e) => e.line);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\[Quest-1\] enrolled as device /),
        // What to load, by id and revision, beside the names people read.
        expect.stringMatching(
          new RegExp(
            `^\\[Quest-1\\] session ${session.id.slice(0, 8)}… started: Пожарная безопасность / Модуль 1 / ` +
              `Уровень 2 \\(3 tasks\\) for Анна \\[level ${tree.level.id.slice(0, 8)}… rev \\d+, slide\\], options: Ночь$`,
          ),
        ),
        '[Quest-1] task 1/3',
        '[Quest-1] task 2/3',
        '[Quest-1] task 3/3',
        '[Quest-1] finished: success',
      ]),
    );
    // Ready for the next one: the device is waiting again.
    const after = await t.app.inject({ url: '/v1/devices', headers: tenant.headers });
    expect(after.json().devices[0].status).toBe('waiting');
  });

  it('stops playing at once when the session is cancelled in the console', async () => {
    const { tenant, tree, code } = await setup();
    // Heartbeats far apart, so the headset learns of the cancellation from the 409 on its report.
    const { headset, events } = simulate({
      server,
      name: 'Pico-1',
      type: 'pico',
      code,
      paceMs: 200,
      successRate: 1,
      heartbeatIntervalMs: 60_000,
    });
    await headset.enroll();
    const session = await startSession(tenant.headers, {
      device_id: headset.deviceId,
      level_id: tree.level.id,
      vr_user_name: 'Борис',
    });
    await headset.start(); // the first heartbeat hands it the session
    headset.dropConnection(); // hold its first report back until the console has cancelled
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${session.id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancel.statusCode).toBe(200);
    headset.restoreConnection();

    const ended = await vi.waitFor(() => {
      const event = events.find((e) => e.type === 'session_ended');
      expect(event).toMatchObject({ type: 'session_ended' });
      return event!;
    }, PLAYING);
    expect(ended.line).toMatch(
      new RegExp(`^\\[Pico-1\\] session ${session.id.slice(0, 8)}… stopped: .*cancelled`, 'i'),
    );
    expect(headset.currentSessionId).toBeUndefined();
    // It may have played on while its report was held back, but it never finished the session.
    expect(events.some((e) => e.type === 'finished')).toBe(false);
    expect(await historyEntry(tenant.headers, session.id)).toMatchObject({
      status: 'cancelled',
      completed_tasks: 0,
    });
  });

  it('is disconnected by the sweeper after going silent, plays on, and its result arrives late', async () => {
    const { tenant, tree, code } = await setup();
    const { headset, events } = simulate({
      server,
      name: 'Quest-9',
      code,
      paceMs: 20,
      successRate: 1,
      heartbeatIntervalMs: 60_000,
    });
    await headset.enroll();
    const session = await startSession(tenant.headers, {
      device_id: headset.deviceId,
      level_id: tree.level.id,
      vr_user_name: 'Вера',
    });
    await headset.start();
    headset.dropConnection();

    await t.app.lastSeen.flush();
    t.clock.advance(t.config.disconnectAfterMs + 1);
    const sweep = await runSweep(contextOf(t));
    expect(sweep.disconnected).toContain(session.id);
    expect(await historyEntry(tenant.headers, session.id)).toMatchObject({
      status: 'disconnected',
      success: false,
    });

    // Offline, the headset played to the end; its reports waited and now arrive, late.
    await vi.waitFor(() => expect(events.map((e) => e.type)).toContain('finished'), PLAYING);
    headset.restoreConnection();
    await vi.waitFor(() => expect(headset.pendingReports).toBe(0), PLAYING);
    expect(await historyEntry(tenant.headers, session.id)).toMatchObject({
      status: 'completed',
      success: true,
      completed_tasks: 3,
    });
    const detail = await t.app.inject({
      url: `/v1/sessions/${session.id}`,
      headers: tenant.headers,
    });
    expect(detail.json()).toMatchObject({ late_result: true, ended_by_server_as: 'disconnected' });
    expect(events.some((e) => e.type === 'session_ended' || e.type === 'report_dropped')).toBe(
      false,
    );
  });
});
