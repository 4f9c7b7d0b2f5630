import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { LIVE_STREAMS_PER_ACCOUNT, routePath, routes } from '@vrtc/contract';
import { hashPassword } from '../apps/server/src/auth/passwords.ts';
import { hashToken } from '../apps/server/src/auth/tokens.ts';
import { openDatabase, type Db } from '../apps/server/src/platform/database/db.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import {
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from '../apps/server/test/server-process.ts';
import type { StreamsOpened, StreamsRequest, StreamsStats } from './live-streams.ts';
import type { LoadRequest, LoadResult } from './load-runner.ts';
import {
  createScratchDatabase,
  makeDeviceTokens,
  percentile,
  seedProbe,
  startBareRoute,
  type Probe,
  type Target,
} from './targets.ts';
import { CONFIG_SETTINGS } from '../apps/server/src/platform/config/config.ts';
import { readSetting } from '../apps/server/src/platform/config/settings.ts';
import { loadAverage, say } from './cli.ts';

/**
 * `npm run bench:live`: what the console's live streams (GET /v1/events, Server-Sent Events) cost
 * a server process, and how fast an event reaches them. A benchmark, not a test: it prints
 * PASS/FAIL against the targets below and exits 0 whatever the verdict (non-zero only when it
 * cannot run).
 *
 * Per database (PGlite; then PostgreSQL when DATABASE_URL is set, in a database created for the
 * run and dropped after), on one server process started as production starts it
 * (`node apps/server/dist/main.js`, test/server-process.ts), seeded through the data
 * layer with 200 organisations (one console account each, 5 headsets each) and one organisation
 * for the latency probe:
 *  1. heartbeats (autocannon, 50 connections, 1,000 headsets, 5 s warm-up + 10 s, as `npm run
 *     bench`) with no stream open, right after a bare Fastify route under the same load;
 *  2. 1,000 streams opened (200 accounts × LIVE_STREAMS_PER_ACCOUNT, from a child process:
 *     live-streams.ts); the server's RSS (VmRSS from /proc) before and after;
 *  3. the same heartbeat load with the 1,000 streams open, right after the bare route again;
 *  4. latency from a headset's progress report (POST /v1/headset/sessions/:id/progress) to the
 *     `session` `progress` event on a stream of its organisation: REPORTS reports one after the
 *     other, measured from just before the POST to the event's arrival; on PGlite on the same
 *     process; on PostgreSQL on the same process and across two processes (POST to node A, stream
 *     on node B: NOTIFY on node A's pool, LISTEN on node B's connection).
 * The load generator and the streams run in child processes; the server's CPU time per request is
 * read from /proc (PGlite's worker thread included). Everything listens on 127.0.0.1.
 *
 * Targets: with 1,000 streams open, heartbeat throughput ≥ 70 % of the bare route's; RSS growth
 * from opening them < 100 MB; progress-to-event p95 < 1 s.
 *
 * Environment: DATABASE_URL (a PostgreSQL server; a database is created on it), BENCH_STREAMS
 * (1000), BENCH_DEVICES (1000), BENCH_CONNECTIONS (50), BENCH_DURATION_S (10), BENCH_WARMUP_S (5),
 * BENCH_REPORTS (100), LOG_LEVEL (the server's, default info).
 */

const STREAMS = Number(process.env.BENCH_STREAMS || 1000);
const DEVICES = Number(process.env.BENCH_DEVICES || 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S || 5);
const REPORTS = Number(process.env.BENCH_REPORTS || 100);
const LOG_LEVEL = readSetting(CONFIG_SETTINGS.logLevel, process.env);
const ACCOUNTS = Math.ceil(STREAMS / LIVE_STREAMS_PER_ACCOUNT);
/** Pause between two progress reports (a headset reports a task every few seconds at most). */
const REPORT_GAP_MS = 50;
/** How long one report's event may take before it counts as lost. */
const EVENT_TIMEOUT_MS = 10_000;
const PROBE_MAX_TASKS = 10;

