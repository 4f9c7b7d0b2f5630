import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { hashToken } from '../apps/server/src/auth/tokens.ts';
import { newSigningSecret } from '../apps/server/src/integrations/signing.ts';
import { testConfig } from '../apps/server/src/platform/config/config.ts';
import { openDatabase, type Db } from '../apps/server/src/platform/database/db.ts';
import type { NotificationListener } from '../apps/server/src/platform/database/pg-listener.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import { LoadGenerator } from './load-generator.ts';
import type { LoadResult } from './load-runner.ts';
import {
  createScratchDatabase,
  makeDeviceTokens,
  percentile,
  startBareRoute,
  type DatabaseChoice,
} from './targets.ts';
import { say } from './cli.ts';
import { fairnessOn } from './integrations-fairness.ts';

/**
 * Results out under load (issue 26, docs/integrations.md): the real app (buildApp, background jobs
 * on, so the dispatcher runs as in production) on a fresh database with headsets each in an active
 * session and one webhook integration receiving session.finished. The headsets finish their
 * sessions through HTTP (POST /v1/headset/sessions/:id/finish, BENCH_CONCURRENCY at once); a
 * receiver on 127.0.0.1 notes when each session's event arrives, and a trigger of the benchmark's
 * own tells when each finish committed. Commit → receipt is the target's figure; from the finish
 * request's start (an upper bound) and from its answer (a lower bound) are shown beside it.
 *
 * The heartbeat beside it, in the same run: heartbeats at a fleet's pace (BENCH_HEARTBEAT_RATE a
 * second, from a child process) while BENCH_SESSIONS (1,000) sessions finish with the integration
 * off (no event written, as before issue 26) and while as many finish and are delivered, in the
 * order off, on, on, off (a drift of the machine's load in time weighs on both alike), after a
 * warm-up of both. The bare route (bench/targets.ts) is measured under the same pace before each
 * phase. Targets: every event delivered, p95 commit → receipt < 2 s in each delivering phase, the
 * heartbeat's p99 with delivery on within noise of off. PGlite, then PostgreSQL with DATABASE_URL.
 *
 * Before it, fair delivery under a hostile neighbour (bench/integrations-fairness.ts): another
 * organisation's p95 commit → receipt < 2 s while one organisation's 40 webhooks hang.
 * BENCH_PART=fairness or BENCH_PART=delivery runs one part alone.
 */

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const WARMUP_SESSIONS = Number(process.env.BENCH_WARMUP_SESSIONS ?? 100);
const DELIVERY_WAIT_MS = 60_000;
/** Heartbeats a second beside the finishes: 1,000 headsets at the default 5 s interval. */
const HEARTBEAT_RATE = Number(process.env.BENCH_HEARTBEAT_RATE ?? 200);
const HEARTBEAT_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 5);
/** The bare route's measurement before each phase. */
const BARE_S = Number(process.env.BENCH_BARE_S ?? 5);
/** What the heartbeat's p99 may move by and still be noise, unless the runs' own spread is more. */
const NOISE = 0.2;
const PHASES = ['off', 'on', 'on', 'off'] as const;

