import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { issueToken } from '../apps/server/src/auth/auth.service.ts';
import { hashToken } from '../apps/server/src/auth/tokens.ts';
import { systemClock } from '../apps/server/src/platform/service/clock.ts';
import type { LastSeenBuffer } from '../apps/server/src/headset/last-seen.ts';
import { testConfig, type Config } from '../apps/server/src/platform/config/config.ts';
import { openDatabase, type Db } from '../apps/server/src/platform/database/db.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import { keepRequestsYoung } from '../apps/server/src/platform/ops/heap.ts';

/** A server under load: where to send requests, and how to stop it. */
export interface Target {
  name: string;
  url: string;
  close(): Promise<void>;
}

/** The same path and a similar answer as the heartbeat, with no work behind it. */
export async function startBareRoute(): Promise<Target> {
  const app = Fastify({ logger: false });
  app.post('/v1/headset/heartbeat', async () => ({
    device_id: '00000000-0000-4000-8000-000000000000',
    movement_type: 'slide',
    heartbeat_interval_ms: 5000,
    session: null,
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    name: 'bare Fastify route',
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: () => app.close(),
  };
}

// A raw write, also as the first statement of a WITH (the last-seen flush: WITH updated AS (UPDATE …)).
const WRITE = /^\s*(?:WITH\s+\w+\s+AS\s*\(\s*)?(UPDATE|INSERT|DELETE|MERGE)\b/i;
function isWrite(node: RootOperationNode | OperationNode): boolean {
  switch (node.kind) {
    case 'InsertQueryNode':
    case 'UpdateQueryNode':
    case 'DeleteQueryNode':
    case 'MergeQueryNode':
      return true;
    case 'RawNode':
      return WRITE.test((node as { sqlFragments: readonly string[] }).sqlFragments[0] ?? '');
    default:
      return false;
  }
}

export interface FlushRecord {
  devices: number;
  rowsUpdated: number;
  /** From the flush's start to its answer. */
  durationMs: number;
}

/**
 * Counts every statement the app sends (a Kysely plugin on the database handed to buildApp: no
 * statement of the app bypasses it), the write statements sent while a last-seen flush was under
 * way, and every flush that had devices to write (the buffer's flush is wrapped). While the
 * benchmark runs, heartbeats write nothing themselves and the sweeper has nothing to end, so
 * writes during flushes = flushes means exactly one write statement per flush. A flush still under
 * way at reset() is not recorded (its statement was counted before the reset). No
 * AsyncLocalStorage here: on Node 20 it turns on promise hooks for every request and would tax
 * the very thing measured.
 */
export class StatementCounter implements KyselyPlugin {
  reads = 0;
  writes = 0;
  writesDuringFlushes = 0;
  readonly flushes: FlushRecord[] = [];
  private flushesUnderWay = 0;
  private generation = 0;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (isWrite(args.node)) {
      this.writes += 1;
      if (this.flushesUnderWay > 0) this.writesDuringFlushes += 1;
    } else {
      this.reads += 1;
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }

  /** Wraps the buffer's flush (the background job looks the method up on every tick). */
  watch(buffer: LastSeenBuffer): void {
    const original = buffer.flush.bind(buffer);
    buffer.flush = async () => {
      const generation = this.generation;
      const started = performance.now();
      this.flushesUnderWay += 1;
      try {
        const result = await original();
        if (result.devices > 0 && generation === this.generation) {
          const durationMs = performance.now() - started;
          this.flushes.push({
            devices: result.devices,
            rowsUpdated: result.rowsUpdated,
            durationMs,
          });
        }
        return result;
      } finally {
        this.flushesUnderWay -= 1;
      }
    };
  }

  reset(): void {
    this.generation += 1;
    this.reads = 0;
    this.writes = 0;
    this.writesDuringFlushes = 0;
    this.flushes.length = 0;
  }
}

/** Device tokens as enrolment hands them out (random, stored hashed). */
export function makeDeviceTokens(count: number): string[] {
  return Array.from({ length: count }, () => crypto.randomBytes(32).toString('base64url'));
}

/**
 * Enrols the devices through the data layer, as POST /v1/headset/enroll leaves them (token hash,
 * organisation), in a few multi-row inserts: 1,000 enrolments through HTTP would be rate-limited
 * per address only on failures, but cost a minute of the run for nothing measured.
 */
async function enrolDevices(db: Db, tokens: string[]): Promise<string> {
  const organization = await db
    .insertInto('organizations')
    .values({ name: 'Benchmark' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const rows = tokens.map((token, index) => ({
    organization_id: organization.id,
    name: `bench-${String(index + 1).padStart(4, '0')}`,
    type: 'quest' as const,
    token_hash: hashToken(token),
    last_seen_at: null,
  }));
  for (let at = 0; at < rows.length; at += 500) {
    await db
      .insertInto('devices')
      .values(rows.slice(at, at + 500))
      .execute();
  }
  return organization.id;
}

/** VR users a console account of the organisation renames in turn (the mutating call's load). */
export const MUTATION_VR_USERS = 200;

/**
 * A signed-in console account of the organisation and VR users for it to rename: the mutating call
 * (PUT /v1/vr-users/:id, a transaction that locks, updates and, where the audit log exists, writes
 * its event in the organisation's one chain).
 */
async function prepareMutation(db: Db, organizationId: string, config: Config) {
  const account = await db
    .insertInto('accounts')
    .values({
      email: 'bench-staff@example.com',
      password_hash: 'not-used',
      role: 'client',
      organization_id: organizationId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const vrUsers = await db
    .insertInto('vr_users')
    .values(
      Array.from({ length: MUTATION_VR_USERS }, (_, i) => ({
        organization_id: organizationId,
        name: `Trainee ${i + 1}`,
      })),
    )
    .returning('id')
    .execute();
  const { token } = await issueToken({ db, clock: systemClock, config }, account.id);
  return { token, paths: vrUsers.map((vrUser) => `/v1/vr-users/${vrUser.id}`) };
}

export interface HeartbeatTarget extends Target {
  counter: StatementCounter;
  flushIntervalMs: number;
  /** A console account's token and the VR users it may rename (PUT paths). */
  mutation: { token: string; paths: string[] };
  /** Push calls (GET /v1/headset/events) held by the server now. */
  heldPushCalls: () => number;
}

export interface DatabaseChoice {
  kind: 'pglite' | 'postgres';
  /** For postgres: the fresh database's URL. */
  databaseUrl?: string;
}

/**
 * The real application (buildApp, background jobs on, as main.ts runs it) on a freshly migrated
 * database holding the enrolled devices, listening on 127.0.0.1 at a free port.
 */
export async function startHeartbeatServer(
  database: DatabaseChoice,
  tokens: string[],
  options: { logLevel: Config['logLevel'] },
): Promise<HeartbeatTarget> {
  // The process as startServer (main.ts) tunes it for a fleet's held push calls (decision 036).
  keepRequestsYoung();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-'));
  const handle = await openDatabase(
    database.kind === 'postgres' ? { databaseUrl: database.databaseUrl } : { pgliteDir: dataDir },
  );
  const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  let organizationId: string;
  try {
    await migrate(handle.db);
    organizationId = await enrolDevices(handle.db, tokens);
  } catch (error) {
    await handle.close();
    removeDataDir();
    throw error;
  }
  const counter = new StatementCounter();
  const config = testConfig({
    dataDir,
    databaseUrl: database.databaseUrl,
    logLevel: options.logLevel,
    signingSecret: 'bench',
  });
  const mutation = await prepareMutation(handle.db, organizationId, config);
  const app = await buildApp({
    db: handle.db.withPlugin(counter),
    config,
    backgroundJobs: true,
    // pino's own file destination, as stdout in production, to /dev/null: the cost of logging is
    // measured, the terminal stays readable.
    logger: options.logLevel === 'silent' ? false : { level: options.logLevel, file: '/dev/null' },
    onClosed: async () => {
      await handle.close();
      removeDataDir();
    },
  });
  counter.watch(app.lastSeen);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  // One real heartbeat first: the tokens must be ones the route accepts.
  const probe = await fetch(`${url}/v1/headset/heartbeat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[0]}` },
    body: '{}',
  });
  if (probe.status !== 200) {
    await app.close();
    throw new Error(`heartbeat probe answered ${probe.status}: ${await probe.text()}`);
  }
  return {
    name: `heartbeat · ${database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}`,
    url,
    counter,
    flushIntervalMs: config.lastSeenFlushMs,
    mutation,
    heldPushCalls: () => app.devicePush.figures.waiting,
    close: () => app.close(),
  };
}

/**
 * A database of its own on the DATABASE_URL server, dropped afterwards; nothing else is touched.
 * `name` when the run names it (to keep it with --keep), else a fresh one.
 */
export async function createScratchDatabase(
  serverUrl: string,
  name = `vrtc_bench_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`,
) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      try {
        await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await cleanup.end();
      }
    },
  };
}

/** What a latency probe starts its session with: the console's bearer token, the headset's. */
export interface Probe {
  accountToken: string;
  deviceToken: string;
  deviceId: string;
  levelId: string;
}

/**
 * A latency probe's organisation, through the data layer: one console account (`email`, a bearer
 * token valid a day), one enrolled headset (its token) and a level of `maxTasks` tasks of a
 * scenario the organisation may run.
 */
export async function seedProbe(
  db: Db,
  options: { name: string; email: string; passwordHash: string; maxTasks: number },
): Promise<Probe> {
  const [accountToken, deviceToken] = makeDeviceTokens(2) as [string, string];
  const organization = await db
    .insertInto('organizations')
    .values({ name: options.name })
    .returning('id')
    .executeTakeFirstOrThrow();
  const account = await db
    .insertInto('accounts')
    .values({
      email: options.email,
      password_hash: options.passwordHash,
      role: 'client',
      organization_id: organization.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('auth_tokens')
    .values({
      account_id: account.id,
      token_hash: hashToken(accountToken),
      created_at: new Date(),
      expires_at: new Date(Date.now() + 24 * 3600 * 1000),
    })
    .execute();
  const device = await db
    .insertInto('devices')
    .values({
      organization_id: organization.id,
      name: 'probe-headset',
      type: 'quest',
      token_hash: hashToken(deviceToken),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const scenario = await db
    .insertInto('scenarios')
    .values({ name: 'Latency probe', description: options.name })
    .returning('id')
    .executeTakeFirstOrThrow();
  const module = await db
    .insertInto('modules')
    .values({ scenario_id: scenario.id, name: 'Module 1', order_index: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const level = await db
    .insertInto('levels')
    .values({ module_id: module.id, name: 'Level 1', level_number: 1, max_tasks: options.maxTasks })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('scenario_access')
    .values({
      scenario_id: scenario.id,
      organization_id: organization.id,
      granted_at: new Date(),
      granted_by: 'bench',
      expires_at: null,
    })
    .execute();
  return { accountToken, deviceToken, deviceId: device.id, levelId: level.id };
}

/** The p-th percentile (nearest rank) of `values`; NaN when there are none. */
export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
