import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { routes, type RouteDefinition, type SessionLaunch } from '@vrtc/contract';
import { Value } from 'typebox/value';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  SimulatedHeadset,
  seededRandom,
  type HeadsetEvent,
  type SimulatedHeadsetOptions,
} from '../src/index.ts';

/**
 * The simulator against a stand-in server that checks every request it gets, and answers every
 * response, against the contract's route map: what the simulator sends is what the server takes.
 */

const SESSION_ID = '00000000-0000-4000-8000-0000000000a1';
const DEVICE_ID = '00000000-0000-4000-8000-0000000000d1';

interface Received {
  route: string;
  body: unknown;
  key: string | undefined;
  at: number;
}

/** An answer other than the normal one, e.g. a 503 with Retry-After, or a dropped connection. */
type Override = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang up';

function fakeServer(
  session: SessionLaunch,
  /** Consulted for every report (progress, finish) before answering it normally. */
  override: (received: Received, count: number) => Override | undefined = () => undefined,
  /** Serve the push channel (GET /v1/headset/events); without it, 404 as an older server. */
  pushOn = false,
) {
  const received: Received[] = [];
  const problems: string[] = [];
  let ended = false;
  let cancelled = false;
  const headsetRoutes = [
    routes.enroll,
    routes.heartbeat,
    routes.reportProgress,
    routes.finishSession,
  ] as const;
  const match = (method: string, url: string) =>
    headsetRoutes.find(
      (route) =>
        route.method === method &&
        new RegExp(`^${route.path.replace(/:\w+/g, '[^/]+')}$`).test(url),
    );
  const check = (route: RouteDefinition, what: string, schema: unknown, value: unknown) => {
    if (schema && !Value.Check(schema as Parameters<typeof Value.Check>[0], value)) {
      problems.push(`${route.path} ${what}: ${JSON.stringify(value)}`);
    }
  };
  /** Push calls (GET /v1/headset/events) held until the state they name changes. */
  const held: Array<() => void> = [];
  const state = () => ({
    device_id: DEVICE_ID,
    movement_type: 'slide' as const,
    heartbeat_interval_ms: 60_000,
    session: ended || cancelled ? null : session,
    ended_session: cancelled ? { id: session.id, status: 'cancelled' as const } : null,
    server_time: new Date().toISOString(),
  });
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (pushOn && url.pathname === routes.headsetEvents.path) {
      received.push({ route: url.pathname, body: undefined, key: undefined, at: Date.now() });
      const answer = () =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(state()));
      if ((state().session?.id ?? null) !== url.searchParams.get('session')) answer();
      else held.push(answer);
      return;
    }
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk));
    request.on('end', () => {
      const route = match(request.method ?? '', request.url ?? '');
      if (!route) {
        response.writeHead(404).end();
        return;
      }
      const body = text ? JSON.parse(text) : undefined;
      const key = request.headers['idempotency-key'];
      const entry = { route: route.path, body, key: key as string | undefined, at: Date.now() };
      received.push(entry);
      check(route, 'request body', route.body, body);
      if ('headers' in route) check(route, 'request headers', route.headers, request.headers);
      const isReport = route === routes.reportProgress || route === routes.finishSession;
      const special = isReport ? override(entry, received.length) : undefined;
      if (special === 'hang up') {
        request.socket.destroy();
        return;
      }
      if (special) {
        response.writeHead(special.status, {
          'content-type': 'application/json',
          ...special.headers,
        });
        response.end(JSON.stringify(special.body ?? {}));
        return;
      }
      let answer: unknown;
      const status: number = route.success.status;
      if (route === routes.enroll) answer = { device_id: DEVICE_ID, device_token: 'token-1' };
      else if (route === routes.heartbeat) {
        answer = {
          device_id: DEVICE_ID,
          movement_type: 'slide',
          heartbeat_interval_ms: 50,
          session: ended || cancelled ? null : session,
          ended_session: cancelled
            ? { id: session.id, status: 'cancelled' }
            : ended
              ? { id: session.id, status: 'completed' }
              : null,
          server_time: new Date().toISOString(),
        };
      } else {
        const { completed_tasks } = body as { completed_tasks: number };
        if (route === routes.finishSession) ended = true;
        answer = {
          id: SESSION_ID,
          status: route === routes.finishSession ? 'completed' : 'active',
          completed_tasks,
          max_tasks: session.max_tasks,
        };
      }
      if ('body' in route.success) check(route, 'response', route.success.body, answer);
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer));
    });
  });
  const reports = (path: string) => received.filter((r) => r.route === path);
  /** Staff cancel the session in the console: the next heartbeats list none, and say why. */
  const cancel = () => {
    cancelled = true;
    for (const answer of held.splice(0)) answer();
  };
  return { server, received, problems, reports, cancel };
}

