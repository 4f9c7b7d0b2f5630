import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { AuditVerifyResult } from '@vrtc/contract';
import { sql } from 'kysely';
import { describe, expect, inject, vi } from 'vitest';
import { buildApp, type AppContext } from '../src/app.ts';
import type { AppInstance } from '../src/platform/http/app-types.ts';
import { ManualClock } from '../src/platform/service/clock.ts';
import { testConfig, type Config } from '../src/platform/config/config.ts';
import { openDatabase, type DatabaseHandle, type Db } from '../src/platform/database/db.ts';
import { runSweep } from '../src/headset/sweeper.ts';
import { leaseDatabase } from './kept-database.ts';
import { databaseUrlFor, type TestDatabaseTemplate } from './template.ts';

/**
 * A fresh, migrated database: on PGlite the worker's kept database put back to the migrated state
 * (kept-database.ts) or a copy of the run's snapshot; on PostgreSQL a copy of the run's template.
 * `ownCopy`: a copy that `close()` really closes, for a test that goes on after closing it.
 */
export async function createTestDatabase(
  options: { ownCopy?: boolean } = {},
): Promise<DatabaseHandle> {
  const template = inject('dbTemplate');
  const open =
    template.kind === 'pglite'
      ? () => openDatabase({ pgliteSnapshotPath: template.snapshotPath })
      : () => copyOfTemplate(template);
  return options.ownCopy ? open() : leaseDatabase(open);
}

/** PostgreSQL: a new database made from the run's migrated template, dropped on close. */
async function copyOfTemplate(
  template: Extract<TestDatabaseTemplate, { kind: 'postgres' }>,
): Promise<DatabaseHandle> {
  const name = `${template.runId}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: template.serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.template}`);
  await admin.end();
  const database = await openDatabase({
    databaseUrl: databaseUrlFor(template.serverUrl, name),
    poolSize: 20,
  });
  return {
    ...database,
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: template.serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/**
 * A new DATA_DIR (under the system's temporary folder; the caller removes it) whose embedded
 * database is a copy of the run's migrated one: a server process or `openDatabase({ pgliteDir })`
 * starts on it without creating a database and applying every migration (30–60 s each on a
 * loaded machine). For tests where that first start is not what they test; those that test it
 * start on an empty directory. Outside the PGlite run (no migrated directory) it is empty.
 */
export function migratedDataDir(prefix = 'vrtc-migrated-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const template = inject('dbTemplate');
  if (template?.kind === 'pglite' && template.dataDirPath) {
    fs.cpSync(path.join(template.dataDirPath, 'pglite'), path.join(dir, 'pglite'), {
      recursive: true,
    });
  }
  return dir;
}

export interface TestApp {
  app: AppInstance;
  db: Db;
  clock: ManualClock;
  config: Config;
  close(): Promise<void>;
}

/** The whole application on a fresh database and a clock that moves only when told. */
export async function createTestApp(options: { config?: Partial<Config> } = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const clock = new ManualClock(new Date());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-test-'));
  const config = testConfig({
    dataDir,
    signingSecret: 'test-signing-secret',
    // Tests write rows straight into the database and read at once, on a clock that stands
    // still: shared figures are computed on every read (their sharing has its own tests).
    deviceFiguresMaxAgeMs: 0,
    analyticsMaxAgeMs: 0,
    // Accounts made through the API hash at Argon2's floor: hundreds of sign-ins and password
    // changes at the production cost took minutes (config.test.ts shows production keeps it).
    passwordHashCost: 'test',
    ...options.config,
  });
  const app = await buildApp({
    db: database.db,
    config,
    clock,
    logger: false,
    databaseUrl: database.databaseUrl,
    notifications: database.notifications,
  });
  await app.ready();
  return {
    app,
    db: database.db,
    clock,
    config,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `describe` for what never touches the run's test database (PGlite data directories, a server
 * process on a DATA_DIR of its own, the build): it runs once per `npm test`, in the PGlite run;
 * the PostgreSQL run would only do the same work again (minutes of server starts).
 */
// Suites without the test databases' global set-up (the cluster's) import this file through the
// factories, so no template is provided there: nothing in them is run "once".
export const describeOnce = describe.runIf(inject('dbTemplate')?.kind === 'pglite');

/** How long `vi.waitFor` waits for background work (a flush, a sweep, another process) here. */
export const BACKGROUND = { timeout: 5000, interval: 20 };

/**
 * PostgreSQL: until at least `statements` of this database wait on a lock (a test that makes
 * statements meet holds a row, then lets them go once they are queued behind it).
 */
export async function untilWaitingOnLocks(db: Db, statements: number) {
  await vi.waitFor(async () => {
    const { rows } = await sql<{ waiting: number }>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db);
    expect(rows[0]!.waiting).toBeGreaterThanOrEqual(statements);
  }, BACKGROUND);
}

/** What the app's services receive, for tests that call a service or job directly. */
export function contextOf(t: TestApp): AppContext {
  return {
    db: t.db,
    clock: t.clock,
    config: t.config,
    log: t.app.log,
    deviceEvents: t.app.deviceEvents,
    live: t.app.live,
    deviceFigures: t.app.deviceFigures,
    organizationAnalytics: t.app.organizationAnalytics,
    organizationStats: t.app.organizationStats,
  };
}

/** GET /v1/admin/audit/verify, as the admin whose headers are given: its answer. */
export async function verifyAuditAs(
  t: TestApp,
  headers: Record<string, string>,
): Promise<AuditVerifyResult> {
  const response = await t.app.inject({ method: 'GET', url: '/v1/admin/audit/verify', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditVerifyResult>();
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}

/**
 * One run of the sweeper now, as the background job would run it: for the tests of domains that
 * read what it ends (statistics, the training record) and may not import the headset domain.
 */
export function sweepNow(t: TestApp) {
  return runSweep(contextOf(t));
}
