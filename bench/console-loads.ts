import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import type { AppInstance } from '../apps/server/src/platform/http/app-types.ts';
import { testConfig } from '../apps/server/src/platform/config/config.ts';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/platform/database/db.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import type {
  ClientJob,
  DownloadOutcome,
  KeepAliveOutcome,
  LoadJob,
  LoadOutcome,
  LoopOutcome,
} from './console-client.ts';
import {
  ADMIN_EMAIL,
  BENCH_PASSWORD,
  NAME_FRAGMENT,
  clientEmail,
  deviceToken,
  fillDatabase,
} from './console-fill.ts';
import { loadAverage, say } from './cli.ts';
import {
  CONNECTIONS,
  DURATION_S,
  HEARTBEAT_CONNECTIONS,
  HEARTBEAT_DEVICES,
  HEARTBEAT_RATE,
  HEARTBEAT_S,
  KEEP,
  KEEPALIVE_MS,
  LOG_LEVEL,
  READ_FILTER,
  REQUEST_TIMEOUT_S,
  SERVER_URL,
  SLOW_PROBE_MS,
  SLOW_REQUESTS,
  WARMUP_S,
  int,
  isoDay,
  sleep,
} from './console-options.ts';
import { HISTORY_EXPORT, READS, type ReadContext, type Token } from './console-reads.ts';
import {
  type DatabaseRun,
  type ExportResult,
  type HeartbeatResult,
  type Measurement,
  type ReadResult,
  RssWatch,
  type StaticResult,
  describeSizes,
  summarizeRead,
} from './console-report.ts';
import { createScratchDatabase } from './targets.ts';

/**
 * `npm run bench:console`'s loads: HTTP from this process, the client processes, one database
 * filled, served and measured (console.bench.ts runs it per database).
 */

// ---------------------------------------------------------------------------------------------
// Plumbing: HTTP from this process (probes, sign-in, static files) and the client processes
// ---------------------------------------------------------------------------------------------

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

