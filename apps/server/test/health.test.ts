import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppInstance } from '../src/platform/http/app-types.ts';
import { ManualClock } from '../src/platform/service/clock.ts';
import { testConfig } from '../src/platform/config/config.ts';
import type { DatabaseHandle } from '../src/platform/database/db.ts';
import { STORAGE_CHECK_MAX_AGE_MS, StorageCheck } from '../src/platform/ops/health.ts';
import { JobMonitor } from '../src/platform/ops/job-monitor.ts';
import { createTestDatabase, migratedDataDir } from './harness.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './server-process.ts';

/** GET /healthz (alive) and GET /readyz (can take work), on each database. */

const kind = inject('dbTemplate').kind;

/** Makes the database unreachable on demand, the way an outage does. */
class DatabaseFault implements KyselyPlugin {
  down = false;

  transformQuery: KyselyPlugin['transformQuery'] = (args) => {
    if (this.down) {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
        code: 'ECONNREFUSED',
      });
    }
    return args.node;
  };

  transformResult: KyselyPlugin['transformResult'] = async (args) => args.result;
}

describe('health endpoints', () => {
  let database: DatabaseHandle;
  let app: AppInstance;
  const fault = new DatabaseFault();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-health-'));
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({
      db: database.db.withPlugin(fault),
      config: testConfig({ dataDir, signingSecret: 'test-secret' }),
      clock,
      logger: false,
      databaseUrl: database.databaseUrl,
    });
    await app.ready();
  });
  afterEach(() => {
    fault.down = false;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('/healthz answers 200 whatever the database does, and never caches', async () => {
    for (const down of [false, true]) {
      fault.down = down;
      const response = await app.inject('/healthz');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'alive' });
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('/readyz answers 200 with its checks when the database answers and is migrated', async () => {
    const response = await app.inject('/readyz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: {
        draining: false,
        database: 'ok',
        storage: 'ok',
        background_jobs: 'off',
        device_notifications: kind === 'postgres' ? 'listening' : 'not_used',
      },
    });
  });

  it('/readyz answers 503 with the reason when the database cannot be reached', async () => {
    fault.down = true;
    const response = await app.inject('/readyz');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      error: 'service_unavailable',
      message: 'Not ready: the database cannot be reached',
      details: {
        draining: false,
        database: 'unreachable',
        storage: 'ok',
        background_jobs: 'not_checked',
        device_notifications: kind === 'postgres' ? 'listening' : 'not_used',
      },
    });
  });

  it('/readyz answers 503 when the database lacks a migration this build needs', async () => {
    const { rows } = await sql<{ version: string }>`
      DELETE FROM schema_migrations
      WHERE version = (SELECT max(version) FROM schema_migrations) RETURNING version`.execute(
      database.db,
    );
    try {
      const response = await app.inject('/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        error: 'service_unavailable',
        message: 'Not ready: the database lacks migrations this build needs',
        details: { database: 'not_migrated' },
      });
    } finally {
      await sql`INSERT INTO schema_migrations (version) VALUES (${rows[0]!.version})`.execute(
        database.db,
      );
    }
    expect((await app.inject('/readyz')).statusCode).toBe(200);
  });

  it('/readyz answers 503 storage_unavailable with the reason while DATA_DIR cannot be written', async () => {
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    // Tests run as root, whom no chmod stops: a file where the directory was fails every write
    // as a read-only or full disk does (ENOTDIR here; ENOSPC and EROFS below).
    const moved = `${dataDir}.away`;
    fs.renameSync(dataDir, moved);
    fs.writeFileSync(dataDir, '');
    try {
      // The last answer is reused for a moment: balancers probe every few seconds.
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      clock.advance(STORAGE_CHECK_MAX_AGE_MS);
      const response = await app.inject('/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        error: 'storage_unavailable',
        message: `Not ready: DATA_DIR ${dataDir} cannot be written: a part of the path is a file, not a directory (ENOTDIR)`,
        details: { database: 'ok', storage: 'unwritable' },
      });
    } finally {
      fs.rmSync(dataDir);
      fs.renameSync(moved, dataDir);
    }
    clock.advance(STORAGE_CHECK_MAX_AGE_MS);
    expect((await app.inject('/readyz')).statusCode).toBe(200);
  });

  it('/readyz answers 503 from the moment the server drains, and every answer closes its connection', async () => {
    expect((await app.inject('/v1/me')).headers.connection).not.toBe('close');
    app.health.startDraining();
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      error: 'service_unavailable',
      message: 'Not ready: draining: the server is shutting down',
      details: { draining: true },
    });
    // Still working meanwhile, but each answer ends its connection.
    const me = await app.inject('/v1/me');
    expect(me.statusCode).toBe(401);
    expect(me.headers.connection).toBe('close');
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });
});