// Targets
const MIN_RATIO_WITH_STREAMS = 0.7;
const MAX_RSS_GROWTH_MB = 100;
const MAX_P95_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system, every thread) a process used so far. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size of a process, bytes. */
function rssBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

/** A child process answering one request at a time over IPC, in order. */
class Child<Request, Answer> {
  private readonly child: ChildProcess;
  constructor(file: string) {
    this.child = fork(path.join(import.meta.dirname, file), [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }

  ask<A extends Answer>(request: Request): Promise<A> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`child exited (${code})`));
      this.child.once('exit', onExit);
      this.child.once('message', (answer) => {
        this.child.off('exit', onExit);
        resolve(answer as A);
      });
      this.child.send(request as object);
    });
  }

  close(): void {
    if (this.child.connected) this.child.disconnect();
  }
}

// ---------------------------------------------------------------------------------------------
// Seeding, through the data layer (as POST /v1/headset/enroll and sign-in leave the rows)
// ---------------------------------------------------------------------------------------------

interface Seeded {
  /** One console bearer token per account, each account in its own organisation. */
  accountTokens: string[];
  /** Headset tokens, spread over the same organisations. */
  deviceTokens: string[];
  probe: Probe;
}

async function seed(db: Db): Promise<Seeded> {
  const passwordHash = await hashPassword(crypto.randomBytes(12).toString('base64url'));
  const expiresAt = new Date(Date.now() + 24 * 3600 * 1000);
  const accountTokens = makeDeviceTokens(ACCOUNTS);
  const deviceTokens = makeDeviceTokens(DEVICES);
  const organizations = await db
    .insertInto('organizations')
    .values(
      Array.from({ length: ACCOUNTS }, (_, i) => ({
        name: `Live bench ${String(i + 1).padStart(3, '0')}`,
      })),
    )
    .returning('id')
    .execute();
  const accounts = await db
    .insertInto('accounts')
    .values(
      organizations.map((organization, i) => ({
        email: `live${i + 1}@bench.local`,
        password_hash: passwordHash,
        role: 'client' as const,
        organization_id: organization.id,
      })),
    )
    .returning('id')
    .execute();
  await db
    .insertInto('auth_tokens')
    .values(
      accounts.map((account, i) => ({
        account_id: account.id,
        token_hash: hashToken(accountTokens[i]!),
        created_at: new Date(),
        expires_at: expiresAt,
      })),
    )
    .execute();
  const devices = deviceTokens.map((token, i) => ({
    organization_id: organizations[i % organizations.length]!.id,
    name: `live-${String(i + 1).padStart(4, '0')}`,
    type: 'quest' as const,
    token_hash: hashToken(token),
    last_seen_at: null,
  }));
  for (let at = 0; at < devices.length; at += 500) {
    await db
      .insertInto('devices')
      .values(devices.slice(at, at + 500))
      .execute();
  }

  const probe = await seedProbe(db, {
    name: 'Live bench probe',
    email: 'probe@bench.local',
    passwordHash,
    maxTasks: PROBE_MAX_TASKS,
  });
  return { accountTokens, deviceTokens, probe };
}

// ---------------------------------------------------------------------------------------------
// Heartbeat throughput
// ---------------------------------------------------------------------------------------------

interface Throughput {
  name: string;
  result: LoadResult;
  /** CPU time of the process answering (the server, PGlite's thread included) per request. */
  cpuUs: number;
  /** For a heartbeat row: the bare route measured just before it. */
  bare?: Throughput;
  streams?: number;
}