const launch: SessionLaunch = {
  id: SESSION_ID,
  scenario_id: '0b9d3a4e-1c2f-4d5e-8f6a-7b8c9d0e1f2a',
  module_id: '1c0e4b5f-2d3a-4e6f-9a7b-8c9d0e1f2a3b',
  level_id: '2d1f5c6a-3e4b-4f7a-8b8c-9d0e1f2a3b4c',
  level_revision: 3,
  movement_type: 'teleport',
  vr_user_name: 'Анна',
  scenario_name: 'Пожарная безопасность',
  module_name: 'Эвакуация',
  level_name: 'Уровень 1',
  level_number: 1,
  max_tasks: 3,
  selected_options: [],
  started_at: '2026-11-22T10:00:00.000Z',
  completed_tasks: 0,
};

const running: SimulatedHeadset[] = [];
const servers: http.Server[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((headset) => headset.stop()));
  for (const server of servers.splice(0)) server.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const WAIT = { timeout: 10_000, interval: 10 };

async function listen(fake: ReturnType<typeof fakeServer>) {
  servers.push(fake.server);
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
}

function headsetOn(server: string, options: Partial<SimulatedHeadsetOptions> = {}) {
  const events: HeadsetEvent[] = [];
  const headset = new SimulatedHeadset({
    server,
    name: 'Quest-1',
    code: 'ABCD2345',
    paceMs: 10,
    successRate: 1,
    random: seededRandom(7),
    // Retries at once in these tests, unless the server's Retry-After says otherwise.
    retry: { baseMs: 1, maxMs: 5 },
    ...options,
  });
  running.push(headset);
  headset.on('event', (event) => events.push(event));
  return { headset, events };
}

async function play(successRate: number) {
  const fake = fakeServer(launch);
  const { headset, events } = headsetOn(await listen(fake), { successRate });
  await headset.start();
  await vi.waitFor(() => expect(fake.reports(routes.finishSession.path)).toHaveLength(1), WAIT);
  return { ...fake, events, headset };
}

const isReport = (r: Received) =>
  r.route === routes.reportProgress.path || r.route === routes.finishSession.path;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the simulated headset', () => {
  it('enrols, plays a session task by task and finishes, speaking the contract', async () => {
    const { received, problems, events, reports, headset } = await play(1);
    expect(problems).toEqual([]);
    const progress = reports(routes.reportProgress.path);
    expect(progress.map((r) => r.body)).toEqual(
      [1, 2, 3].map((number) =>
        expect.objectContaining({
          completed_tasks: number,
          seq: number,
          occurred_at: expect.any(String),
          task: expect.objectContaining({ number, key: `task-${number}`, result: 'passed' }),
        }),
      ),
    );
    // No task name in one language (a Russian console would read "Задание 1: Task 1").
    for (const r of progress) expect(r.body).not.toHaveProperty('task.name');
    const finish = received.find((r) => r.route === routes.finishSession.path);
    expect(finish?.body).toMatchObject({
      completed_tasks: 3,
      success: true,
      seq: 4,
      tasks: [{ number: 1 }, { number: 2 }, { number: 3 }],
    });
    // Each report has its own key.
    const keys = [...progress, finish!].map((r) => r.key);
    expect(keys.every((key) => UUID.test(key ?? ''))).toBe(true);
    expect(new Set(keys).size).toBe(4);
    expect(events.find((e) => e.type === 'finished')?.line).toBe('[Quest-1] finished: success');
    await vi.waitFor(() => expect(headset.pendingReports).toBe(0), WAIT);
  });

  it('reports the failed task of an unsuccessful run', async () => {
    const { received, problems } = await play(0);
    expect(problems).toEqual([]);
    const finish = received.find((r) => r.route === routes.finishSession.path)?.body as {
      success: boolean;
      tasks: Array<{ result: string }>;
    };
    expect(finish.success).toBe(false);
    expect(finish.tasks.at(-1)?.result).toBe('failed');
  });
});

