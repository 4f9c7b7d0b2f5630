import { execSync, fork, type ChildProcess } from 'node:child_process';
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
import { hashPassword } from '../apps/server/src/auth/passwords.ts';
import type { AppInstance } from '../apps/server/src/platform/http/app-types.ts';
import { CONFIG_SETTINGS, testConfig } from '../apps/server/src/platform/config/config.ts';
import { readSetting } from '../apps/server/src/platform/config/settings.ts';
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
  sizesFor,
  type FillResult,
  type FillSizes,
} from './console-fill.ts';
import { cliArgs, loadAverage, say } from './cli.ts';

/**
 * `npm run bench:console`: the console's read paths at scale. A benchmark, not a test: it prints
 * PASS/FAIL against the targets below and exits 0 whatever the verdict (non-zero only when it
 * cannot run at all).
 *
 * For each database (PostgreSQL at --scale, default 1: 100 organisations, 20,000 headsets,
 * 50,000 VR users, 1,000,000 sessions over 400 days; then PGlite at a tenth of that):
 *  1. a fresh database, migrated, filled with plain SQL as a bulk import would (console-fill.ts);
 *  2. the real app in this process (buildApp, background jobs on, 127.0.0.1, free port); sign-in
 *     as the admin and as a client of the biggest organisation; the headsets running the active
 *     sessions heartbeat every 5 s throughout, as headsets in session do;
 *  3. a bare Fastify route under the same load first, as the reference;
 *  4. each console read of READS: one probe (status, size), then autocannon at 10 connections;
 *  5. the history export (downloaded twice; RSS of this process sampled every 100 ms);
 *  6. heartbeats at a fixed 1,000 req/s, idle and while an admin loops the 365-day statistics and
 *     the history export;
 *  7. once: /login and what its HTML references, as a browser fetches them (br, gzip).
 * This process's RSS is sampled every 100 ms from the server's start to the end of 6: on PGlite its
 * peak is held under 650 MB (issue #27).
 * Clients (autocannon, downloads, background traffic) run in child processes (console-client.ts),
 * so this process's CPU time and RSS are the server's (PGlite included: it runs in a worker thread
 * of this process).
 *
 * Flags: --scale=1 (PostgreSQL; PGlite gets a tenth), --pglite-scale=…, --pg-only, --pglite-only,
 * --keep (keep the database / PGlite directory), --duration=3 and --warmup=1 (seconds per read),
 * --connections=10, --heartbeat-s=10, --reads=<regexp> (only the reads whose name matches),
 * --batch=100000 (sessions per INSERT). DATABASE_URL chooses the PostgreSQL server (default
 * postgres://postgres@127.0.0.1:5432/postgres); the database itself is created for the run.
 */

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