describe('readiness of the background jobs', () => {
  let database: DatabaseHandle;
  let app: AppInstance;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-health-'));
  /** Flushes held back (a statement that never returns), and what lets them go. */
  const held: Array<() => void> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({
      db: database.db,
      config: testConfig({
        dataDir,
        signingSecret: 'test-secret',
        // Flush every 20 ms, sweep every 500 ms: a stalled one shows within 1.2 s or 6 s.
        lastSeenFlushMs: 20,
        offlineAfterMs: 2000,
        disconnectAfterMs: 2000,
      }),
      logger: false,
      backgroundJobs: true,
      databaseUrl: database.databaseUrl,
    });
    await app.ready();
  });
  afterAll(async () => {
    for (const release of held.splice(0)) release();
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is ok while they run, and 503 once one stops finishing its runs', async () => {
    await expect
      .poll(async () => (await app.inject('/readyz')).json().checks?.background_jobs, {
        timeout: 10_000,
      })
      .toBe('ok');

    // Every flush (the flusher's, and the sweeper's before it sweeps) hangs, as a statement that
    // never returns would; the database itself still answers.
    const buffer = app.lastSeen;
    const flush = buffer.flush.bind(buffer);
    buffer.flush = () =>
      new Promise((resolve, reject) => held.push(() => void flush().then(resolve, reject)));

    const stalled = await pollFor(async () => {
      const response = await app.inject('/readyz');
      return response.statusCode === 503 ? response.json() : undefined;
    });
    expect(stalled).toMatchObject({
      error: 'service_unavailable',
      message: expect.stringMatching(
        /^Not ready: background job (last_seen_flush|sweeper) has not finished a run for \d+ s$/,
      ),
      details: { draining: false, database: 'ok', background_jobs: 'stalled' },
    });

    buffer.flush = flush;
    for (const release of held.splice(0)) release();
    await expect
      .poll(async () => (await app.inject('/readyz')).statusCode, { timeout: 10_000 })
      .toBe(200);
  }, 30_000);
});

/** Waits until `check` gives a value (expect.poll checks a matcher; this one returns the value). */
function pollFor<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (value === undefined) throw new Error('condition not met yet');
      return value;
    },
    { timeout: timeoutMs, interval: 100 },
  );
}

describe('job monitor', () => {
  it('calls a job stalled after ten of its intervals and a second without a finished run', () => {
    let now = 0;
    const monitor = new JobMonitor(undefined, () => now);
    expect(monitor.state()).toEqual({ status: 'off' });
    monitor.started('last_seen_flush', 1000);
    now = 11_000;
    expect(monitor.state()).toEqual({ status: 'ok' });
    monitor.ran('last_seen_flush', 0.01, new Error('database hiccup'));
    now = 22_001;
    expect(monitor.state()).toEqual({
      status: 'stalled',
      job: 'last_seen_flush',
      silentForMs: 11_001,
    });
  });
});

describe('draining on SIGTERM, and metrics, of the server process', { timeout: 120_000 }, () => {
  let server: ServerProcess | undefined;
  let postgres: DatabaseHandle | undefined;
  // A copy of the run's migrated database (PGlite run): the drain is under test, not the first start.
  const dataDir = migratedDataDir('vrtc-drain-');
  afterAll(async () => {
    if (server) await stopServerProcess(server, 'SIGKILL');
    await postgres?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 on /readyz for DRAIN_DELAY_MS while still serving, then exits 0', async () => {
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      DRAIN_DELAY_MS: '1500',
      ADMIN_PASSWORD: 'whatever-it-is',
      METRICS_PORT: '0',
    };
    if (kind === 'postgres') {
      postgres = await createTestDatabase();
      env.DATABASE_URL = postgres.databaseUrl!;
    }
    server = await startServerProcess(env);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    // METRICS_PORT=0: a port of its own, on HOST.
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await expect.poll(async () => (await fetch(`${server!.url}/readyz`)).status).toBe(503);
    const drained = await fetch(`${server.url}/readyz`);
    expect(await drained.json()).toMatchObject({ details: { draining: true } });
    expect(await (await fetch(server.metricsUrl!)).text()).toMatch(/^vrtc_draining 1$/m);
    const alive = await fetch(`${server.url}/healthz`);
    expect(alive.status).toBe(200);
    expect(alive.headers.get('connection')).toBe('close');
    expect(await server.exited).toBe(0);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1500);
  });
});

describe('the DATA_DIR check', () => {
  const failing = (code: string) => {
    let writes = 0;
    const write = async () => {
      writes++;
      throw Object.assign(new Error(`${code}: simulated`), { code });
    };
    return { write, writes: () => writes };
  };

  it('tells a full disk and a read-only one apart, in words', async () => {
    const full = new StorageCheck('/data', () => 0, failing('ENOSPC').write);
    expect(await full.state()).toMatchObject({
      state: 'full',
      reason: 'DATA_DIR /data cannot be written: its disk is full (ENOSPC)',
    });
    const readOnly = new StorageCheck('/data', () => 0, failing('EROFS').write);
    expect(await readOnly.state()).toMatchObject({
      state: 'read_only',
      reason: 'DATA_DIR /data cannot be written: it is on a read-only file system (EROFS)',
    });
  });

  it('writes once per moment, however many probes come', async () => {
    let now = 0;
    const probe = failing('ENOSPC');
    const check = new StorageCheck('/data', () => now, probe.write);
    await Promise.all([check.state(), check.state(), check.state()]);
    await check.state();
    expect(probe.writes()).toBe(1);
    now += STORAGE_CHECK_MAX_AGE_MS;
    await check.state();
    expect(probe.writes()).toBe(2);
  });

  it('leaves nothing behind in DATA_DIR', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-probe-'));
    try {
      expect((await new StorageCheck(dir, () => 0).state()).state).toBe('ok');
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('/readyz on a closed database', () => {
  // Opened in a hook: opening a database is set-up (hookTimeout), not the behaviour under test, and
  // takes most of the 30 s test timeout on a loaded machine.
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase({ ownCopy: true });
  });

  it('answers 503 with the reason', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-health-'));
    const app = await buildApp({
      db: database.db,
      config: testConfig({ dataDir, signingSecret: 'test-secret' }),
      clock: new ManualClock(new Date()),
      logger: false,
    });
    try {
      await app.ready();
      expect((await app.inject('/readyz')).statusCode).toBe(200);
      await database.close();
      const response = await app.inject('/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({
        error: 'service_unavailable',
        message: 'Not ready: the database cannot be reached',
        details: { database: 'unreachable' },
      });
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