describe('the simulated headset on a bad network', () => {
  it('plays on while offline, then sends every report in order, each with its key', async () => {
    const fake = fakeServer(launch);
    const { headset, events } = headsetOn(await listen(fake));
    await headset.start(); // the first heartbeat hands it the session
    headset.dropConnection();

    await vi.waitFor(() => expect(events.map((e) => e.type)).toContain('finished'), WAIT);
    expect(fake.reports(routes.reportProgress.path)).toEqual([]);
    expect(fake.reports(routes.finishSession.path)).toEqual([]);
    const held = headset.pendingReportEntries();
    expect(held.map((entry) => [entry.route, entry.body.seq])).toEqual([
      ['progress', 1],
      ['progress', 2],
      ['progress', 3],
      ['finish', 4],
    ]);
    const restoredAt = Date.now();
    headset.restoreConnection();
    expect(events.at(-1)?.line).toBe('[Quest-1] connection restored, 4 report(s) to send');

    await vi.waitFor(() => expect(headset.pendingReports).toBe(0), WAIT);
    const sent = fake.received.filter(isReport);
    expect(sent.map((r) => r.key)).toEqual(held.map((entry) => entry.key));
    expect(sent.map((r) => r.body)).toEqual(held.map((entry) => entry.body));
    // occurred_at tells when it happened on the headset, not when it arrived.
    const times = held.map((entry) => Date.parse(entry.body.occurred_at!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(Math.max(...times)).toBeLessThanOrEqual(restoredAt + 1000);
    expect(fake.problems).toEqual([]);
  });

  it('retries network errors, 408, 429 and 5xx under the same key, honouring Retry-After', async () => {
    // The first progress report: 503 asking for a second's pause, then 429, 408, a connection
    // dropped before any answer, and then it gets through.
    const trouble: Override[] = [
      { status: 503, headers: { 'retry-after': '1' }, body: { error: 'unavailable' } },
      { status: 429, body: { error: 'rate_limited', message: 'slow down' } },
      { status: 408 },
      'hang up',
    ];
    let attempts = 0;
    const fake = fakeServer(launch, (received) =>
      received.route === routes.reportProgress.path && (received.body as { seq: number }).seq === 1
        ? trouble[attempts++]
        : undefined,
    );
    const { headset } = headsetOn(await listen(fake), { heartbeatIntervalMs: 20 });
    await headset.start();
    await vi.waitFor(() => expect(fake.reports(routes.finishSession.path)).toHaveLength(1), WAIT);

    const first = fake.reports(routes.reportProgress.path).slice(0, 5);
    expect(first).toHaveLength(5);
    expect(new Set(first.map((r) => r.key)).size).toBe(1);
    expect(new Set(first.map((r) => JSON.stringify(r.body))).size).toBe(1);
    // Backoff here is at most 5 ms: only Retry-After explains the pause after the 503.
    expect(first[1]!.at - first[0]!.at).toBeGreaterThanOrEqual(950);
    // Nothing overtook it: the rest followed in order, once each.
    const seqs = fake.received.filter(isReport).map((r) => (r.body as { seq: number }).seq);
    expect(seqs).toEqual([1, 1, 1, 1, 1, 2, 3, 4]);
    // Heartbeats told of the reports waiting meanwhile, and of none once they had left.
    const pending = fake
      .reports(routes.heartbeat.path)
      .map((r) => (r.body as { pending_reports: number }).pending_reports);
    expect(Math.max(...pending)).toBeGreaterThanOrEqual(1);
    await vi.waitFor(() => {
      const last = fake.reports(routes.heartbeat.path).at(-1)?.body;
      expect(last).toMatchObject({ pending_reports: 0 });
    }, WAIT);
    expect(fake.problems).toEqual([]);
  });

  it('drops a report the server refuses for good, and goes on with the next', async () => {
    const fake = fakeServer(launch, (received) =>
      (received.body as { seq: number }).seq === 2
        ? { status: 422, body: { error: 'idempotency_key_reused', message: 'key reused' } }
        : undefined,
    );
    const { headset, events } = headsetOn(await listen(fake));
    await headset.start();
    await vi.waitFor(() => expect(fake.reports(routes.finishSession.path)).toHaveLength(1), WAIT);
    const seqs = fake.received.filter(isReport).map((r) => (r.body as { seq: number }).seq);
    expect(seqs).toEqual([1, 2, 3, 4]);
    const dropped = events.find((e) => e.type === 'report_dropped');
    expect(dropped?.line).toBe(
      `[Quest-1] progress report for session 00000000… refused for good (422 idempotency_key_reused: key reused); dropped`,
    );
    await vi.waitFor(() => expect(headset.pendingReports).toBe(0), WAIT);
  });

  it('stops playing when a report says the session was cancelled', async () => {
    const fake = fakeServer(launch, () => ({
      status: 409,
      body: { error: 'session_cancelled', message: 'Session was cancelled' },
    }));
    const { headset, events } = headsetOn(await listen(fake), {
      paceMs: 50,
      heartbeatIntervalMs: 60_000,
    });
    await headset.start();
    const ended = await vi.waitFor(() => {
      const event = events.find((e) => e.type === 'session_ended');
      expect(event).toBeDefined();
      return event!;
    }, WAIT);
    expect(ended.line).toBe('[Quest-1] session 00000000… stopped: Session was cancelled');
    expect(headset.currentSessionId).toBeUndefined();
    expect(fake.reports(routes.finishSession.path)).toEqual([]);
    expect(events.some((e) => e.type === 'finished')).toBe(false);
  });

  it('stops playing when the heartbeat says staff cancelled the session, and says so', async () => {
    const fake = fakeServer(launch);
    const { headset, events } = headsetOn(await listen(fake), { paceMs: 60_000 });
    await headset.start();
    const started = await vi.waitFor(() => {
      const event = events.find((e) => e.type === 'session_started');
      expect(event).toBeDefined();
      return event!;
    }, WAIT);
    expect(started.line).toContain('[level 2d1f5c6a… rev 3, teleport]');
    fake.cancel();
    const ended = await vi.waitFor(() => {
      const event = events.find((e) => e.type === 'session_ended');
      expect(event).toBeDefined();
      return event!;
    }, WAIT);
    expect(ended.line).toBe('[Quest-1] session 00000000… stopped: cancelled in the console');
    expect(fake.problems).toEqual([]);
  });

  it('hears a cancel through the push channel, long before the next heartbeat', async () => {
    const fake = fakeServer(launch, undefined, true);
    const { headset, events } = headsetOn(await listen(fake), {
      paceMs: 60_000,
      heartbeatIntervalMs: 60_000,
    });
    await headset.start();
    await vi.waitFor(() => expect(headset.currentSessionId).toBe(SESSION_ID), WAIT);
    await vi.waitFor(() => expect(fake.reports(routes.headsetEvents.path)).toHaveLength(2), WAIT);
    const heartbeats = fake.reports(routes.heartbeat.path).length;
    const cancelledAt = Date.now();
    fake.cancel();
    const ended = await vi.waitFor(() => {
      const event = events.find((e) => e.type === 'session_ended');
      expect(event).toBeDefined();
      return event!;
    }, WAIT);
    expect(ended.line).toBe('[Quest-1] session 00000000… stopped: cancelled in the console');
    expect(ended.at.getTime() - cancelledAt).toBeLessThan(5000);
    expect(fake.reports(routes.heartbeat.path)).toHaveLength(heartbeats);
  });

  it('waits for each report and each reconnection without leaving a listener behind', async () => {
    // Node warns past ten listeners on one AbortSignal: the headset's lifetime gained one for each
    // report it waited for and each drop it waited out, and a long session set it off.
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // Tasks enough for the eleven drops below however slowly the machine runs them.
      const fake = fakeServer({ ...launch, max_tasks: 60 });
      const { headset } = headsetOn(await listen(fake), { paceMs: 30 });
      await headset.start();
      for (let drop = 0; drop < 11; drop++) {
        headset.dropConnection();
        await vi.waitFor(() => expect(headset.pendingReports).toBeGreaterThan(0), WAIT);
        headset.restoreConnection();
        await vi.waitFor(() => expect(headset.pendingReports).toBe(0), WAIT);
      }
      await vi.waitFor(() => expect(fake.reports(routes.finishSession.path)).toHaveLength(1), WAIT);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((warning) => warning.message)).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('keeps its outbox on disk: started again on the same folder, it sends what it held', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-sim-state-'));
    dirs.push(stateDir);
    const fake = fakeServer(launch);
    const server = await listen(fake);
    const first = headsetOn(server, { stateDir });
    await first.headset.start();
    first.headset.dropConnection();
    await vi.waitFor(() => expect(first.events.map((e) => e.type)).toContain('finished'), WAIT);
    const held = first.headset.pendingReportEntries();
    expect(held).toHaveLength(4);
    await first.headset.stop();
    const file = path.join(stateDir, `outbox-${DEVICE_ID}.jsonl`);
    expect(fs.readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(4);

    // The server still lists the session (its finish has not arrived): the new run must not
    // play it again, only deliver what the first one made.
    const credentials = { device_id: DEVICE_ID, device_token: 'token-1' };
    const second = headsetOn(server, { stateDir, credentials, code: undefined });
    await second.headset.start();
    expect(second.events[0]?.line).toBe('[Quest-1] 4 report(s) from an earlier run to send');
    await vi.waitFor(() => expect(second.headset.pendingReports).toBe(0), WAIT);
    const sent = fake.received.filter(isReport);
    expect(sent.map((r) => r.key)).toEqual(held.map((entry) => entry.key));
    expect(second.events.some((e) => e.type === 'session_started')).toBe(false);
    expect(fs.statSync(file).size).toBe(0);
  });
});
