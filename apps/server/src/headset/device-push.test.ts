import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeHeadsetInSession,
  markDeviceSeen,
  makeStartableSetup,
  makeTenant,
  makeTenantInSession,
} from '../../test/factories.ts';
import { BACKGROUND, contextOf, createTestApp, type TestApp } from '../../test/harness.ts';
import { runSweep } from './sweeper.ts';

/**
 * The push channel (GET /v1/headset/events, decision 028): a held call answers as soon as a
 * session is started or ended for its headset, with how it ended, long before the next heartbeat.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { sessionTimeoutMs: 10 * 60_000 } });
});
afterAll(() => t.close());

interface Answer {
  session: { id: string; level_id: string | null } | null;
  ended_session: { id: string; status: string } | null;
}

/** Opens a held call; resolves with its status, answer and how long it was held. */
async function poll(headers: Record<string, string>, query: { wait?: number; session?: string }) {
  const search = new URLSearchParams(
    Object.entries(query).map(([name, value]) => [name, String(value)]),
  );
  const startedAt = performance.now();
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/headset/events?${search.toString()}`,
    headers,
  });
  return {
    status: response.statusCode,
    body: response.json<Answer>(),
    heldMs: performance.now() - startedAt,
  };
}

/** Resolves once the headset's call is held on the server. */
async function held(count = 1) {
  await vi.waitFor(
    () => expect(t.app.devicePush.figures.waiting).toBeGreaterThanOrEqual(count),
    BACKGROUND,
  );
}

async function sweepEverythingAway() {
  t.clock.advance(t.config.sessionTimeoutMs + t.config.disconnectAfterMs + 1);
  await runSweep(contextOf(t));
}

describe('GET /v1/headset/events', () => {
  it('takes a device token, and only that', async () => {
    const { tenant } = await makeTenantInSession(t);
    expect((await poll({}, { wait: 0 })).status).toBe(401);
    expect((await poll(tenant.headers, { wait: 0 })).status).toBe(401);
  });

  it('answers at once when the session differs from the one the headset names', async () => {
    const { headset, session } = await makeTenantInSession(t);
    const answer = await poll(headset.headers, { wait: 25 });
    expect(answer.status).toBe(200);
    expect(answer.body.session?.id).toBe(session.id);
    expect(answer.heldMs).toBeLessThan(5000);
  });

  it('holds the call until `wait` runs out when nothing changes', async () => {
    const { headset, session } = await makeTenantInSession(t);
    const answer = await poll(headset.headers, { wait: 1, session: session.id });
    expect(answer.status).toBe(200);
    expect(answer.body.session?.id).toBe(session.id);
    expect(answer.heldMs).toBeGreaterThanOrEqual(900);
  });

  it('answers a held call with the session staff start, and with its end when they cancel it', async () => {
    const tenant = await makeTenant(t);
    const { headset, level } = await makeStartableSetup(t, tenant.organization.id);
    const waiting = poll(headset.headers, { wait: 25 });
    await held();
    const start = await t.app.inject({
      method: 'POST',
      url: '/v1/sessions/start',
      headers: tenant.headers,
      payload: { device_id: headset.device.id, level_id: level.id, vr_user_name: 'Ada' },
    });
    expect(start.statusCode).toBe(201);
    const startedAt = performance.now();
    const assigned = await waiting;
    expect(assigned.body.session).toMatchObject({ id: start.json<{ id: string }>().id });
    expect(performance.now() - startedAt).toBeLessThan(5000);
    expect(assigned.heldMs).toBeLessThan(20_000);

    const sessionId = assigned.body.session!.id;
    const ending = poll(headset.headers, { wait: 25, session: sessionId });
    await held();
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${sessionId}/cancel`,
      headers: tenant.headers,
    });
    expect(cancel.statusCode).toBe(200);
    const ended = await ending;
    expect(ended.body.session).toBeNull();
    expect(ended.body.ended_session).toEqual({ id: sessionId, status: 'cancelled' });
    expect(ended.heldMs).toBeLessThan(20_000);
  });

  it('tells "completed" after the headset finished its session', async () => {
    const { headset, session } = await makeTenantInSession(t, { maxTasks: 1 });
    const ending = poll(headset.headers, { wait: 25, session: session.id });
    await held();
    const finish = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${session.id}/finish`,
      headers: headset.headers,
      payload: { completed_tasks: 1, success: true },
    });
    expect(finish.statusCode).toBe(200);
    expect((await ending).body.ended_session).toEqual({ id: session.id, status: 'completed' });
  });

  it('tells "disconnected" and "timeout" when the server ends a session', async () => {
    await sweepEverythingAway();
    const { organization } = await makeTenant(t);
    const silent = await makeHeadsetInSession(t.db, organization.id, { at: t.clock.now() });
    const disconnected = poll(silent.headset.headers, { wait: 25, session: silent.session.id });
    await held();
    t.clock.advance(t.config.disconnectAfterMs + 1000);
    await runSweep(contextOf(t));
    expect((await disconnected).body.ended_session).toEqual({
      id: silent.session.id,
      status: 'disconnected',
    });

    const long = await makeHeadsetInSession(t.db, organization.id, { at: t.clock.now() });
    const timedOut = poll(long.headset.headers, { wait: 25, session: long.session.id });
    await held();
    // Heard all along (a sighting just now), but over the session time limit.
    t.clock.advance(t.config.sessionTimeoutMs + 1000);
    await markDeviceSeen(t.db, long.headset.device.id, t.clock.now());
    await runSweep(contextOf(t));
    expect((await timedOut).body.ended_session).toEqual({
      id: long.session.id,
      status: 'timeout',
    });
  });

  it('answers the first call at once when the same headset opens a second', async () => {
    const { headset, session } = await makeTenantInSession(t);
    const first = poll(headset.headers, { wait: 25, session: session.id });
    await held();
    const second = poll(headset.headers, { wait: 1, session: session.id });
    expect((await first).heldMs).toBeLessThan(5000);
    expect((await second).status).toBe(200);
  });

  it('refuses a wait beyond 30 s', async () => {
    const { headset } = await makeTenantInSession(t);
    expect((await poll(headset.headers, { wait: 31 })).status).toBe(400);
  });
});

describe('closing the server', () => {
  it('answers held calls and ends their connections, so close() does not wait for them', async () => {
    const closing = await createTestApp();
    await closing.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = closing.app.server.address() as AddressInfo;
    const { headset, session } = await makeTenantInSession(closing);
    // Over a kept-alive connection, as headsets call: the answer must end it, or close() waits
    // for the connection's keep-alive timeout (72 s) after the answer.
    const waiting = fetch(
      `http://127.0.0.1:${port}/v1/headset/events?wait=25&session=${session.id}`,
      {
        headers: headset.headers,
      },
    );
    await vi.waitFor(() => expect(closing.app.devicePush.figures.waiting).toBe(1), BACKGROUND);
    await closing.close();
    const answer = await waiting;
    expect(answer.status).toBe(200);
    expect(answer.headers.get('connection')).toBe('close');
    expect(((await answer.json()) as Answer).session?.id).toBe(session.id);
  });
});