const args = cliArgs();
const numberArg = (name: string, fallback: number) => {
  const value = args.has(name) ? Number(args.get(name)) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const SCALE = numberArg('scale', 1);
const PGLITE_SCALE = numberArg('pglite-scale', SCALE / 10);
const DURATION_S = numberArg('duration', 3);
const WARMUP_S = numberArg('warmup', 1);
const CONNECTIONS = numberArg('connections', 10);
const HEARTBEAT_S = numberArg('heartbeat-s', 10);
const HEARTBEAT_RATE = numberArg('heartbeat-rate', 1000);
const HEARTBEAT_CONNECTIONS = numberArg('heartbeat-connections', 50);
const HEARTBEAT_DEVICES = numberArg('heartbeat-devices', 200);
const BATCH = numberArg('batch', 100_000);
const KEEP = args.has('keep');
const READ_FILTER = args.has('reads') ? new RegExp(args.get('reads')!, 'i') : undefined;
const RUN_PG = !args.has('pglite-only');
const RUN_PGLITE = !args.has('pg-only');
const LOG_LEVEL = readSetting(CONFIG_SETTINGS.logLevel, process.env);
const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * A read whose warm probe takes this long is measured with a fixed number of requests
 * (SLOW_REQUESTS, every one answered) instead of a window of DURATION_S: at 10 connections on 2
 * cores such a read would complete only a few dozen requests in the window, and autocannon drops
 * the ones still running when it ends, which are the slowest.
 */
const SLOW_PROBE_MS = 100;
const SLOW_REQUESTS = 3 * CONNECTIONS;
const REQUEST_TIMEOUT_S = 120;
/** Keep-alive interval of the headsets in session (the server's default heartbeat interval). */
const KEEPALIVE_MS = 5000;

// Targets
const READ_P99_MS = 100;
const EXPORT_MAX_S = 5;
const EXPORT_MAX_RSS_MB = 300;
const HEARTBEAT_MAX_RATIO = { postgres: 2, pglite: 3 } as const;
/** Issue #27: the server on PGlite (its WebAssembly heap in this process) stays under this. */
const PGLITE_SERVING_MAX_RSS_MB = 650;
const LOGIN_MAX_BYTES = 200 * 1024;
const IMMUTABLE = 'public, max-age=31536000, immutable';

const ROOT = path.resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const kb = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MB`
    : `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const int = (value: number) => Math.round(value).toLocaleString('en-US');
const isoDay = (at: Date) => at.toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// The console reads. URLs are built from the run: `offset(n)` is n at scale 1 and scales with the
// fill (the deep pages stay as deep into the biggest organisation's lists), `range(days)` is the
// last `days` UTC days ending today. `unpaged`: what the console reads today when the server
// refuses the paging parameters (measured only then, as information).
// ---------------------------------------------------------------------------------------------

interface ReadContext {
  orgId: string;
  /** The scenario granted to the most organisations. */
  scenarioId: string;
  offset(atFullScale: number): number;
  range(days: number): string;
  q: string;
}
type Token = 'client' | 'admin';
interface ReadSpec {
  name: string;
  method: 'GET';
  url: (c: ReadContext) => string;
  token: Token;
  unpaged?: (c: ReadContext) => string;
}

const READS: ReadSpec[] = [
  {
    name: 'VR users · first page',
    method: 'GET',
    token: 'client',
    url: () => '/v1/vr-users?limit=10',
  },
  {
    name: 'VR users · deep page',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/vr-users?limit=10&offset=${c.offset(4000)}`,
  },
  {
    name: 'VR users · search',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/vr-users?limit=10&q=${c.q}`,
  },
  {
    name: 'VR users · by session count',
    method: 'GET',
    token: 'client',
    url: () => '/v1/vr-users?limit=10&sort=session_count&order=desc',
  },
  {
    name: 'devices · first page',
    method: 'GET',
    token: 'client',
    url: () => '/v1/devices?limit=10',
    unpaged: () => '/v1/devices',
  },
  {
    name: 'admin devices · first page',
    method: 'GET',
    token: 'admin',
    url: () => '/v1/admin/devices/all?limit=10',
    unpaged: () => '/v1/admin/devices/all',
  },
  {
    name: 'admin devices · deep page',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/devices/all?limit=10&offset=${c.offset(15000)}`,
    unpaged: () => '/v1/admin/devices/all',
  },
  {
    name: 'history · first page',
    method: 'GET',
    token: 'client',
    url: () => '/v1/sessions?limit=10',
  },
  {
    name: 'history · deep page',
    method: 'GET',
    token: 'client',
    url: (c) => `/v1/sessions?limit=10&offset=${c.offset(90000)}`,
  },
  {
    name: 'history · completed',
    method: 'GET',
    token: 'client',
    url: () => '/v1/sessions?status=completed&limit=10',
  },
  {
    name: 'organisations with stats',
    method: 'GET',
    token: 'admin',
    url: () => '/v1/admin/organizations?include_stats=true&limit=10',
    unpaged: () => '/v1/admin/organizations?include_stats=true',
  },
  {
    name: 'organisation analytics · 30 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/organizations/${c.orgId}/analytics?days=30`,
  },
  { name: 'stats', method: 'GET', token: 'admin', url: () => '/v1/admin/stats' },
  {
    name: 'stats range · 7 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/range?${c.range(7)}`,
  },
  {
    name: 'stats range · 30 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/range?${c.range(30)}`,
  },
  {
    name: 'stats range · 90 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/range?${c.range(90)}`,
  },
  {
    name: 'stats range · 365 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/range?${c.range(365)}`,
  },
  {
    name: 'stats export · 365 days',
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/stats/export?${c.range(365)}`,
  },
  {
    name: 'admin users',
    method: 'GET',
    token: 'admin',
    url: () => '/v1/admin/users?limit=10',
    unpaged: () => '/v1/admin/users',
  },
  {
    name: 'admin scenarios',
    method: 'GET',
    token: 'admin',
    url: () => '/v1/admin/scenarios?limit=10',
    unpaged: () => '/v1/admin/scenarios',
  },
  {
    name: 'scenario access matrix',
    method: 'GET',
    token: 'admin',
    // The console's page: 10 scenarios, each with its first 10 grants and their counts.
    url: () => '/v1/admin/scenarios/access?limit=10',
    unpaged: () => '/v1/admin/scenarios/access',
  },
  {
    name: "scenario access · a scenario's 2nd page",
    method: 'GET',
    token: 'admin',
    url: (c) => `/v1/admin/scenarios/${c.scenarioId}/access?limit=10&offset=10`,
  },
];
const RANGE_7 = 'stats range · 7 days';
const RANGE_365 = 'stats range · 365 days';
/** The history export: the History tab's query (no filter: every ended session), as CSV. */
const HISTORY_EXPORT = '/v1/sessions/export';

// ---------------------------------------------------------------------------------------------
// Plumbing: HTTP from this process (probes, sign-in, static files) and the client processes
// ---------------------------------------------------------------------------------------------

interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  ms: number;
}

function request(
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
class ClientProcess {
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
async function startBareApp() {
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
// Results
// ---------------------------------------------------------------------------------------------

interface Measurement {
  load: LoadOutcome;
  /** CPU time of this process (the server, PGlite included) per answered request, ms. */
  cpuMsPerRequest: number;
  loopDelayMaxMs: number;
  /** RSS of this process (the server), sampled every 100 ms during the measurement. */
  rssPeakBytes: number;
  mode: string;
}

/** Samples this process's RSS every 100 ms from start() to stop(). */
class RssWatch {
  readonly beforeBytes = process.memoryUsage.rss();
  peakBytes = this.beforeBytes;
  samples = 0;
  maxGapMs = 0;
  private last = performance.now();
  private readonly timer = setInterval(() => {
    const now = performance.now();
    this.maxGapMs = Math.max(this.maxGapMs, now - this.last);
    this.last = now;
    this.samples += 1;
    this.peakBytes = Math.max(this.peakBytes, process.memoryUsage.rss());
  }, 100);

  stop(): this {
    clearInterval(this.timer);
    this.peakBytes = Math.max(this.peakBytes, process.memoryUsage.rss());
    return this;
  }
}

interface ReadResult {
  name: string;
  url: string;
  token: Token;
  status: number;
  message?: string;
  bytes: number;
  items?: string;
  /** The first request (cold) and the second. */
  probeMs: number;
  secondProbeMs?: number;
  measured?: Measurement;
  /** The unpaged URL measured because the paged one was refused (no verdict). */
  informational?: boolean;
  error?: string;
}

interface ExportResult {
  label: string;
  outcome: DownloadOutcome;
  rssBeforeBytes: number;
  rssPeakBytes: number;
  samples: number;
  maxSampleGapMs: number;
}

interface HeartbeatResult {
  bare: LoadOutcome;
  idle: LoadOutcome;
  loaded: LoadOutcome;
  loop: LoopOutcome;
  loopDelayMaxIdleMs: number;
  loopDelayMaxLoadedMs: number;
}

interface StaticResult {
  indexStatus: number;
  indexCacheControl: string;
  files: Array<{
    path: string;
    status: number;
    bytes: number;
    encoding: string;
    cacheControl: string;
  }>;
  totalBytes: number;
  hashedAsset?: { path: string; cacheControl: string };
}

interface DatabaseRun {
  kind: 'postgres' | 'pglite';
  label: string;
  scale: number;
  sizes: FillSizes;
  where: string;
  fill?: FillResult;
  loadBefore: string;
  loadAfter?: string;
  bare?: Measurement;
  reads: ReadResult[];
  exports: ExportResult[];
  expectedExportRows?: number;
  heartbeat?: HeartbeatResult;
  keepAlive?: KeepAliveOutcome;
  /** RSS of this process at each stage. */
  rss: Array<[string, number]>;
  /** This process's highest RSS from the server's start to the end of the heartbeats. */
  servingRssPeakBytes?: number;
  error?: string;
}

// ---------------------------------------------------------------------------------------------
// One database
// ---------------------------------------------------------------------------------------------

interface Server {
  url: string;
  app: AppInstance;
  /** Resolves once the database has nothing of the app's left to run. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

const cleanups: Array<() => Promise<void>> = [];

async function createDatabase(name: string) {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    const cleanup = new pg.Client({ connectionString: SERVER_URL });
    await cleanup.connect();
    try {
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } finally {
      await cleanup.end();
    }
  };
  return { url: url.toString(), drop };
}

async function startServer(
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

async function signIn(url: string, email: string): Promise<string> {
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

function describeItems(body: Buffer, contentType: string): string | undefined {
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

function errorMessage(answer: HttpAnswer): string {
  try {
    const body = JSON.parse(answer.body.toString()) as { error?: string; message?: string };
    return [body.error, body.message].filter(Boolean).join(': ');
  } catch {
    return answer.body.toString().slice(0, 120);
  }
}

async function runLoad(
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
async function measureRead(
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

async function measureExport(
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

async function measureHeartbeat(
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

async function measureStatic(url: string): Promise<StaticResult> {
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

async function runDatabase(
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
    const created = await createDatabase(name);
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
// Report
// ---------------------------------------------------------------------------------------------

function describeSizes(sizes: FillSizes): string {
  return (
    `${int(sizes.organizations)} organisations, ${int(sizes.devices)} headsets, ` +
    `${int(sizes.vrUsers)} VR users, ${int(sizes.sessions)} sessions ` +
    `(${int(sizes.activeSessions)} active), organisation 1 holding ${sizes.biggestShare * 100} % of each`
  );
}

function statusText(result: ReadResult): string {
  if (result.error) return `error: ${result.error}`;
  if (result.status === 404) return '404 – not built yet';
  if (result.status >= 200 && result.status <= 299) return String(result.status);
  return `${result.status} – not built yet${result.message ? ` (${result.message})` : ''}`;
}

function summarizeRead(result: ReadResult): string {
  const m = result.measured;
  if (!m)
    return `${statusText(result)}, ${int(result.bytes)} bytes, probe ${ms(result.probeMs)} ms`;
  return (
    `${statusText(result)}, ${int(result.bytes)} bytes${result.items ? ` (${result.items})` : ''}, ` +
    `p50 ${ms(m.load.p50)} ms, p99 ${ms(m.load.p99)} ms, ${m.load.requestsPerSecond.toFixed(1)} req/s ` +
    `(${m.load.ok} answered${m.load.non2xx ? `, ${m.load.non2xx} non-2xx` : ''}${m.load.timeouts ? `, ${m.load.timeouts} timed out` : ''})`
  );
}

const verdict = (ok: boolean | undefined) =>
  ok === undefined ? 'n/a' : ok ? '**PASS**' : '**FAIL**';
/** A markdown table; `align` has one letter per column, l or r (default: the first l, others r). */
const table = (header: string[], rows: string[][], align?: string) =>
  [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'r' ? '---:' : '---')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');

function readVerdict(result: ReadResult): { ok: boolean; why: string } {
  if (!result.measured) {
    return { ok: false, why: result.error ? 'error' : `${result.status}, not built yet` };
  }
  const load = result.measured.load;
  if (load.ok === 0) return { ok: false, why: 'no answer measured' };
  if (load.non2xx + load.errors + load.timeouts > 0)
    return { ok: false, why: `${load.non2xx + load.errors + load.timeouts} failed` };
  return { ok: load.p99 < READ_P99_MS, why: `p99 ${ms(load.p99)} ms` };
}

function databaseReport(run: DatabaseRun): { lines: string[]; targets: string[][] } {
  const lines: string[] = [];
  const targets: string[][] = [];
  lines.push(`## ${run.label}`, '');
  lines.push(`- Where: ${run.where}`);
  lines.push(`- Requested: ${describeSizes(run.sizes)} (scale ${run.scale})`);
  lines.push(
    `- Load average (1 / 5 / 15 min): ${run.loadBefore} before, ${run.loadAfter ?? '?'} after`,
  );
  if (run.error) lines.push('', '**The run failed:**', '', '```', run.error, '```');
  const fill = run.fill;
  if (fill) {
    lines.push(
      `- Filled: ${Object.entries(fill.totals)
        .map(([key, value]) => `${int(value)} ${key.replace(/_/g, ' ')}`)
        .join(', ')}`,
      `- Biggest organisation: ${fill.biggest.name} (${fill.biggest.id}): ${int(fill.biggest.devices)} headsets, ` +
        `${int(fill.biggest.vrUsers)} VR users, ${int(fill.biggest.sessions)} sessions ` +
        `(${int(fill.biggest.endedSessions)} ended, ${int(fill.biggest.activeSessions)} active)`,
      '',
      `### Fill: ${(fill.totalMs / 1000).toFixed(1)} s`,
      '',
      table(
        ['step', 'rows', 'seconds'],
        fill.steps.map((s) => [s.name, int(s.rows), (s.ms / 1000).toFixed(1)]),
      ),
    );
  }
  if (run.rss.length > 0) {
    lines.push(
      '',
      `RSS of the benchmark process (the server${run.kind === 'pglite' ? ', PGlite’s thread included' : ''}): ` +
        run.rss.map(([stage, bytes]) => `${stage} ${mb(bytes)}`).join(', ') +
        '.',
    );
  }
  if (run.keepAlive) {
    lines.push(
      '',
      `Background throughout: ${fill?.activeDeviceNumbers.length ?? 0} headsets in session heartbeating every ` +
        `${KEEPALIVE_MS / 1000} s (${int(run.keepAlive.sent)} heartbeats, statuses ${JSON.stringify(run.keepAlive.statuses)}).`,
    );
  }

  if (run.reads.length > 0 || run.bare) {
    lines.push(
      '',
      `### Console reads (${CONNECTIONS} connections, ${WARMUP_S} s warm-up + ${DURATION_S} s; ` +
        `a read whose warm probe took ≥ ${SLOW_PROBE_MS} ms: ${SLOW_REQUESTS} requests, no warm-up)`,
      '',
    );
    const rows: string[][] = [];
    if (run.bare) {
      rows.push([
        'bare Fastify route (reference)',
        'GET /v1/bare',
        '200',
        '',
        ms(run.bare.load.p50),
        ms(run.bare.load.p99),
        run.bare.load.requestsPerSecond.toFixed(0),
        ms(run.bare.cpuMsPerRequest),
        ms(run.bare.loopDelayMaxMs),
        mb(run.bare.rssPeakBytes),
        '',
        '',
      ]);
    }
    for (const read of run.reads) {
      const m = read.measured;
      const v = readVerdict(read);
      rows.push([
        read.name,
        `${read.token}: ${read.url}`,
        statusText(read),
        `${int(read.bytes)}${read.items ? ` (${read.items})` : ''}`,
        m ? ms(m.load.p50) : '',
        m ? ms(m.load.p99) : '',
        m ? m.load.requestsPerSecond.toFixed(1) : '',
        m ? ms(m.cpuMsPerRequest) : '',
        m ? ms(m.loopDelayMaxMs) : '',
        m ? mb(m.rssPeakBytes) : '',
        (m
          ? `${m.mode}, ${m.load.ok} ok` +
            (m.load.non2xx + m.load.errors + m.load.timeouts
              ? `, ${m.load.non2xx + m.load.errors + m.load.timeouts} failed`
              : '') +
            '; '
          : '') +
          `probes ${ms(read.probeMs)}${read.secondProbeMs !== undefined ? ` / ${ms(read.secondProbeMs)}` : ''} ms`,
        read.informational ? '(info)' : verdict(v.ok),
      ]);
    }
    lines.push(
      table(
        [
          'read',
          'request',
          'status',
          'bytes',
          'p50 ms',
          'p99 ms',
          'req/s',
          'server CPU ms/req',
          'loop delay max ms',
          'RSS peak',
          'measured',
          `p99 < ${READ_P99_MS} ms`,
        ],
        rows,
        'lllrrrrrrrll',
      ),
    );
    const judged = run.reads.filter((r) => !r.informational);
    const failing = judged.filter((r) => !readVerdict(r).ok);
    targets.push([
      `every console read p99 < ${READ_P99_MS} ms`,
      `${judged.length - failing.length} of ${judged.length} pass` +
        (failing.length
          ? `; failing: ${failing.map((r) => `${r.name} (${readVerdict(r).why})`).join('; ')}`
          : ''),
      verdict(judged.length > 0 && failing.length === 0),
    ]);
    const r7 = run.reads.find((r) => r.name === RANGE_7)?.measured?.load;
    const r365 = run.reads.find((r) => r.name === RANGE_365)?.measured?.load;
    targets.push([
      'stats range 365 days p50 ≤ 2 × 7 days p50',
      r7 && r365 && r7.ok && r365.ok
        ? `${ms(r365.p50)} ms vs ${ms(r7.p50)} ms (${(r365.p50 / Math.max(0.1, r7.p50)).toFixed(1)} ×)`
        : 'not measured',
      verdict(r7 && r365 && r7.ok && r365.ok ? r365.p50 <= 2 * r7.p50 : undefined),
    ]);
  }

  if (run.exports.length > 0) {
    lines.push(
      '',
      `### History export: GET ${HISTORY_EXPORT} (client of the biggest organisation; ${int(run.expectedExportRows ?? 0)} ended sessions)`,
      '',
      table(
        [
          'download',
          'status',
          'bytes',
          'lines',
          'first byte ms',
          'total s',
          'RSS before',
          'RSS peak',
          'RSS samples (max gap ms)',
        ],
        run.exports.map((e) => [
          e.label,
          e.outcome.status === 404
            ? '404 – not built yet'
            : `${e.outcome.status}${e.outcome.error ? ` (${e.outcome.error})` : ''}`,
          int(e.outcome.bytes),
          int(e.outcome.lines),
          ms(e.outcome.firstByteMs),
          (e.outcome.totalMs / 1000).toFixed(2),
          mb(e.rssBeforeBytes),
          mb(e.rssPeakBytes),
          `${e.samples} (${ms(e.maxSampleGapMs)})`,
        ]),
      ),
    );
    const last = run.exports[run.exports.length - 1]!;
    const peak = Math.max(...run.exports.map((e) => e.rssPeakBytes));
    const growth = Math.max(...run.exports.map((e) => e.rssPeakBytes - e.rssBeforeBytes));
    const built = last.outcome.status >= 200 && last.outcome.status <= 299;
    const rows = Math.max(0, last.outcome.lines - 1);
    // PGlite's WebAssembly heap lives in this process (~770 MB resident from the moment it opens,
    // before any data), so on PGlite the export is judged on what it adds to the RSS.
    const memoryOk =
      run.kind === 'pglite'
        ? growth < EXPORT_MAX_RSS_MB * 1024 * 1024
        : peak < EXPORT_MAX_RSS_MB * 1024 * 1024;
    targets.push([
      `history export of 100k rows < ${EXPORT_MAX_S} s, peak RSS < ${EXPORT_MAX_RSS_MB} MB` +
        (run.kind === 'pglite' ? ' (PGlite: RSS growth during the export)' : ''),
      built
        ? `${(last.outcome.totalMs / 1000).toFixed(2)} s for ${int(rows)} rows (${int(run.expectedExportRows ?? 0)} expected), ` +
          `peak RSS ${mb(peak)} (+${mb(growth)} during the download)`
        : `${last.outcome.status === 404 ? '404 – not built yet' : `status ${last.outcome.status}`}`,
      verdict(built ? last.outcome.totalMs < EXPORT_MAX_S * 1000 && memoryOk : false),
    ]);
  }

  const hb = run.heartbeat;
  if (hb) {
    lines.push(
      '',
      `### Heartbeats at ${HEARTBEAT_RATE} req/s (autocannon overallRate, ${HEARTBEAT_CONNECTIONS} connections, ` +
        `${HEARTBEAT_DEVICES} headsets, ${HEARTBEAT_S} s)`,
      '',
      table(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'answered', 'failed'],
        [
          ['bare route (reference)', hb.bare],
          ['heartbeat · idle', hb.idle],
          ['heartbeat · admin loop running', hb.loaded],
        ].map(([name, l]) => {
          const load = l as LoadOutcome;
          return [
            name as string,
            load.requestsPerSecond.toFixed(0),
            ms(load.p50),
            ms(load.p99),
            ms(load.max),
            int(load.ok),
            int(load.non2xx + load.errors + load.timeouts),
          ];
        }),
      ),
      '',
      `Server event loop, worst delay: ${ms(hb.loopDelayMaxIdleMs)} ms idle, ${ms(hb.loopDelayMaxLoadedMs)} ms under the admin loop. ` +
        `Admin loop meanwhile: ` +
        hb.loop.iterations
          .map(
            (i) =>
              `${i.name} ×${i.count} (statuses ${JSON.stringify(i.statuses)}, mean ${ms(i.msTotal / Math.max(1, i.count))} ms, max ${ms(i.msMax)} ms)`,
          )
          .join('; ') +
        '.',
    );
    const ratio = hb.loaded.p99 / Math.max(0.1, hb.idle.p99);
    const limit = HEARTBEAT_MAX_RATIO[run.kind];
    targets.push([
      `heartbeat p99 under admin load ≤ ${limit} × idle`,
      `${ms(hb.loaded.p99)} ms vs ${ms(hb.idle.p99)} ms idle (${ratio.toFixed(2)} ×)`,
      verdict(ratio <= limit && hb.loaded.ok > 0),
    ]);
  }
  if (run.kind === 'pglite' && run.servingRssPeakBytes !== undefined) {
    targets.push([
      `server RSS peak < ${PGLITE_SERVING_MAX_RSS_MB} MB while serving the benchmark (sampled every 100 ms)`,
      mb(run.servingRssPeakBytes),
      verdict(run.servingRssPeakBytes < PGLITE_SERVING_MAX_RSS_MB * 1024 * 1024),
    ]);
  }
  return { lines, targets };
}

function staticReport(result: StaticResult | undefined): { lines: string[]; targets: string[][] } {
  if (!result) return { lines: [], targets: [] };
  const lines = [
    '## Static files: GET /login (accept-encoding: br, gzip) and everything its HTML references',
    '',
    table(
      ['file', 'status', 'bytes sent', 'content-encoding', 'cache-control'],
      result.files.map((f) => [f.path, String(f.status), int(f.bytes), f.encoding, f.cacheControl]),
      'lrrll',
    ),
    '',
    `Total transferred: ${kb(result.totalBytes)} (${int(result.totalBytes)} bytes). Chunks the app loads ` +
      'lazily after start-up (the login route’s own, if split) are not referenced by the HTML and not counted.',
  ];
  const targets = [
    [
      '/login ≤ 200 KB transferred',
      `${kb(result.totalBytes)} in ${result.files.length} files`,
      verdict(result.indexStatus === 200 && result.totalBytes <= LOGIN_MAX_BYTES),
    ],
    [
      `hashed assets \`Cache-Control: ${IMMUTABLE}\``,
      result.hashedAsset
        ? `${result.hashedAsset.path}: \`${result.hashedAsset.cacheControl}\`; index.html: \`${result.indexCacheControl}\``
        : 'no hashed asset found',
      verdict(result.hashedAsset ? result.hashedAsset.cacheControl === IMMUTABLE : false),
    ],
  ];
  return { lines, targets };
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

/** Which server code ran: the commit, and whether apps/ or packages/ had uncommitted changes. */
function sourceDescription(): string {
  try {
    const git = (command: string) =>
      execSync(`git ${command}`, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    const commit = git('log -1 --format=%h%x20%s');
    const changed = git('status --porcelain -- apps packages').split('\n').filter(Boolean).length;
    return `commit ${commit}${changed ? ` plus ${changed} uncommitted file(s) in apps/ and packages/` : ''}`;
  } catch {
    return `${ROOT} (not a git checkout)`;
  }
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  const loadBefore = loadAverage();
  say(`# Console read paths at scale (npm run bench:console)`);
  say(`Node ${process.version}, ${os.cpus().length} cores, load average ${loadBefore}`);

  const distIndex = path.join(ROOT, 'apps/web/dist/index.html');
  if (!fs.existsSync(distIndex)) {
    say('apps/web/dist is missing: npm run build…');
    execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
  }

  const clients = {
    load: new ClientProcess('load client'),
    background: new ClientProcess('background client'),
  };
  const bare = await startBareApp();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const runs: DatabaseRun[] = [];
  if (RUN_PG) {
    runs.push({
      kind: 'postgres',
      label: 'PostgreSQL',
      scale: SCALE,
      sizes: sizesFor(SCALE, BATCH),
      where: '',
      loadBefore: '',
      reads: [],
      rss: [],
      exports: [],
    });
  }
  if (RUN_PGLITE) {
    runs.push({
      kind: 'pglite',
      label: 'PGlite',
      scale: PGLITE_SCALE,
      sizes: sizesFor(PGLITE_SCALE, BATCH),
      where: '',
      loadBefore: '',
      reads: [],
      rss: [],
      exports: [],
    });
  }
  const staticHolder: { result?: StaticResult } = {};
  try {
    for (const run of runs) {
      run.loadBefore = loadAverage();
      await runDatabase(run, clients, bare.url, passwordHash, stamp, staticHolder);
    }
  } finally {
    await bare.close();
    clients.load.close();
    clients.background.close();
  }
  const loadAfter = loadAverage();

  const lines: string[] = [
    `# Console read paths at scale — ${startedAt.toISOString()}`,
    '',
    `\`npm run bench:console -- ${process.argv.slice(2).join(' ')}\``.replace(' -- `', '`'),
    '',
    `- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${mb(os.totalmem())} memory, Node ${process.version}`,
    `- Load average (1 / 5 / 15 min): ${loadBefore} before, ${loadAfter} after (${os.cpus().length} cores)`,
    `- Server code: ${sourceDescription()}`,
    `- Server: the real app in the benchmark process (buildApp, background jobs on, LOG_LEVEL=${LOG_LEVEL} to /dev/null); clients in child processes`,
    `- Whole run: ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s`,
    '',
  ];
  const targetRows: string[][] = [];
  for (const run of runs) {
    const part = databaseReport(run);
    lines.push(...part.lines, '');
    for (const row of part.targets) targetRows.push([run.label, ...row]);
  }
  const statics = staticReport(staticHolder.result);
  lines.push(...statics.lines, '');
  for (const row of statics.targets) targetRows.push(['(either)', ...row]);
  lines.push(
    '## Targets',
    '',
    table(['database', 'target', 'measured', 'verdict'], targetRows, 'llll'),
    '',
  );

  const report = lines.join('\n');
  say();
  say(report);
  const resultsDir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `console-${stamp}.md`);
  fs.writeFileSync(file, report);
  say(`Report written to ${path.relative(ROOT, file)}`);
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  say('\nInterrupted: cleaning up (Ctrl-C again to leave at once)…');
  Promise.allSettled(cleanups.map((cleanup) => cleanup())).then(() => process.exit(130));
});

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error('benchmark failed to run:', error);
    await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
    process.exit(1);
  },
);
