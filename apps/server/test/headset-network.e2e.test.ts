import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SimulatedHeadset, type HeadsetEvent } from '@vrtc/headset-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppInstance } from '../src/platform/http/app-types.ts';
import { testConfig, type Config } from '../src/platform/config/config.ts';
import type { Db } from '../src/platform/database/db.ts';
import { systemClock } from '../src/platform/service/clock.ts';
import { grantAccess, makeScenarioTree, makeTenant } from './factories.ts';
import { createTestDatabase } from './harness.ts';
import { REPOSITORY_ROOT } from './server-process.ts';

/**
 * A headset loses its Wi-Fi in the middle of a session, for longer than DISCONNECT_AFTER_MS: a
 * TCP proxy between a simulated headset and the real server (its real clock and background
 * sweeper, DISCONNECT_AFTER_MS made small) is cut and restored. No fixed sleeps: each step waits
 * for what the console or the headset shows.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-network-'));
const servers: Server[] = [];
const proxies: Proxy[] = [];
const headsets: SimulatedHeadset[] = [];
const children: ChildProcess[] = [];

interface Server {
  app: AppInstance;
  config: Config;
  db: Db;
  /** http://127.0.0.1:PORT */
  url: string;
}

/** The server as it runs in production (real clock, background sweeper), on a fresh database. */
async function serve(disconnectAfterMs: number): Promise<Server> {
  const database = await createTestDatabase();
  const config = testConfig({
    dataDir,
    signingSecret: 'test-signing-secret',
    heartbeatIntervalMs: 50,
    lastSeenFlushMs: 20,
    offlineAfterMs: Math.min(15_000, (disconnectAfterMs * 2) / 3),
    disconnectAfterMs,
    sessionTimeoutMs: 3_600_000,
    deviceFiguresMaxAgeMs: 0,
    analyticsMaxAgeMs: 0,
  });
  const app = await buildApp({
    db: database.db,
    config,
    clock: systemClock,
    logger: false,
    backgroundJobs: true,
    databaseUrl: database.databaseUrl,
    onClosed: () => database.close(),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const server: Server = {
    app,
    config,
    db: database.db,
    url: `http://127.0.0.1:${(app.server.address() as net.AddressInfo).port}`,
  };
  servers.push(server);
  return server;
}

/** Silent for 2 s, a session is ended as disconnected. */
let quickToDisconnect: Server;
/** The default DISCONNECT_AFTER_MS: a session waits a minute for its headset to come back. */
let patient: Server;
beforeAll(async () => {
  [quickToDisconnect, patient] = await Promise.all([serve(2000), serve(60_000)]);
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(headsets.map((headset) => headset.stop()));
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await Promise.all(servers.map((server) => server.app.close()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Long enough for a loaded machine; every wait ends as soon as its condition holds. */
const SOON = { timeout: 20_000, interval: 20 };

type ProxyMode = 'pass' | 'cut' | 'lose finish answers';

interface Proxy {
  url: string;
  /** `cut`: connections are refused; `lose finish answers`: a finish reaches the server but its
   * answer never reaches the headset (the connection drops), everything else passes. */
  set(mode: ProxyMode): void;
  /** Finish requests forwarded to the server so far. */
  finishesForwarded(): number;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 in front of the server: the headset's Wi-Fi. */
async function startProxy(target: string): Promise<Proxy> {
  const { port } = new URL(target);
  let mode: ProxyMode = 'pass';
  let finishes = 0;
  const open = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const loseFinishAnswers = mode === 'lose finish answers';
    const upstream = net.connect(Number(port), '127.0.0.1');
    track(upstream);
    let answerToLose = false;
    client.on('data', (chunk: Buffer) => {
      // One request at a time per connection (HTTP/1.1, no pipelining): its first bytes say
      // what it is, and the next bytes from the server are its answer.
      if (/^POST \/v1\/headset\/sessions\/[^/ ]+\/finish /.test(chunk.toString('latin1'))) {
        finishes += 1;
        answerToLose = loseFinishAnswers;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (answerToLose) {
        client.resetAndDestroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: Proxy = {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    set(next) {
      mode = next;
      // Kept-alive connections were made under the old mode: the headset reconnects.
      for (const socket of open) socket.destroy();
    },
    finishesForwarded: () => finishes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
  proxies.push(proxy);
  return proxy;
}

/** An organisation with staff, a granted three-task level and an enrolment code. */
async function setup(server: Server) {
  const tenant = await makeTenant({ db: server.db, clock: systemClock, config: server.config });
  const tree = await makeScenarioTree(server.db, {
    scenarioName: 'Работа на высоте',
    moduleName: 'Модуль 1',
    levelName: 'Уровень 1',
    maxTasks: 3,
  });
  await grantAccess(server.db, tree.scenario.id, tenant.organization.id, null, new Date());
  const code = await call<{ code: string }>(
    server,
    tenant.headers,
    'POST',
    '/v1/devices/enrollment-code',
  );
  return { tenant, tree, code: code.code };
}

async function call<T>(
  server: Server,
  headers: Record<string, string>,
  method: 'GET' | 'POST',
  url: string,
  body?: object,
) {
  const response = await server.app.inject({ method, url, headers, payload: body });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json<T>();
}

interface SessionJson {
  id: string;
  status: string;
  success: boolean | null;
  completed_tasks: number;
  ended_at: string | null;
  late_result: boolean;
  ended_by_server_as: string | null;
  tasks: Array<{ number: number; result: string }>;
}

const sessionOf = (server: Server, headers: Record<string, string>, id: string) =>
  call<SessionJson>(server, headers, 'GET', `/v1/sessions/${id}`);

async function startSession(
  server: Server,
  headers: Record<string, string>,
  deviceId: string,
  levelId: string,
) {
  // The console offers a headset once its heartbeat is on record (written every
  // LAST_SEEN_FLUSH_MS): until then starting answers 409 device_not_waiting, and staff try again.
  return vi.waitFor(async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/v1/sessions/start',
      headers,
      payload: { device_id: deviceId, level_id: levelId, vr_user_name: 'Дарья' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>();
  }, SOON);
}

describe('a headset that loses its network mid-session', () => {
  it('is ended as disconnected, then its result arrives once, late, with every task', async () => {
    const server = quickToDisconnect;
    const { tenant, tree, code } = await setup(server);
    const proxy = await startProxy(server.url);
    const headset = new SimulatedHeadset({
      server: proxy.url,
      name: 'Quest-Склад',
      code,
      paceMs: 150,
      successRate: 1,
      heartbeatIntervalMs: 50,
      retry: { baseMs: 20, maxMs: 200 },
    });
    headsets.push(headset);
    const events: HeadsetEvent[] = [];
    let cut = false;
    headset.on('event', (event) => {
      events.push(event);
      // The Wi-Fi goes the moment the server has taken task 1: nothing after it gets through.
      if (event.type === 'report_delivered' && !cut) {
        cut = true;
        proxy.set('cut');
      }
    });
    await headset.start();
    const session = await startSession(server, tenant.headers, headset.deviceId!, tree.level.id);

    // The headset plays on without the network, and finishes: three reports wait in its outbox.
    await vi.waitFor(() => {
      expect(cut).toBe(true);
      expect(events.map((e) => e.type)).toContain('finished');
    }, SOON);
    expect(headset.pendingReports).toBe(3);
    const finish = headset.pendingReportEntries().at(-1)!;
    expect(finish.route).toBe('finish');

    // The console sees the session end as disconnected once the headset was silent long enough.
    await vi.waitFor(async () => {
      expect(await sessionOf(server, tenant.headers, session.id)).toMatchObject({
        status: 'disconnected',
        completed_tasks: 1,
      });
    }, SOON);

    // The network comes back, but the finish's answer is lost on the way back, twice at least:
    // the server took the result, the headset does not know and sends it again, same key.
    proxy.set('lose finish answers');
    await vi.waitFor(() => expect(proxy.finishesForwarded()).toBeGreaterThanOrEqual(2), SOON);
    const late = await sessionOf(server, tenant.headers, session.id);
    expect(late).toMatchObject({
      status: 'completed',
      success: true,
      completed_tasks: 3,
      late_result: true,
      ended_by_server_as: 'disconnected',
      ended_at: finish.body.occurred_at,
    });
    expect(late.tasks.map((task) => [task.number, task.result])).toEqual([
      [1, 'passed'],
      [2, 'passed'],
      [3, 'passed'],
    ]);
    // Meanwhile its heartbeats tell the console what it still holds.
    await vi.waitFor(async () => {
      const { devices } = await call<{ devices: Array<{ id: string; pending_reports: number }> }>(
        server,
        tenant.headers,
        'GET',
        '/v1/devices',
      );
      expect(devices.find((d) => d.id === headset.deviceId)?.pending_reports).toBe(1);
    }, SOON);

    // The answers get through again: the outbox empties, and the retries changed nothing.
    proxy.set('pass');
    await vi.waitFor(() => expect(headset.pendingReports).toBe(0), SOON);
    expect(await sessionOf(server, tenant.headers, session.id)).toEqual(late);
    expect(events.filter((e) => e.type === 'report_dropped')).toEqual([]);
    const history = await call<{ sessions: Array<{ id: string }> }>(
      server,
      tenant.headers,
      'GET',
      '/v1/sessions',
    );
    expect(history.sessions.filter((s) => s.id === session.id)).toHaveLength(1);
  });

  // Two simulator processes start from TypeScript sources: seconds each on a loaded machine.
  it(
    'killed while offline (SIGKILL), sends its outbox when started again on its state folder',
    { timeout: 120_000 },
    async () => {
      const server = patient;
      const { tenant, tree, code } = await setup(server);
      const proxy = await startProxy(server.url);
      const stateDir = path.join(dataDir, 'headset-state');
      const run = (args: string[]) => {
        const child = spawn(
          process.execPath,
          [
            '--import',
            'tsx',
            '--conditions=vrtc-source',
            'tools/headset-sim/src/cli.ts',
            ...['--server', proxy.url, '--name', 'Pico-Ангар', '--type', 'pico'],
            ...['--state-dir', stateDir, '--pace-ms', '200', '--success-rate', '1'],
            ...['--heartbeat-ms', '50'],
            ...args,
          ],
          { cwd: REPOSITORY_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        children.push(child);
        let output = '';
        child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        return { child, output: () => output, exited };
      };
      const outboxLines = () =>
        fs
          .readdirSync(stateDir)
          .filter((name) => name.startsWith('outbox-'))
          .flatMap((name) => fs.readFileSync(path.join(stateDir, name), 'utf8').split('\n'))
          .filter(Boolean);

      const first = run(['--code', code]);
      await vi.waitFor(() => expect(first.output()).toMatch(/waiting for sessions/), SOON);
      const tokens = JSON.parse(
        fs.readFileSync(path.join(stateDir, 'tokens.json'), 'utf8'),
      ) as Record<string, Record<string, { device_id: string }>>;
      const deviceId = tokens[proxy.url]!['Pico-Ангар']!.device_id;
      const session = await startSession(server, tenant.headers, deviceId, tree.level.id);
      await vi.waitFor(() => expect(first.output()).toContain('started: Работа на высоте'), SOON);
      proxy.set('cut');
      // It plays on offline; once its finish is on disk, it is killed without a chance to send.
      await vi.waitFor(() => expect(outboxLines().join('\n')).toContain('"route":"finish"'), SOON);
      first.child.kill('SIGKILL');
      await first.exited;
      expect((await sessionOf(server, tenant.headers, session.id)).status).not.toBe('completed');

      proxy.set('pass');
      const second = run([]);
      await vi.waitFor(() => expect(second.output()).toMatch(/from an earlier run to send/), SOON);
      await vi.waitFor(async () => {
        expect(await sessionOf(server, tenant.headers, session.id)).toMatchObject({
          status: 'completed',
          success: true,
          completed_tasks: 3,
        });
      }, SOON);
      await vi.waitFor(() => expect(outboxLines()).toEqual([]), SOON);
      const detail = await sessionOf(server, tenant.headers, session.id);
      expect(detail.tasks.map((task) => task.number)).toEqual([1, 2, 3]);
      // The second run delivered the first one's reports; it did not play the session again.
      expect(second.output()).not.toContain('started: Работа на высоте');
      second.child.kill('SIGTERM');
      await second.exited;
    },
  );
});
