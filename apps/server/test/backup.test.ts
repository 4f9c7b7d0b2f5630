import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { DEMO_ADMIN, DEMO_PARTNER } from '@vrtc/demo/demo-content.ts';
import { seedDemo, seedHistory } from '@vrtc/demo/demo.seed.ts';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { createBackup, restoreBackup } from '../src/platform/ops/backup.ts';
import { startServer, type RunningServer } from '../src/main.ts';
import { systemClock } from '../src/platform/service/clock.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { openDatabase, type Db } from '../src/platform/database/db.ts';
import { migrate } from '../src/platform/database/migrate.ts';
import { makeDevice, makeSession } from './factories.ts';
import { migratedDataDir } from './harness.ts';
import { ensureServerBuilt, runCommand, runNpm, runNpmAsync } from './server-process.ts';
import { databaseUrlFor } from './template.ts';

/**
 * Backups taken while the server runs, restored into a fresh place, read back through the API:
 * the same organisations, sessions and statistics, builds and signing secret. The embedded
 * database with `npm run backup` / `npm run restore`; PostgreSQL with pg_dump / pg_restore as
 * docs/operations.md writes them.
 */

const template = inject('dbTemplate');
const tempDirs: string[] = [];
const servers: RunningServer[] = [];
const databases: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bk-'));
  tempDirs.push(dir);
  return dir;
}

// `npm run backup|restore` run the compiled server's tool (apps/server/dist), building it when
// stale: built here, with time to spare, rather than inside a command the tests time.
beforeAll(() => ensureServerBuilt(), 300_000);

afterEach(async () => {
  for (const server of servers.splice(0)) await server.app.close();
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  if (template.kind === 'postgres') {
    const admin = new pg.Client({ connectionString: template.serverUrl });
    await admin.connect();
    for (const name of databases.splice(0)) {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    }
    await admin.end();
  }
});

/**
 * The seeded headset stays online and its session active however long the test takes (nothing
 * heartbeats): what the API shows must not move with the clock between two reads.
 */
const KEEP_SESSIONS = {
  OFFLINE_AFTER_MS: '86400000',
  DISCONNECT_AFTER_MS: '86400000',
  SESSION_TIMEOUT_MS: '86400000',
};

/**
 * The production start (main.ts's startServer: data directory, migrations, HTTP, backup socket),
 * in this process: the backup command, a process of its own, asks it for its snapshot.
 */
async function start(env: Record<string, string>) {
  const running = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      WEB_DIST_DIR: '/nonexistent',
      LOG_LEVEL: 'silent',
      ...KEEP_SESSIONS,
      ...env,
    }),
  );
  servers.push(running);
  const { port } = running.app.server.address() as AddressInfo;
  return {
    ...running,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      servers.splice(servers.indexOf(running), 1);
      await running.app.close();
    },
  };
}

/** The demo: two organisations, accounts, content, six weeks of history, one active session. */
async function seed(db: Db): Promise<{ activeSessionId: string }> {
  await migrate(db);
  const demo = await seedDemo(db, systemClock);
  await seedHistory(db, systemClock, demo, []);
  const device = await makeDevice(db, demo.demo.id, { last_seen_at: new Date() });
  const active = await makeSession(db, {
    organizationId: demo.demo.id,
    deviceId: device.id,
    status: 'active',
    startedAt: new Date(Date.now() - 60_000),
  });
  return { activeSessionId: active.id };
}

/** What a command wrote to stderr, without npm's own warnings about the machine's npm config. */
const ownLines = (stderr: string) =>
  stderr.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('npm warn'));

/** An APK as the server accepts it: a ZIP's signature, then anything. */
const APK = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), crypto.randomBytes(64 * 1024)]);