async function measure(
  generator: Child<LoadRequest, LoadResult>,
  tokensFile: string,
  name: string,
  url: string,
  cpu: () => number,
): Promise<Throughput> {
  say(`  ${name}: warming up ${WARMUP_S} s, measuring ${DURATION_S} s…`);
  const request = (durationS: number): LoadRequest => ({
    url,
    path: routes.heartbeat.path,
    body: JSON.stringify({ battery_percent: 87, app_version: '1.5.0' }),
    connections: CONNECTIONS,
    durationS,
    tokensFile,
  });
  await generator.ask(request(WARMUP_S));
  const before = cpu();
  const result = await generator.ask(request(DURATION_S));
  return { name, result, cpuUs: ((cpu() - before) * 1e6) / Math.max(1, result.total) };
}

// ---------------------------------------------------------------------------------------------
// Progress → event latency
// ---------------------------------------------------------------------------------------------

interface SseEvent {
  event: string;
  data: string;
  at: number;
}

/** One live stream read in this process, parsed as SSE; `next` waits for a matching event. */
function openProbeStream(url: string, token: string) {
  const events: SseEvent[] = [];
  const waiters: Array<{ match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void }> = [];
  let request: http.ClientRequest | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    request = http.get(
      `${url}${routes.liveEvents.path}`,
      { agent: false, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`probe stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        response.setEncoding('utf8');
        let pending = '';
        response.on('data', (chunk: string) => {
          const at = performance.now();
          pending += chunk;
          for (let end = pending.indexOf('\n\n'); end !== -1; end = pending.indexOf('\n\n')) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            const event = /^event: (.+)$/m.exec(block)?.[1];
            if (!event) continue;
            const found: SseEvent = { event, data: /^data: (.*)$/m.exec(block)?.[1] ?? '', at };
            if (event === 'ready') resolve();
            const waiter = waiters.findIndex((w) => w.match(found));
            if (waiter !== -1) waiters.splice(waiter, 1)[0]!.resolve(found);
            else events.push(found);
          }
        });
      },
    );
    request.on('error', reject);
  });
  return {
    ready,
    next(match: (e: SseEvent) => boolean, timeoutMs: number): Promise<SseEvent | undefined> {
      const already = events.findIndex(match);
      if (already !== -1) return Promise.resolve(events.splice(already, 1)[0]);
      return new Promise((resolve) => {
        const waiter = { match, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const at = waiters.indexOf(waiter);
          if (at !== -1) {
            waiters.splice(at, 1);
            resolve(undefined);
          }
        }, timeoutMs);
      });
    },
    close: () => request?.destroy(),
  };
}

async function post(url: string, token: string, body: object) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(EVENT_TIMEOUT_MS),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Starts the probe headset's session through the console's route, once the headset is online. */
async function startProbeSession(url: string, probe: Seeded['probe']): Promise<string> {
  const until = Date.now() + 15_000;
  for (;;) {
    const beat = await post(`${url}${routes.heartbeat.path}`, probe.deviceToken, {});
    if (beat.status !== 200) throw new Error(`probe heartbeat answered ${beat.status}`);
    const active = (beat.body.session as { id?: string } | null)?.id;
    if (active) return active;
    // The last-seen flush (every second) makes the headset "waiting" for the console.
    await sleep(1200);
    const started = await post(`${url}${routes.startSession.path}`, probe.accountToken, {
      device_id: probe.deviceId,
      level_id: probe.levelId,
      vr_user_name: 'Latency Probe',
    });
    if (started.status === 201) return started.body.id as string;
    if (Date.now() > until) {
      throw new Error(`could not start the probe session: ${JSON.stringify(started.body)}`);
    }
  }
}

interface Latency {
  name: string;
  samples: number[];
  lost: number;
  postMs: number[];
}

async function measureLatency(
  name: string,
  postUrl: string,
  streamUrl: string,
  probe: Seeded['probe'],
  sessionId: string,
): Promise<Latency> {
  say(`  latency, ${name}: ${REPORTS} progress reports…`);
  const stream = openProbeStream(streamUrl, probe.accountToken);
  await stream.ready;
  const outcome: Latency = { name, samples: [], lost: 0, postMs: [] };
  const progressUrl = `${postUrl}${routePath(routes.reportProgress, { id: sessionId })}`;
  try {
    for (let i = 0; i < REPORTS; i++) {
      const key = `r${Date.now().toString(36)}-${i}`;
      const number = 1 + (i % PROBE_MAX_TASKS);
      const arrived = stream.next(
        (e) => e.event === 'session' && e.data.includes(`"key":"${key}"`),
        EVENT_TIMEOUT_MS,
      );
      const sent = performance.now();
      const answer = await post(progressUrl, probe.deviceToken, {
        completed_tasks: number,
        task: { number, key, result: 'passed', score: 90, duration_ms: 1000 },
      });
      outcome.postMs.push(performance.now() - sent);
      if (answer.status !== 200) throw new Error(`progress answered ${answer.status}`);
      const event = await arrived;
      if (event) outcome.samples.push(event.at - sent);
      else outcome.lost += 1;
      await sleep(REPORT_GAP_MS);
    }
  } finally {
    stream.close();
  }
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// One database
// ---------------------------------------------------------------------------------------------

interface DatabaseRun {
  label: string;
  loadStart: string;
  loadEnd?: string;
  rows: Throughput[];
  rss?: { before: number; opened: number; afterLoad: number };
  opened?: StreamsOpened;
  streamStats?: StreamsStats;
  latencies: Latency[];
}

async function runDatabase(
  label: string,
  prepare: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>,
  nodes: 1 | 2,
  bare: Target,
  generator: Child<LoadRequest, LoadResult>,
  tokensFile: string,
  scratch: string,
): Promise<DatabaseRun> {
  say();
  say(`## ${label}`);
  const run: DatabaseRun = { label, loadStart: loadAverage(), rows: [], latencies: [] };
  const { env, cleanup } = await prepare();
  const seeded = JSON.parse(fs.readFileSync(path.join(scratch, 'seeded.json'), 'utf8')) as Seeded;
  const servers: ServerProcess[] = [];
  const streams = new Child<StreamsRequest, StreamsOpened | StreamsStats>('live-streams.ts');
  const serverEnv = (node: string) => {
    const dataDir = path.join(scratch, `data-${node}`);
    fs.mkdirSync(dataDir, { recursive: true });
    return { DATA_DIR: dataDir, LOG_LEVEL: LOG_LEVEL, SIGNING_SECRET: 'bench', ...env };
  };
  try {
    const a = await startServerProcess(serverEnv('a'));
    servers.push(a);
    const pid = a.child.pid!;
    say(`  server process ${pid} at ${a.url}`);
    const beat = await post(`${a.url}${routes.heartbeat.path}`, seeded.deviceTokens[0]!, {});
    if (beat.status !== 200) throw new Error(`heartbeat probe answered ${beat.status}`);

    const beside = async (streamCount: number) => {
      const baseline = await measure(generator, tokensFile, bare.name, bare.url, () => {
        const usage = process.cpuUsage();
        return (usage.user + usage.system) / 1e6;
      });
      const measured = await measure(
        generator,
        tokensFile,
        `heartbeat · ${streamCount.toLocaleString('en-US')} streams`,
        a.url,
        () => cpuSeconds(pid),
      );
      run.rows.push(baseline, { ...measured, bare: baseline, streams: streamCount });
    };

    await beside(0);
    await sleep(2000);
    const before = rssBytes(pid);
    say(`  opening ${STREAMS} streams (${ACCOUNTS} accounts × ${LIVE_STREAMS_PER_ACCOUNT})…`);
    const accounts = seeded.accountTokens.slice(0, ACCOUNTS);
    run.opened = await streams.ask<StreamsOpened>({
      kind: 'open',
      url: a.url,
      tokens: accounts,
      perToken: LIVE_STREAMS_PER_ACCOUNT,
      concurrency: 20,
      timeoutMs: 30_000,
    });
    say(
      `    ${run.opened.opened} open in ${(run.opened.ms / 1000).toFixed(1)} s` +
        (Object.keys(run.opened.refused).length
          ? `; refused: ${JSON.stringify(run.opened.refused)}`
          : ''),
    );
    await sleep(3000);
    const opened = rssBytes(pid);
    await beside(run.opened.opened);
    run.rss = { before, opened, afterLoad: rssBytes(pid) };

    const sessionId = await startProbeSession(a.url, seeded.probe);
    run.latencies.push(
      await measureLatency(
        nodes === 2 ? 'same process (A → A)' : 'same process',
        a.url,
        a.url,
        seeded.probe,
        sessionId,
      ),
    );
    if (nodes === 2) {
      const b = await startServerProcess(serverEnv('b'));
      servers.push(b);
      say(`  second server process ${b.child.pid} at ${b.url}`);
      run.latencies.push(
        await measureLatency(
          'across processes (POST to A, stream on B)',
          a.url,
          b.url,
          seeded.probe,
          sessionId,
        ),
      );
    }
    run.streamStats = await streams.ask<StreamsStats>({ kind: 'close' });
  } finally {
    streams.close();
    for (const server of servers) await stopServerProcess(server, 'SIGINT');
    await cleanup();
    run.loadEnd = loadAverage();
  }
  return run;
}

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

function report(runs: DatabaseRun[]) {
  const verdict = (ok: boolean) => (ok ? '**PASS**' : '**FAIL**');
  say();
  say('| database | target | req/s | p50 ms | p99 ms | vs bare | server CPU µs/req | failed |');
  say('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const run of runs) {
    for (const row of run.rows) {
      say(
        `| ${run.label} | ${row.name} | ${row.result.requestsPerSecond.toFixed(0)} | ` +
          `${row.result.p50.toFixed(1)} | ${row.result.p99.toFixed(1)} | ` +
          `${row.bare ? `${((100 * row.result.requestsPerSecond) / row.bare.result.requestsPerSecond).toFixed(0)}%` : ''} | ` +
          `${row.cpuUs.toFixed(0)} | ${row.result.failures} |`,
      );
    }
  }
  say();
  say(
    '| database | RSS before streams | with streams open | after the load | growth | streams open | events heard | closed early |',
  );
  say('| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |');
  for (const run of runs) {
    if (!run.rss) continue;
    const s = run.streamStats;
    say(
      `| ${run.label} | ${mb(run.rss.before)} MB | ${mb(run.rss.opened)} MB | ${mb(run.rss.afterLoad)} MB | ` +
        `+${mb(run.rss.opened - run.rss.before)} MB | ${run.opened?.opened ?? 0} | ` +
        `${s ? JSON.stringify(s.events) : ''} | ${s?.closedEarly ?? ''} |`,
    );
  }
  say();
  say('| database | progress → event | reports | p50 ms | p95 ms | max ms | lost | POST p50 ms |');
  say('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const run of runs) {
    for (const l of run.latencies) {
      say(
        `| ${run.label} | ${l.name} | ${l.samples.length + l.lost} | ${percentile(l.samples, 50).toFixed(1)} | ` +
          `${percentile(l.samples, 95).toFixed(1)} | ${Math.max(...l.samples).toFixed(1)} | ${l.lost} | ` +
          `${percentile(l.postMs, 50).toFixed(1)} |`,
      );
    }
  }
  say();
  say('| database | target | measured | verdict |');
  say('| --- | --- | --- | --- |');
  for (const run of runs) {
    const withStreams = run.rows.find((row) => row.bare && (row.streams ?? 0) > 0);
    if (withStreams) {
      const ratio =
        withStreams.result.requestsPerSecond / withStreams.bare!.result.requestsPerSecond;
      const without = run.rows.find((row) => row.bare && row.streams === 0);
      say(
        `| ${run.label} | heartbeat with ${withStreams.streams} streams ≥ ${MIN_RATIO_WITH_STREAMS * 100}% of bare | ` +
          `${(ratio * 100).toFixed(0)}%` +
          (without
            ? ` (without streams: ${((100 * without.result.requestsPerSecond) / without.bare!.result.requestsPerSecond).toFixed(0)}%)`
            : '') +
          ` | ${verdict(ratio >= MIN_RATIO_WITH_STREAMS && withStreams.result.failures === 0)} |`,
      );
    }
    if (run.rss) {
      const growth = run.rss.opened - run.rss.before;
      say(
        `| ${run.label} | RSS growth for ${run.opened?.opened ?? 0} streams < ${MAX_RSS_GROWTH_MB} MB | ` +
          `+${mb(growth)} MB | ${verdict(growth < MAX_RSS_GROWTH_MB * 1024 * 1024 && run.opened?.opened === STREAMS)} |`,
      );
    }
    for (const l of run.latencies) {
      const p95 = percentile(l.samples, 95);
      say(
        `| ${run.label} | progress → event p95 < ${MAX_P95_MS} ms, ${l.name} | ${p95.toFixed(1)} ms (${l.lost} lost) | ` +
          `${verdict(p95 < MAX_P95_MS && l.lost === 0)} |`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = Date.now();
  say(
    `Live streams benchmark: ${STREAMS} streams (${ACCOUNTS} accounts), ${DEVICES} headsets, ` +
      `${CONNECTIONS} connections, ${DURATION_S} s per target, ${REPORTS} progress reports`,
  );
  say(`${new Date().toISOString()}; Node ${process.version}, ${os.cpus().length} cores`);
  say(`Load average at start: ${loadAverage()}`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-live-'));
  const generator = new Child<LoadRequest, LoadResult>('load-runner.ts');
  const bare = await startBareRoute();
  const runs: DatabaseRun[] = [];
  const tokensFile = path.join(scratch, 'tokens.json');
  const seedInto = async (db: Db) => {
    await migrate(db);
    const seeded = await seed(db);
    fs.writeFileSync(tokensFile, JSON.stringify(seeded.deviceTokens));
    fs.writeFileSync(path.join(scratch, 'seeded.json'), JSON.stringify(seeded));
  };
  try {
    runs.push(
      await runDatabase(
        'PGlite',
        async () => {
          // The server's data directory, filled before the server opens it.
          const dataDir = path.join(scratch, 'data-a');
          fs.mkdirSync(dataDir, { recursive: true });
          const handle = await openDatabase({ pgliteDir: dataDir });
          try {
            await seedInto(handle.db);
          } finally {
            await handle.close();
          }
          return {
            env: { DATABASE_URL: '' },
            cleanup: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
          };
        },
        1,
        bare,
        generator,
        tokensFile,
        scratch,
      ),
    );

    const serverUrl = process.env.DATABASE_URL;
    if (serverUrl) {
      runs.push(
        await runDatabase(
          'PostgreSQL',
          async () => {
            const database = await createScratchDatabase(serverUrl);
            say(`  (database ${database.name} created for this run)`);
            try {
              const handle = await openDatabase({ databaseUrl: database.url });
              try {
                await seedInto(handle.db);
              } finally {
                await handle.close();
              }
            } catch (error) {
              await database.drop();
              throw error;
            }
            return {
              env: { DATABASE_URL: database.url },
              cleanup: async () => {
                await database.drop();
                say(`  (database ${database.name} dropped)`);
              },
            };
          },
          2,
          bare,
          generator,
          tokensFile,
          scratch,
        ),
      );
    } else {
      say('  (DATABASE_URL not set: PostgreSQL skipped)');
    }
  } finally {
    await bare.close();
    generator.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  report(runs);
  say();
  say(
    `Load average: ${runs.map((r) => `${r.label} ${r.loadStart} → ${r.loadEnd}`).join('; ')}; ` +
      `whole run ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('benchmark failed to run:', error);
    process.exit(1);
  },
);
