import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { hashToken } from '../apps/server/src/auth/tokens.ts';
import { newSigningSecret } from '../apps/server/src/integrations/signing.ts';
import { testConfig } from '../apps/server/src/platform/config/config.ts';
import { openDatabase, type Db } from '../apps/server/src/platform/database/db.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import { createScratchDatabase, makeDeviceTokens, type DatabaseChoice } from './targets.ts';

/**
 * Results out under load (issue 26, docs/integrations.md): the real app (buildApp, background jobs
 * on, so the dispatcher runs as in production) on a fresh database with BENCH_SESSIONS (1,000)
 * headsets each in an active session and one webhook integration receiving session.finished. The
 * headsets finish their sessions through HTTP (POST /v1/headset/sessions/:id/finish, BENCH_CONCURRENCY
 * at once); a receiver on 127.0.0.1 notes when each session's event arrives. Commit → receipt is
 * measured from the finish request's start (the commit is inside it: an upper bound) and from its
 * answer (after the commit: a lower bound).
 * Targets: every event delivered, p95 < 2 s. PGlite, then PostgreSQL with DATABASE_URL.
 */

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DELIVERY_WAIT_MS = 60_000;

async function seed(db: Db, tokens: string[], receiverUrl: string) {
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
  const now = new Date();
  await db
    .insertInto('integrations')
    .values({
      organization_id: organization.id,
      kind: 'webhook',
      url: `${receiverUrl}/hook`,
      events: ['session.finished'],
      secret: newSigningSecret(),
      created_at: now,
      updated_at: now,
    })
    .execute();
  return sessions.map((session) => session.id);
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

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};

async function runOn(database: DatabaseChoice) {
  const name = database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-'));
  const handle = await openDatabase(
    database.kind === 'postgres' ? { databaseUrl: database.databaseUrl } : { pgliteDir: dataDir },
  );
  const receiver = await startReceiver();
  await migrate(handle.db);
  const tokens = makeDeviceTokens(SESSIONS);
  const sessionIds = await seed(handle.db, tokens, receiver.url);
  const app = await buildApp({
    db: handle.db,
    config: testConfig({
      dataDir,
      databaseUrl: database.databaseUrl,
      logLevel: 'silent',
      signingSecret: 'bench',
      outboundAllowPrivate: ['127.0.0.1'],
    }),
    backgroundJobs: true,
    logger: false,
    notifications: handle.notifications,
    onClosed: async () => {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const sentAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  let failures = 0;
  const refusals: string[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    for (let index = next++; index < sessionIds.length; index = next++) {
      const id = sessionIds[index]!;
      sentAt.set(id, performance.now());
      const answer = await fetch(`${url}/v1/headset/sessions/${id}/finish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[index]}` },
        body: JSON.stringify({ completed_tasks: 4, success: true }),
      });
      const text = await answer.text();
      if (answer.status !== 200) {
        failures++;
        refusals.push(`${answer.status} ${text.slice(0, 200)}`);
      }
      answeredAt.set(id, performance.now());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const finishedIn = performance.now() - started;
  const all = await receiver.waitFor(sessionIds.length, DELIVERY_WAIT_MS);
  const latencies = [...receiver.arrivals].map(([id, at]) => at - sentAt.get(id)!);
  // From the answer (the commit is before it): a lower bound; negative when the event arrived
  // before the finish's answer did.
  const afterAnswer = [...receiver.arrivals].map(([id, at]) => at - answeredAt.get(id)!);
  await app.close();
  await receiver.close();
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  const p99 = percentile(latencies, 99);
  console.log(
    `${name}: ${sessionIds.length} finishes in ${(finishedIn / 1000).toFixed(1)} s ` +
      `(${failures} refused); delivered ${receiver.arrivals.size}/${sessionIds.length}; ` +
      `request start → receipt p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms; ` +
      `answer → receipt p50 ${percentile(afterAnswer, 50).toFixed(0)} ms, p95 ${percentile(afterAnswer, 95).toFixed(0)} ms`,
  );
  for (const refusal of refusals.slice(0, 5)) console.log(`  refused: ${refusal}`);
  console.log(
    `  all delivered: ${all && failures === 0 ? 'PASS' : 'FAIL'} · p95 < 2 s: ${p95 < 2000 ? 'PASS' : 'FAIL'}`,
  );
}

async function main() {
  console.log(
    `load: ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')} on ${os.cpus().length} cores`,
  );
  await runOn({ kind: 'pglite' });
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const scratch = await createScratchDatabase(serverUrl);
    try {
      await runOn({ kind: 'postgres', databaseUrl: scratch.url });
    } finally {
      await scratch.drop();
    }
  }
}

await main();