export function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<HttpAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT_S * 1000, () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A client process (console-client.ts); several jobs may run at once, each answered by id. */
export class ClientProcess {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void }
  >();

  constructor(name: string) {
    this.child = fork(path.join(import.meta.dirname, 'console-client.ts'), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (message: { id: number; result?: unknown; error?: string }) => {
      const entry = this.waiting.get(message.id);
      if (!entry) return;
      this.waiting.delete(message.id);
      if (message.error !== undefined) entry.reject(new Error(`${name}: ${message.error}`));
      else entry.resolve(message.result);
    });
    this.child.on('exit', (code) => {
      for (const entry of this.waiting.values())
        entry.reject(new Error(`${name} exited (${code})`));
      this.waiting.clear();
    });
  }

  start<T>(job: ClientJob): { id: number; done: Promise<T> } {
    const id = this.nextId++;
    const done = new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
    });
    this.child.send({ id, job });
    return { id, done };
  }

  run<T>(job: ClientJob): Promise<T> {
    return this.start<T>(job).done;
  }

  stop(id: number): void {
    this.child.send({ id, stop: true });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

/** The bare reference: a GET answering a small page, and the heartbeat's path, with no work. */
export async function startBareApp() {
  const app = Fastify({ logger: false });
  const page = {
    items: Array.from({ length: 10 }, (_, i) => ({
      id: `00000000-0000-4000-8000-00000000000${i}`,
      name: `Item ${i}`,
      created_at: '2026-01-01T00:00:00.000Z',
    })),
    total: 10,
  };
  app.get('/v1/bare', async () => page);
  app.post('/v1/headset/heartbeat', async () => ({
    device_id: '00000000-0000-4000-8000-000000000000',
    movement_type: 'slide',
    heartbeat_interval_ms: 5000,
    session: null,
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: () => app.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// One database
// ---------------------------------------------------------------------------------------------

export interface Server {
  url: string;
  app: AppInstance;
  /** Resolves once the database has nothing of the app's left to run. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

export const cleanups: Array<() => Promise<void>> = [];

export async function startServer(
  handle: DatabaseHandle,
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<Server> {
  const config = testConfig({ dataDir, databaseUrl, logLevel: LOG_LEVEL, signingSecret: 'bench' });
  const app = await buildApp({
    db: handle.db,
    config,
    backgroundJobs: true,
    logger: LOG_LEVEL === 'silent' ? false : { level: LOG_LEVEL, file: '/dev/null' },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  let monitor: pg.Client | undefined;
  if (databaseUrl) {
    monitor = new pg.Client({ connectionString: databaseUrl });
    await monitor.connect();
  }
  const settle = async () => {
    const until = Date.now() + 180_000;
    if (monitor) {
      // Statements left running by requests autocannon gave up on, whatever they are.
      for (;;) {
        const { rows } = await monitor.query<{ busy: number }>(
          `SELECT count(*)::int AS busy FROM pg_stat_activity
           WHERE datname = current_database() AND backend_type = 'client backend'
             AND state = 'active' AND pid <> pg_backend_pid()`,
        );
        if (rows[0]!.busy === 0 || Date.now() > until) break;
        await sleep(100);
      }
    } else {
      // PGlite runs one statement at a time: this one runs after every one queued before it.
      await sql`SELECT 1`.execute(handle.db);
    }
    await sleep(200);
  };
  return {
    url,
    app,
    settle,
    async close() {
      await app.close();
      await monitor?.end();
    },
  };
}

export async function signIn(url: string, email: string): Promise<string> {
  const answer = await request(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: BENCH_PASSWORD }),
  });
  if (answer.status !== 200) {
    throw new Error(`sign-in as ${email} answered ${answer.status}: ${answer.body.toString()}`);
  }
  return (JSON.parse(answer.body.toString()) as { token: string }).token;
}

export function describeItems(body: Buffer, contentType: string): string | undefined {
  if (!contentType.includes('json') || body.length > 64 * 1024 * 1024) return undefined;
  try {
    const value = JSON.parse(body.toString()) as Record<string, unknown>;
    for (const [key, field] of Object.entries(value)) {
      if (Array.isArray(field)) {
        const total = typeof value.total === 'number' ? ` of ${int(value.total)}` : '';
        return `${int(field.length)} ${key}${total}`;
      }
    }
  } catch {
    return undefined;
  }
  return undefined;
}

export function errorMessage(answer: HttpAnswer): string {
  try {
    const body = JSON.parse(answer.body.toString()) as { error?: string; message?: string };
    return [body.error, body.message].filter(Boolean).join(': ');
  } catch {
    return answer.body.toString().slice(0, 120);
  }
}

export async function runLoad(
  client: ClientProcess,
  server: { url: string; settle(): Promise<void> },
  job: Omit<LoadJob, 'kind' | 'url' | 'timeoutS'>,
  mode: string,
): Promise<Measurement> {
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  const rss = new RssWatch();
  const cpuBefore = process.cpuUsage();
  const load = await client.run<LoadOutcome>({
    kind: 'load',
    url: server.url,
    timeoutS: REQUEST_TIMEOUT_S,
    ...job,
  });
  const cpu = process.cpuUsage(cpuBefore);
  rss.stop();
  loopDelay.disable();
  return {
    load,
    cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / Math.max(1, load.total),
    loopDelayMaxMs: loopDelay.max / 1e6,
    rssPeakBytes: rss.peakBytes,
    mode,
  };
}

/** Probe, warm-up, measure, settle. */
export async function measureRead(
  client: ClientProcess,
  server: Server,
  name: string,
  url: string,
  token: Token,
  tokens: Record<Token, string>,
  informational = false,
): Promise<ReadResult> {
  const headers = { authorization: `Bearer ${tokens[token]}` };
  const result: ReadResult = { name, url, token, status: 0, bytes: 0, probeMs: 0, informational };
  try {
    const probe = await request(`${server.url}${url}`, { headers });
    result.status = probe.status;
    result.bytes = probe.body.length;
    result.probeMs = probe.ms;
    const contentType = String(probe.headers['content-type'] ?? '');
    result.items = describeItems(probe.body, contentType);
    if (probe.status < 200 || probe.status > 299) {
      result.message = errorMessage(probe);
      return result;
    }
    const job = { method: 'GET' as const, path: url, headers, connections: CONNECTIONS };
    const second = await request(`${server.url}${url}`, { headers });
    result.secondProbeMs = second.ms;
    if (Math.min(probe.ms, second.ms) >= SLOW_PROBE_MS) {
      // A slow read: a fixed number of requests, every one answered, no warm-up (the probes
      // were one).
      await server.settle();
      result.measured = await runLoad(
        client,
        server,
        { ...job, amount: SLOW_REQUESTS },
        `${SLOW_REQUESTS} requests`,
      );
    } else {
      await runLoad(client, server, { ...job, durationS: WARMUP_S }, 'warm-up');
      await server.settle();
      result.measured = await runLoad(
        client,
        server,
        { ...job, durationS: DURATION_S },
        `${DURATION_S} s`,
      );
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await server.settle();
  }
  return result;
}

export async function measureExport(
  client: ClientProcess,
  server: Server,
  token: string,
  label: string,
): Promise<ExportResult> {
  const rss = new RssWatch();
  try {
    const outcome = await client.run<DownloadOutcome>({
      kind: 'download',
      url: `${server.url}${HISTORY_EXPORT}`,
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
    });
    rss.stop();
    return {
      label,
      outcome,
      rssBeforeBytes: rss.beforeBytes,
      rssPeakBytes: rss.peakBytes,
      samples: rss.samples,
      maxSampleGapMs: rss.maxGapMs,
    };
  } finally {
    rss.stop();
    await server.settle();
  }
}

export async function measureHeartbeat(
  load: ClientProcess,
  background: ClientProcess,
  server: Server,
  bareUrl: string,
  deviceTokens: string[],
  adminToken: string,
  range365: string,
): Promise<HeartbeatResult> {
  const job = {
    method: 'POST' as const,
    path: '/v1/headset/heartbeat',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ battery_percent: 87, app_version: '1.5.0' }),
    connections: HEARTBEAT_CONNECTIONS,
    overallRate: HEARTBEAT_RATE,
    tokens: deviceTokens,
  };
  const bareServer = { url: bareUrl, settle: async () => {} };
  say(`    heartbeat: bare route at ${HEARTBEAT_RATE} req/s…`);
  await runLoad(load, bareServer, { ...job, durationS: 2 }, 'warm-up');
  const bare = await runLoad(load, bareServer, { ...job, durationS: HEARTBEAT_S }, 'rate');
  say(`    heartbeat: idle…`);
  await runLoad(load, server, { ...job, durationS: 3 }, 'warm-up');
  await server.settle();
  const idle = await runLoad(load, server, { ...job, durationS: HEARTBEAT_S }, 'rate');
  await server.settle();
  say(`    heartbeat: while an admin loops the 365-day statistics and the history export…`);
  const adminHeaders = { authorization: `Bearer ${adminToken}`, 'accept-encoding': 'identity' };
  const loop = background.start<LoopOutcome>({
    kind: 'loop',
    requests: [
      { name: 'stats range · 365 days', url: `${server.url}${range365}`, headers: adminHeaders },
      { name: 'history export', url: `${server.url}${HISTORY_EXPORT}`, headers: adminHeaders },
    ],
  });
  await sleep(500);
  const loaded = await runLoad(load, server, { ...job, durationS: HEARTBEAT_S }, 'rate');
  background.stop(loop.id);
  const loopOutcome = await loop.done;
  await server.settle();
  return {
    bare: bare.load,
    idle: idle.load,
    loaded: loaded.load,
    loop: loopOutcome,
    loopDelayMaxIdleMs: idle.loopDelayMaxMs,
    loopDelayMaxLoadedMs: loaded.loopDelayMaxMs,
  };
}

export async function measureStatic(url: string): Promise<StaticResult> {
  const headers = { 'accept-encoding': 'br, gzip' };
  const index = await request(`${url}/login`, { headers });
  const html = index.body.toString();
  const files: StaticResult['files'] = [
    {
      path: '/login',
      status: index.status,
      bytes: index.body.length,
      encoding: String(index.headers['content-encoding'] ?? 'identity'),
      cacheControl: String(index.headers['cache-control'] ?? '(none)'),
    },
  ];
  // Decompressed only to read the references (the transfer is counted as sent).
  const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
  const text =
    files[0]!.encoding === 'br'
      ? brotliDecompressSync(index.body).toString()
      : files[0]!.encoding === 'gzip'
        ? gunzipSync(index.body).toString()
        : html;
  const references = new Set<string>();
  for (const match of text.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) references.add(match[1]!);
  for (const match of text.matchAll(/<link\b[^>]*\bhref="([^"]+)"/g)) references.add(match[1]!);
  for (const reference of references) {
    const answer = await request(new URL(reference, `${url}/login`).toString(), { headers });
    files.push({
      path: reference,
      status: answer.status,
      bytes: answer.body.length,
      encoding: String(answer.headers['content-encoding'] ?? 'identity'),
      cacheControl: String(answer.headers['cache-control'] ?? '(none)'),
    });
  }
  const hashed = files.find((file) => /-[\w-]{8,}\.(js|css)$/.test(file.path));
  return {
    indexStatus: index.status,
    indexCacheControl: files[0]!.cacheControl,
    files,
    totalBytes: files.reduce((sum, file) => sum + file.bytes, 0),
    hashedAsset: hashed ? { path: hashed.path, cacheControl: hashed.cacheControl } : undefined,
  };
}

export async function runDatabase(
  run: DatabaseRun,
  clients: { load: ClientProcess; background: ClientProcess },
  bareUrl: string,
  passwordHash: string,
  stamp: string,
  staticHolder: { result?: StaticResult },
): Promise<void> {
  say();
  say(`## ${run.label}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `vrtc-bench-console-${run.kind}-`));
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (run.kind === 'postgres') {
    const name = `vrtc_bench_${stamp}`;
    const created = await createScratchDatabase(SERVER_URL, name);
    databaseUrl = created.url;
    drop = created.drop;
    run.where = `database ${name} on ${new URL(SERVER_URL).host}`;
  } else {
    run.where = `PGlite in ${path.join(dataDir, 'pglite')}`;
  }
  const dispose = async () => {
    if (KEEP) {
      say(`  (--keep: ${run.where} kept)`);
      return;
    }
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  cleanups.push(dispose);
  say(`  ${run.where}`);

  run.rss.push(['before opening the database', process.memoryUsage.rss()]);
  const handle = await openDatabase(
    run.kind === 'postgres' ? { databaseUrl } : { pgliteDir: dataDir },
  );
  let server: Server | undefined;
  let keepAlive: { id: number; done: Promise<KeepAliveOutcome> } | undefined;
  let serving: RssWatch | undefined;
  try {
    run.rss.push(['database opened', process.memoryUsage.rss()]);
    await migrate(handle.db);
    say(`  fill (${describeSizes(run.sizes)}):`);
    const fill = await fillDatabase(handle.db, run.sizes, {
      now: new Date(),
      passwordHash,
      log: say,
    });
    run.fill = fill;
    run.expectedExportRows = fill.biggest.endedSessions;
    say(`  fill took ${(fill.totalMs / 1000).toFixed(1)} s`);
    run.rss.push(['filled', process.memoryUsage.rss()]);

    // The headsets in session were heard from just now: the sweeper must not end their sessions.
    const activeTokens = fill.activeDeviceNumbers.map(deviceToken);
    await sql`UPDATE devices SET last_seen_at = now()
      WHERE id IN (SELECT device_id FROM sessions WHERE status = 'active')`.execute(handle.db);
    server = await startServer(handle, dataDir, databaseUrl);
    keepAlive = clients.background.start<KeepAliveOutcome>({
      kind: 'keepalive',
      url: server.url,
      tokens: activeTokens,
      intervalMs: KEEPALIVE_MS,
    });
    const tokens: Record<Token, string> = {
      admin: await signIn(server.url, ADMIN_EMAIL),
      client: await signIn(server.url, clientEmail(1)),
    };
    say(`  server at ${server.url}; signed in as ${ADMIN_EMAIL} and ${clientEmail(1)}`);
    run.rss.push(['server started', process.memoryUsage.rss()]);
    // The server's peak while it serves the benchmark: reads, exports, heartbeats, the admin loop.
    serving = new RssWatch();

    if (!staticHolder.result) {
      say('  static files (/login)…');
      staticHolder.result = await measureStatic(server.url);
    }

    say('  bare Fastify route (reference)…');
    const bareServer = { url: bareUrl, settle: async () => {} };
    const bareJob = { method: 'GET' as const, path: '/v1/bare', connections: CONNECTIONS };
    await runLoad(clients.load, bareServer, { ...bareJob, durationS: WARMUP_S }, 'warm-up');
    run.bare = await runLoad(
      clients.load,
      bareServer,
      { ...bareJob, durationS: DURATION_S },
      `${DURATION_S} s`,
    );

    say('  history export (twice)…');
    run.exports.push(await measureExport(clients.load, server, tokens.client, 'first (cold)'));
    run.exports.push(await measureExport(clients.load, server, tokens.client, 'second'));

    const today = new Date();
    const mostGranted = await sql<{ scenario_id: string }>`
      SELECT scenario_id FROM scenario_access GROUP BY scenario_id ORDER BY count(*) DESC LIMIT 1
    `.execute(handle.db);
    const context: ReadContext = {
      orgId: fill.biggest.id,
      scenarioId: mostGranted.rows[0]!.scenario_id,
      offset: (n) => Math.round(n * run.scale),
      range: (days) =>
        `start_date=${isoDay(new Date(today.getTime() - (days - 1) * 86_400_000))}&end_date=${isoDay(today)}`,
      q: NAME_FRAGMENT,
    };
    const measuredUnpaged = new Set<string>();
    for (const read of READS) {
      if (READ_FILTER && !READ_FILTER.test(read.name)) continue;
      const url = read.url(context);
      say(`  ${read.name}: ${url}`);
      const result = await measureRead(clients.load, server, read.name, url, read.token, tokens);
      run.reads.push(result);
      say(`    ${summarizeRead(result)}`);
      if (result.status === 400 && read.unpaged) {
        const unpaged = read.unpaged(context);
        if (!measuredUnpaged.has(unpaged)) {
          measuredUnpaged.add(unpaged);
          say(`  ↳ refused; today's unpaged read: ${unpaged}`);
          const current = await measureRead(
            clients.load,
            server,
            `↳ ${read.name} (unpaged, today)`,
            unpaged,
            read.token,
            tokens,
            true,
          );
          run.reads.push(current);
          say(`    ${summarizeRead(current)}`);
        }
      }
    }

    run.rss.push(['after the reads', process.memoryUsage.rss()]);
    const heartbeatTokens = fill.idleDeviceNumbers.slice(0, HEARTBEAT_DEVICES).map(deviceToken);
    run.heartbeat = await measureHeartbeat(
      clients.load,
      clients.background,
      server,
      bareUrl,
      heartbeatTokens,
      tokens.admin,
      `/v1/admin/stats/range?${context.range(365)}`,
    );
    run.rss.push(['after the heartbeats', process.memoryUsage.rss()]);
    run.servingRssPeakBytes = serving.stop().peakBytes;
    run.rss.push(['highest while serving (every 100 ms)', run.servingRssPeakBytes]);
  } catch (error) {
    // The message and where it came from, without the driver's frames.
    run.error =
      error instanceof Error
        ? [error.message, ...(error.stack ?? '').split('\n').filter((l) => l.includes('/bench/'))]
            .slice(0, 4)
            .join('\n')
        : String(error);
    say(`  FAILED: ${run.error}`);
  } finally {
    serving?.stop();
    if (keepAlive) {
      clients.background.stop(keepAlive.id);
      run.keepAlive = await keepAlive.done.catch(() => undefined);
    }
    await server
      ?.close()
      .catch((error: unknown) => say(`  closing the server failed: ${String(error)}`));
    await handle.close().catch(() => undefined);
    cleanups.splice(cleanups.indexOf(dispose), 1);
    await dispose();
    run.loadAfter = loadAverage();
  }
}

// ---------------------------------------------------------------------------------------------