/** The organisation, and `tokens.length` headsets each in an active session. */
async function seed(db: Db, tokens: string[]) {
  const organization = await db
    .insertInto('organizations')
    .values({ name: 'Benchmark' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const devices: Array<{ id: string }> = [];
  for (let at = 0; at < tokens.length; at += 500) {
    devices.push(
      ...(await db
        .insertInto('devices')
        .values(
          tokens.slice(at, at + 500).map((token, index) => ({
            organization_id: organization.id,
            name: `bench-${at + index + 1}`,
            type: 'quest' as const,
            token_hash: hashToken(token),
            last_seen_at: new Date(),
          })),
        )
        .returning('id')
        .execute()),
    );
  }
  const sessions: Array<{ id: string }> = [];
  for (let at = 0; at < devices.length; at += 500) {
    sessions.push(
      ...(await db
        .insertInto('sessions')
        .values(
          devices.slice(at, at + 500).map((device, index) => ({
            organization_id: organization.id,
            device_id: device.id,
            device_name: `bench-${at + index + 1}`,
            device_type: 'quest',
            vr_user_name: `Trainee ${at + index + 1}`,
            scenario_name: 'Пожарная безопасность',
            module_name: 'Эвакуация',
            level_name: 'Склад',
            level_number: 1,
            max_tasks: 5,
            selected_options: '[]',
            started_at: new Date(),
          })),
        )
        .returning('id')
        .execute()),
    );
  }
  return { organizationId: organization.id, sessionIds: sessions.map((session) => session.id) };
}

/** The webhook integration receiving session.finished, off until setDelivery turns it on. */
async function addWebhook(db: Db, organizationId: string, receiverUrl: string) {
  const now = new Date();
  await db
    .insertInto('integrations')
    .values({
      organization_id: organizationId,
      kind: 'webhook',
      url: `${receiverUrl}/hook`,
      events: ['session.finished'],
      secret: newSigningSecret(),
      enabled: false,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** On: every finish from now on writes an event and is delivered. Off: none is written. */
const setDelivery = (db: Db, on: boolean) =>
  db.updateTable('integrations').set({ enabled: on }).execute();

/**
 * When each session's end commits: a trigger of the benchmark's own notifies with the session's id
 * in the finish's transaction, and notifications are delivered at commit. (It fires in both
 * phases, so both carry its small cost.)
 */
const COMMIT_CHANNEL = 'vrtc_bench_commit';
async function watchCommits(
  db: Db,
  database: DatabaseChoice,
  notifications: NotificationListener | undefined,
) {
  await sql`
    CREATE FUNCTION vrtc_bench_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${sql.raw(COMMIT_CHANNEL)}', NEW.id::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`
    CREATE TRIGGER vrtc_bench_commit AFTER UPDATE OF status ON sessions
    FOR EACH ROW WHEN (OLD.status = 'active' AND NEW.status <> 'active')
    EXECUTE FUNCTION vrtc_bench_commit()`.execute(db);
  const committedAt = new Map<string, number>();
  const heard = (sessionId: string) => committedAt.set(sessionId, performance.now());
  if (database.kind === 'pglite') {
    // Heard once the app starts its notifications (buildApp): before any finish.
    notifications!.on(COMMIT_CHANNEL, heard);
    return { committedAt, close: async () => {} };
  }
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  client.on('notification', (message) => heard(message.payload ?? ''));
  await client.query(`LISTEN ${COMMIT_CHANNEL}`);
  return { committedAt, close: () => client.end() };
}

interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  waitFor(count: number, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  let waiting: (() => void) | undefined;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { session_id: string };
      };
      if (!arrivals.has(body.data.session_id)) arrivals.set(body.data.session_id, at);
      response.writeHead(204).end();
      waiting?.();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    waitFor: (count, timeoutMs) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => resolve(arrivals.size >= count), timeoutMs);
        waiting = () => {
          if (arrivals.size >= count) {
            clearTimeout(timer);
            resolve(true);
          }
        };
        waiting();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
interface Phase {
  delivery: 'off' | 'on';
  /** Heartbeats meanwhile, and the bare route's under the same load just before. */
  heartbeat: LoadResult;
  bare: LoadResult;
  finishedInMs: number;
  refusals: string[];
  /** Delivering phases: each event's commit → receipt, and from the request's start and answer. */
  fromCommit?: number[];
  fromStart?: number[];
  fromAnswer?: number[];
  delivered?: number;
  all?: boolean;
}

/** Finishes `ids` over HTTP, BENCH_CONCURRENCY at once; notes each request's start and answer. */
async function finishAll(url: string, ids: string[], tokens: string[]) {
  const sentAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  const refusals: string[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let index = next++; index < ids.length; index = next++) {
      const id = ids[index]!;
      sentAt.set(id, performance.now());
      const answer = await fetch(`${url}/v1/headset/sessions/${id}/finish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[index]}` },
        body: JSON.stringify({ completed_tasks: 4, success: true }),
      });
      const text = await answer.text();
      if (answer.status !== 200) refusals.push(`${answer.status} ${text.slice(0, 200)}`);
      answeredAt.set(id, performance.now());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { sentAt, answeredAt, refusals, finishedInMs: performance.now() - started };
}

const fmt = (value: number) => value.toFixed(0);
const spread = (values: number[]) =>
  `p50 ${fmt(percentile(values, 50))} / p95 ${fmt(percentile(values, 95))} / p99 ${fmt(percentile(values, 99))} ms`;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const range = (values: number[]) => Math.max(...values) - Math.min(...values);

async function runOn(database: DatabaseChoice, generator: LoadGenerator, tokens: string[]) {
  const name = database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-'));
  const handle = await openDatabase(
    database.kind === 'postgres' ? { databaseUrl: database.databaseUrl } : { pgliteDir: dataDir },
  );
  const receiver = await startReceiver();
  await migrate(handle.db);
  const { organizationId, sessionIds } = await seed(handle.db, tokens);
  await addWebhook(handle.db, organizationId, receiver.url);
  const commits = await watchCommits(handle.db, database, handle.notifications);
  const app = await buildApp({
    db: handle.db,
    config: testConfig({
      dataDir,
      databaseUrl: database.databaseUrl,
      logLevel: 'silent',
      signingSecret: 'bench',
      outboundAllowPrivate: ['127.0.0.1'],
      // The headsets of later phases heartbeat less often than a minute (4,200 of them at 200 a
      // second): the sweeper must not end their sessions as disconnected before they finish.
      disconnectAfterMs: 3600 * 1000,
    }),
    backgroundJobs: true,
    logger: false,
    notifications: handle.notifications,
    urgentDb: handle.urgentDb,
    onClosed: async () => {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const bare = await startBareRoute();

  let taken = 0;
  const nextSessions = (count: number) => {
    const next = {
      ids: sessionIds.slice(taken, taken + count),
      tokens: tokens.slice(taken, taken + count),
    };
    taken += count;
    return next;
  };
  const finishPhase = async (delivery: 'off' | 'on', count: number) => {
    await setDelivery(handle.db, delivery === 'on');
    receiver.arrivals.clear();
    const { ids, tokens: phaseTokens } = nextSessions(count);
    const finished = await finishAll(url, ids, phaseTokens);
    if (delivery === 'off') return { ...finished, ids, all: true };
    const all = await receiver.waitFor(ids.length - finished.refusals.length, DELIVERY_WAIT_MS);
    return { ...finished, ids, all };
  };

  say(`${name}: warming up (heartbeats ${WARMUP_S} s, ${WARMUP_SESSIONS} finishes off and on)…`);
  await generator.run(bare.url, WARMUP_S, undefined, HEARTBEAT_RATE);
  const warmup = generator.start(url, HEARTBEAT_RATE);
  await finishPhase('off', WARMUP_SESSIONS);
  await finishPhase('on', WARMUP_SESSIONS);
  await warmup.stop();

  const phases: Phase[] = [];
  for (const delivery of PHASES) {
    const bareLoad = await generator.run(bare.url, BARE_S, undefined, HEARTBEAT_RATE);
    const heartbeats = generator.start(url, HEARTBEAT_RATE);
    const finished = await finishPhase(delivery, SESSIONS);
    const phase: Phase = {
      delivery,
      heartbeat: await heartbeats.stop(),
      bare: bareLoad,
      finishedInMs: finished.finishedInMs,
      refusals: finished.refusals,
    };
    if (delivery === 'on') {
      const inPhase = new Set(finished.ids);
      const arrivals = [...receiver.arrivals].filter(([id]) => inPhase.has(id));
      const answered = (id: string) => finished.answeredAt.get(id)!;
      // The commit is heard a moment after it happens: before the answer (PGlite), or about when
      // the answer leaves (PostgreSQL, on another connection). The earlier of the two.
      const committed = (id: string) =>
        Math.min(commits.committedAt.get(id) ?? Infinity, answered(id));
      phase.fromCommit = arrivals.map(([id, at]) => at - committed(id));
      phase.fromStart = arrivals.map(([id, at]) => at - finished.sentAt.get(id)!);
      // Negative when the event arrived before the finish's answer did.
      phase.fromAnswer = arrivals.map(([id, at]) => at - answered(id));
      phase.delivered = arrivals.length;
      phase.all = finished.all && finished.refusals.length === 0;
    }
    phases.push(phase);
  }
  await bare.close();
  await app.close();
  await receiver.close();
  await commits.close();

  say(
    `${name}: ${SESSIONS} finishes per phase, heartbeats at ${HEARTBEAT_RATE}/s over ${HEARTBEAT_CONNECTIONS} connections`,
  );
  say(
    '  phase         finishes   heartbeat p50 / p99 (requests)   bare before p50 / p99   delivered   commit → receipt                 start → receipt (upper)          answer → receipt (lower)',
  );
  for (const phase of phases) {
    const { heartbeat: h, bare: b } = phase;
    const cells = [
      `delivery ${phase.delivery}`.padEnd(13),
      `${(phase.finishedInMs / 1000).toFixed(1)} s`.padEnd(10),
      `${h.p50} / ${h.p99} ms (${h.total}${h.failures ? `, ${h.failures} failed` : ''})`.padEnd(32),
      `${b.p50} / ${b.p99} ms`.padEnd(23),
    ];
    if (phase.fromCommit) {
      cells.push(
        `${phase.delivered}/${SESSIONS}`.padEnd(11),
        spread(phase.fromCommit).padEnd(32),
        spread(phase.fromStart!).padEnd(32),
        spread(phase.fromAnswer!),
      );
    }
    say(`  ${cells.join(' ')}`.trimEnd());
    for (const refusal of phase.refusals.slice(0, 3)) say(`    refused: ${refusal}`);
  }
  const delivering = phases.filter((phase) => phase.fromCommit);
  const p95s = delivering.map((phase) => percentile(phase.fromCommit!, 95));
  say(
    `  all delivered: ${delivering.every((phase) => phase.all) ? 'PASS' : 'FAIL'} · ` +
      `p95 commit → receipt < 2 s: ${p95s.every((p95) => p95 < 2000) ? 'PASS' : 'FAIL'} (${p95s.map(fmt).join(', ')} ms)`,
  );
  // Noise: how far the same phase moved between its two runs, or 20% of off's p99.
  const off = phases
    .filter((phase) => phase.delivery === 'off')
    .map((phase) => phase.heartbeat.p99);
  const on = phases.filter((phase) => phase.delivery === 'on').map((phase) => phase.heartbeat.p99);
  const added = mean(on) - mean(off);
  const noise = Math.max(range(off), range(on), NOISE * mean(off));
  say(
    `  heartbeat p99, mean of on − mean of off: ${added >= 0 ? '+' : ''}${fmt(added)} ms ` +
      `(noise ${fmt(noise)} ms: the larger of each phase's spread between its runs and ${NOISE * 100}% of off) · ` +
      `within noise: ${added <= noise ? 'PASS' : 'FAIL'}`,
  );
}

async function main() {
  say(`load: ${loadAverage()} on ${os.cpus().length} cores`);
  /** BENCH_PART=fairness or delivery runs one of the two; both by default, fairness first. */
  const only = process.env.BENCH_PART;
  const PARTS = [
    ...(only === undefined || only === 'fairness' ? [fairnessOn] : []),
    ...(only === undefined || only === 'delivery'
      ? [(database: DatabaseChoice) => runOn(database, generator, tokens)]
      : []),
  ];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-tokens-'));
  const tokens = makeDeviceTokens(2 * WARMUP_SESSIONS + PHASES.length * SESSIONS);
  const tokensFile = path.join(scratch, 'tokens.json');
  fs.writeFileSync(tokensFile, JSON.stringify(tokens));
  const generator = new LoadGenerator(tokensFile, HEARTBEAT_CONNECTIONS);
  try {
    for (const part of PARTS) {
      await part({ kind: 'pglite' });
      say(`load: ${loadAverage()}`);
      const serverUrl = process.env.DATABASE_URL;
      if (!serverUrl) continue;
      const database = await createScratchDatabase(serverUrl);
      try {
        await part({ kind: 'postgres', databaseUrl: database.url });
      } finally {
        await database.drop();
      }
      say(`load: ${loadAverage()}`);
    }
  } finally {
    generator.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
