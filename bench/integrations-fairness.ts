import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { newSigningSecret } from '../apps/server/src/integrations/signing.ts';
import { recordOutbox } from '../apps/server/src/outbox/outbox.ts';
import { testConfig } from '../apps/server/src/platform/config/config.ts';
import { openDatabase, type Db } from '../apps/server/src/platform/database/db.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import { say } from './cli.ts';
import { percentile, type DatabaseChoice } from './targets.ts';

/**
 * Fair delivery under a hostile neighbour (issue 40): the real app (buildApp, its dispatcher
 * running, the production DELIVERY_TIMEOUT_MS of 15 s) with one organisation's BENCH_HANGING (40)
 * webhooks pointing at a receiver on 127.0.0.1 that never answers, and another organisation's one
 * webhook on another host (127.0.0.2) that answers at once. Events of both are committed side by
 * side for BENCH_FAIRNESS_S seconds (the hanging organisation's every 500 ms, each one delivery per
 * webhook; the other's every 200 ms); the figure is the other organisation's commit → receipt.
 * Target: p95 < 2 s (before the fix: 29,964 ms, its sends waiting behind 16 hanging ones).
 */

const HANGING = Number(process.env.BENCH_HANGING ?? 40);
const DURATION_S = Number(process.env.BENCH_FAIRNESS_S ?? 20);
const NOISY_EVERY_MS = 500;
const QUIET_EVERY_MS = 200;

/** A receiver: answers 204 at once and notes when each event arrived, or never answers. */
async function receiver(host: string, hang: boolean) {
  const arrivals = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (hang) return;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        data: { device_id: string };
      };
      const id = body.data.device_id;
      if (!arrivals.has(id)) arrivals.set(id, performance.now());
      response.writeHead(204).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function organizationWithWebhooks(db: Db, name: string, urls: string[]) {
  const now = new Date();
  const organization = await db
    .insertInto('organizations')
    .values({ name })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('integrations')
    .values(
      urls.map((url) => ({
        organization_id: organization.id,
        kind: 'webhook' as const,
        url,
        events: ['device.enrolled'],
        secret: newSigningSecret(),
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  return organization.id;
}

/** Commits one device.enrolled of `organizationId`; answers its device id and when it committed. */
async function commitEvent(db: Db, organizationId: string) {
  const deviceId = crypto.randomUUID();
  await db.transaction().execute((trx) =>
    recordOutbox(trx, {
      organizationId,
      type: 'device.enrolled',
      at: new Date(),
      data: {
        device_id: deviceId,
        organization_id: organizationId,
        name: 'Quest 7',
        type: 'quest',
        enrolled_at: new Date().toISOString(),
      },
    }),
  );
  return { eventId: deviceId, at: performance.now() };
}

export async function fairnessOn(database: DatabaseChoice): Promise<boolean> {
  const name = database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-fair-'));
  const handle = await openDatabase(
    database.kind === 'postgres' ? { databaseUrl: database.databaseUrl } : { pgliteDir: dataDir },
  );
  await migrate(handle.db);
  const hanging = await receiver('127.0.0.1', true);
  const healthy = await receiver('127.0.0.2', false);
  const noisy = await organizationWithWebhooks(
    handle.db,
    'Noisy',
    Array.from({ length: HANGING }, (_, i) => `${hanging.url}/hang/${i}`),
  );
  const quiet = await organizationWithWebhooks(handle.db, 'Quiet', [`${healthy.url}/hook`]);
  const config = testConfig({
    dataDir,
    databaseUrl: database.databaseUrl,
    signingSecret: 'bench',
    outboundAllowPrivate: ['127.0.0.1', '127.0.0.2'],
  });
  const app = await buildApp({
    db: handle.db,
    config,
    backgroundJobs: true,
    logger: false,
    notifications: handle.notifications,
    urgentDb: handle.urgentDb,
  });
  await app.ready();
  const committed = new Map<string, number>();
  const stopAt = performance.now() + DURATION_S * 1000;
  const every = async (ms: number, organizationId: string, note: boolean) => {
    while (performance.now() < stopAt) {
      const { eventId, at } = await commitEvent(handle.db, organizationId);
      if (note) committed.set(eventId, at);
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
  };
  await Promise.all([every(NOISY_EVERY_MS, noisy, false), every(QUIET_EVERY_MS, quiet, true)]);
  // The last events' deliveries: a moment more.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const delays = [...committed].map(([id, at]) => (healthy.arrivals.get(id) ?? Infinity) - at);
  const arrived = delays.filter(Number.isFinite);
  await app.close();
  await handle.close();
  await hanging.close();
  await healthy.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const p95 = percentile(delays, 95);
  const pass = arrived.length === delays.length && p95 < 2000;
  say(
    `${name}: ${HANGING} hanging webhooks of one organisation (timeout ${config.deliveryTimeoutMs} ms), ` +
      `another's ${delays.length} events over ${DURATION_S} s: delivered ${arrived.length}/${delays.length}, ` +
      `commit → receipt p50 ${percentile(arrived, 50).toFixed(0)} / p95 ${p95.toFixed(0)} / ` +
      `max ${Math.max(...arrived).toFixed(0)} ms · p95 < 2 s: ${pass ? 'PASS' : 'FAIL'}`,
  );
  return pass;
}