async function login(url: string, account: { email: string; password: string }) {
  const response = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** What an admin and a client see of organisations, sessions and statistics. */
async function readState(url: string) {
  const admin = await login(url, DEMO_ADMIN);
  const partner = await login(url, DEMO_PARTNER);
  const get = async (token: string, pathAndQuery: string) => {
    const response = await fetch(`${url}${pathAndQuery}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status, pathAndQuery).toBe(200);
    const type = response.headers.get('content-type') ?? '';
    return type.includes('json') ? ((await response.json()) as unknown) : await response.text();
  };
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
  return {
    organizations: await get(admin, '/v1/admin/organizations?include_stats=true'),
    stats: await get(admin, '/v1/admin/stats'),
    range: await get(admin, `/v1/admin/stats/range?start_date=${from}&end_date=${today}`),
    adminHistory: await get(admin, '/v1/sessions/export'),
    partnerHistory: await get(partner, '/v1/sessions/export'),
    // Without seconds_active, which moves with the clock.
    active: JSON.stringify(await get(admin, '/v1/sessions/active')).replace(
      /"seconds_active":\d+/g,
      '',
    ),
    vrUsers: await get(admin, '/v1/vr-users'),
    builds: await get(admin, '/v1/admin/vr-app/builds'),
  };
}

async function downloadLink(url: string): Promise<string> {
  const token = await login(url, DEMO_ADMIN);
  const response = await fetch(`${url}/v1/vr-app/download`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { oculus_url: string }).oculus_url;
}

/** A link signed by one server, sent to another one (same path, query and signature). */
async function fetchBuildFrom(url: string, link: string): Promise<Response> {
  const signed = new URL(link);
  return fetch(`${url}${signed.pathname}${signed.search}`);
}

/** Cancelling the active session through the restored server moves the statistics by one. */
async function expectRollupsLive(url: string, sessionId: string, before: { stats: unknown }) {
  const admin = await login(url, DEMO_ADMIN);
  const cancel = await fetch(`${url}/v1/sessions/${sessionId}/cancel`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
  });
  expect(cancel.status).toBe(200);
  const stats = (await (
    await fetch(`${url}/v1/admin/stats`, { headers: { authorization: `Bearer ${admin}` } })
  ).json()) as Record<string, number>;
  const old = before.stats as Record<string, number>;
  expect(stats.active_sessions).toBe(old.active_sessions! - 1);
  expect(stats.cancelled_sessions).toBe(old.cancelled_sessions! + 1);
  expect(stats.total_sessions).toBe(old.total_sessions);
}

/** The rollup tables, the sessions they sum up, and the triggers that keep them. */
async function rollupsOf(databaseUrl: string) {
  const database = await openDatabase({ databaseUrl });
  try {
    const { rows: daily } = await sql<Record<string, unknown>>`
      SELECT * FROM session_daily ORDER BY organization_id, day`.execute(database.db);
    const { rows: counts } = await sql<{ sessions: number; rolled_up: number }>`
      SELECT (SELECT count(*)::int FROM sessions) AS sessions,
             (SELECT coalesce(sum(sessions), 0)::int FROM session_daily) AS rolled_up`.execute(
      database.db,
    );
    const { rows: triggers } = await sql<{ tgname: string }>`
      SELECT tgname FROM pg_trigger WHERE tgrelid = 'sessions'::regclass AND NOT tgisinternal
      ORDER BY tgname`.execute(database.db);
    return {
      daily,
      sessions: counts[0]!.sessions,
      rolledUp: counts[0]!.rolled_up,
      triggers: triggers.map((row) => row.tgname),
    };
  } finally {
    await database.close();
  }
}

describe.runIf(template.kind === 'pglite')(
  'backup of the embedded database',
  { timeout: 240_000 },
  () => {
    // The demo seeded once, on a copy of the run's migrated database (creating and migrating one
    // is not what these tests test); each test takes a copy of that data directory.
    let seeded: { dataDir: string; activeSessionId: string };
    beforeAll(async () => {
      const dataDir = migratedDataDir('vrtc-bk-seeded-');
      const database = await openDatabase({ pgliteDir: dataDir });
      const { activeSessionId } = await seed(database.db);
      await database.close();
      seeded = { dataDir, activeSessionId };
    }, 240_000);
    afterAll(() => fs.rmSync(seeded.dataDir, { recursive: true, force: true }));
    const seededCopy = () => {
      const dataDir = path.join(tempDir(), 'data');
      fs.cpSync(seeded.dataDir, dataDir, { recursive: true });
      return { dataDir, activeSessionId: seeded.activeSessionId };
    };

    it('backs up a running server and restores into a fresh DATA_DIR: same data, builds and secret', async () => {
      const { dataDir, activeSessionId } = seededCopy();
      fs.mkdirSync(path.join(dataDir, 'builds'));
      fs.writeFileSync(path.join(dataDir, 'builds', 'oculus.apk'), APK);

      const original = await start({ DATA_DIR: dataDir });
      // Metrics are off unless METRICS_PORT is set (health.test.ts starts a server with them).
      expect(original.metrics).toBeUndefined();
      const before = await readState(original.url);
      const link = await downloadLink(original.url);
      expect(fs.existsSync(path.join(dataDir, 'signing-secret'))).toBe(true);

      const backupFile = path.join(tempDir(), 'vrtc-backup.tar');
      const backup = await runNpmAsync(['backup', '--', backupFile], { DATA_DIR: dataDir });
      expect(ownLines(backup.stderr)).toEqual([]);
      expect(backup.status).toBe(0);
      expect(backup.stdout).toContain(`running server (pid ${process.pid})`);
      expect(backup.stdout).toContain('files: signing-secret, builds/oculus.apk');
      expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
      // Never over an existing file.
      await expect(createBackup({ dataDir }, backupFile)).rejects.toThrow(/exists already/);
      // The server kept working meanwhile, and refuses a restore under its feet.
      expect(await readState(original.url)).toEqual(before);
      await expect(restoreBackup({ dataDir }, backupFile)).rejects.toThrow(
        `A server (pid ${process.pid}) is running`,
      );
      await original.stop();

      const freshDir = path.join(tempDir(), 'fresh');
      const restore = await runNpmAsync(['restore', '--', backupFile], { DATA_DIR: freshDir });
      expect(ownLines(restore.stderr)).toEqual([]);
      expect(restore.status).toBe(0);
      // A second restore would overwrite a database: refused without --force.
      await expect(restoreBackup({ dataDir: freshDir }, backupFile)).rejects.toThrow(
        /already holds a database/,
      );

      const restored = await start({ DATA_DIR: freshDir });
      expect(await readState(restored.url)).toEqual(before);
      // The link signed before the backup is valid here: same secret, same build.
      const file = await fetchBuildFrom(restored.url, link);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(APK)).toBe(true);
      await expectRollupsLive(restored.url, activeSessionId, before);
    });

    it('refuses to run with a bad setting, naming it', async () => {
      const refused = await runNpmAsync(['backup', '--', path.join(tempDir(), 'x.tar')], {
        DATA_DIR: tempDir(),
        DATABASE_URL: 'mysql://db.internal/vrtc',
      });
      expect(refused.status).toBe(1);
      expect(ownLines(refused.stderr)[0]).toBe(
        'backup refused: DATABASE_URL must be a URL starting with postgres:// or postgresql://, got "mysql://db.internal/vrtc"',
      );
    });

    it('backs up a stopped data directory by opening it itself', async () => {
      const { dataDir } = seededCopy();
      // In-process: the command is tested above; this is what it does with no server running.
      const result = await createBackup({ dataDir }, path.join(tempDir(), 'stopped.tar'));
      expect(result.manifest.taken_from).toBe('stopped data directory');
      expect(result.manifest.counts).toMatchObject({ organizations: 2 });
      expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);

      await expect(
        createBackup(
          { dataDir: path.join(tempDir(), 'nothing-here') },
          path.join(tempDir(), 'x.tar'),
        ),
      ).rejects.toThrow(/There is no embedded database/);
    });
  },
);

describe.runIf(template.kind === 'postgres')('backup of PostgreSQL', { timeout: 240_000 }, () => {
  it('pg_dump while the server runs, pg_restore into a new database: same data, rollups live', async () => {
    if (template.kind !== 'postgres') return;
    const name = `${template.runId}_bk_${crypto.randomBytes(3).toString('hex')}`;
    const restoredName = `${name}_restored`;
    databases.push(name, restoredName);
    const admin = new pg.Client({ connectionString: template.serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const databaseUrl = databaseUrlFor(template.serverUrl, name);
    const database = await openDatabase({ databaseUrl });
    const { activeSessionId } = await seed(database.db);
    await database.close();

    const dataDir = tempDir();
    const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, SIGNING_SECRET: 'shared-secret' };
    const original = await start(env);
    const before = await readState(original.url);

    // docs/operations.md, "Backups on PostgreSQL", while the nodes run:
    const dumpFile = path.join(tempDir(), 'vrtc.dump');
    runCommand('pg_dump', ['--format=custom', `--file=${dumpFile}`, databaseUrl]);
    // `npm run backup` points at pg_dump instead of pretending.
    const refused = runNpm(['backup', '--', path.join(tempDir(), 'x.tar')], env);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/Back it up with pg_dump/);
    await original.stop();

    // … and the restore, into a new database.
    const restoredUrl = databaseUrlFor(template.serverUrl, restoredName);
    runCommand('psql', [template.serverUrl, '-c', `CREATE DATABASE ${restoredName}`]);
    runCommand('pg_restore', [
      '--no-owner',
      '--exit-on-error',
      `--dbname=${restoredUrl}`,
      dumpFile,
    ]);

    // The rollups came back as dumped, not counted twice by triggers firing during the load
    // (pg_restore creates triggers after the data), and the triggers are back.
    const restoredRollups = await rollupsOf(restoredUrl);
    expect(restoredRollups).toEqual(await rollupsOf(databaseUrl));
    expect(restoredRollups.rolledUp).toBe(restoredRollups.sessions);
    expect(restoredRollups.triggers.length).toBeGreaterThan(0);

    const restored = await start({ ...env, DATABASE_URL: restoredUrl });
    expect(await readState(restored.url)).toEqual(before);
    await expectRollupsLive(restored.url, activeSessionId, before);
  });
});
