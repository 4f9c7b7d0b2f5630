import { AUDIT_REDACTED } from '@vrtc/contract';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { openDatabase } from '../src/platform/database/db.ts';
import { migrate } from '../src/platform/database/migrate.ts';
import { describeOnce, migratedDataDir } from './harness.ts';
import { ensureServerBuilt, SERVER_ENTRY } from './server-process.ts';
import { databaseUrlFor } from './template.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../..');
const tempDirs: string[] = [];
const processes: ChildProcess[] = [];

function tempDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-platform-'));
  tempDirs.push(dir);
  return dir;
}

/**
 * A DATA_DIR holding a copy of the run's migrated database, for tests where creating and
 * migrating a database is not what they test (the first start is, on an empty tempDir()).
 */
function migratedDir() {
  const dir = migratedDataDir('vrtc-platform-');
  tempDirs.push(dir);
  return dir;
}

/**
 * An in-memory copy of the run's migrated database, for tests of the embedded database's thread
 * where a new database is not what they test: creating one (initdb) costs 4–6 s of CPU at rest,
 * loading the snapshot about half that. Inside describeOnce: the PGlite run's snapshot.
 */
function openSnapshotCopy() {
  const template = inject('dbTemplate');
  if (template.kind !== 'pglite') throw new Error('the PGlite run has the snapshot');
  return openDatabase({ pgliteSnapshotPath: template.snapshotPath });
}

afterEach(() => {
  for (const child of processes.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

interface RunningServer {
  child: ChildProcess;
  url: string;
  output: () => string;
}

const serverEnv = (env: Record<string, string>) => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATABASE_URL: '',
  WEB_DIST_DIR: '/nonexistent',
  ...env,
});

/**
 * Starts the real server process (PGlite in dataDir), by default the compiled entry as the
 * operations guide runs it, and resolves once it listens.
 */
async function startServer(
  env: Record<string, string>,
  command: { file: string; args: string[] } = { file: process.execPath, args: [SERVER_ENTRY] },
): Promise<RunningServer> {
  await ensureServerBuilt();
  const child = spawn(command.file, command.args, {
    cwd: repositoryRoot,
    env: serverEnv(env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  processes.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(Object.assign(new Error(output), { exitCode: code })));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });

async function login(url: string, email: string, password: string) {
  return fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}

describeOnce('embedded database (PGlite)', { timeout: 120_000 }, () => {
  it('keeps data across a restart of the data directory', async () => {
    const dir = migratedDir();
    const first = await openDatabase({ pgliteDir: dir });
    expect(await migrate(first.db)).toEqual([]);
    await first.db.insertInto('organizations').values({ name: 'Survivor' }).execute();
    await first.close();

    const second = await openDatabase({ pgliteDir: dir });
    expect(await migrate(second.db)).toEqual([]);
    const rows = await second.db.selectFrom('organizations').select('name').execute();
    expect(rows.map((row) => row.name)).toEqual(['Survivor']);
    await second.close();
  });

  it('runs with small shared buffers, on a new data directory and when reopened (issue #27)', async () => {
    // PGlite's default 128 MB of shared buffers stays resident in the server process once touched.
    const dir = tempDir();
    for (let open = 0; open < 2; open++) {
      const database = await openDatabase({ pgliteDir: dir });
      const { rows } = await sql<{ shared_buffers: string }>`SHOW shared_buffers`.execute(
        database.db,
      );
      expect(rows[0]?.shared_buffers).toBe('16MB');
      await database.close();
    }
  });

  it('refuses a second opener of the same data directory with a clear message', async () => {
    const dir = migratedDir();
    const first = await openDatabase({ pgliteDir: dir });
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(
      /in use by another server process/,
    );
    await first.close();
    const again = await openDatabase({ pgliteDir: dir });
    await again.close();
  });

  it('answers from its own thread with PostgreSQL types and error fields intact', async () => {
    const database = await openSnapshotCopy();
    const { rows } = await sql<{ at: Date; big: string; bytes: Uint8Array; list: number[] }>`
      SELECT now() AS at, 9007199254740993::numeric AS big, '\\x0102'::bytea AS bytes,
             ARRAY[1, 2] AS list`.execute(database.db);
    expect(rows[0]!.at).toBeInstanceOf(Date);
    expect(rows[0]!.big).toBe('9007199254740993');
    expect([...rows[0]!.bytes]).toEqual([1, 2]);
    expect(rows[0]!.list).toEqual([1, 2]);

    await sql`CREATE TABLE once (id int PRIMARY KEY)`.execute(database.db);
    await sql`INSERT INTO once VALUES (${1})`.execute(database.db);
    const error = await sql`INSERT INTO once VALUES (${1})`
      .execute(database.db)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ code: '23505', constraint: 'once_pkey' });

    await database.close();
    await expect(sql`SELECT 1`.execute(database.db)).rejects.toThrow();
  });

  it('runs an urgent statement before the transactions waiting for its one connection', async () => {
    const database = await openSnapshotCopy();
    const order: string[] = [];
    let holding!: () => void;
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (holding = resolve));
    const released = new Promise<void>((resolve) => (letGo = resolve));
    const holder = database.db.transaction().execute(async (trx) => {
      await sql`SELECT 1`.execute(trx);
      holding();
      await released;
      order.push('holder');
    });
    await held;
    const waiting = [1, 2].map((n) =>
      database.db.transaction().execute(async (trx) => {
        await sql`SELECT 1`.execute(trx);
        order.push(`transaction ${n}`);
      }),
    );
    await vi.waitFor(() => expect(database.poolStats().waiting).toBe(2));
    const urgent = sql`SELECT 1`.execute(database.urgentDb).then(() => order.push('urgent'));
    await vi.waitFor(() => expect(database.poolStats().waiting).toBe(3));
    letGo();
    await Promise.all([holder, ...waiting, urgent]);
    expect(order).toEqual(['holder', 'urgent', 'transaction 1', 'transaction 2']);
    await database.close();
  });

  it('keeps a process alive while a statement runs, and lets it end after', async () => {
    const template = inject('dbTemplate');
    const snapshotPath = template.kind === 'pglite' ? template.snapshotPath : '';
    const script = path.resolve(import.meta.dirname, 'fixtures/pglite-one-statement.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: { ...process.env, PGLITE_SNAPSHOT_PATH: snapshotPath },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    processes.push(child);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    expect(await exited(child)).toBe(0);
    expect(JSON.parse(output)).toEqual({ answer: 42, isDate: true });
  });

  it('refuses a data directory it cannot open with a clear message, and releases its lock', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'pglite'), 'not a directory');
    await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(
      `Could not open the embedded database in ${path.join(dir, 'pglite')}: `,
    );
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
  });

  it('takes over a lock left behind by a process that died', async () => {
    const dir = migratedDir();
    fs.writeFileSync(path.join(dir, 'server.lock'), '999999999');
    const database = await openDatabase({ pgliteDir: dir });
    // The lock is this process's now, and the database answers.
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).toBe(String(process.pid));
    const { rows } = await sql<{ answer: number }>`SELECT 1 AS answer`.execute(database.db);
    expect(rows).toEqual([{ answer: 1 }]);
    await database.close();
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
  });
});

// Each of these starts real server processes: minutes, not seconds, on a loaded two-core machine.
describeOnce('the server process', { timeout: 180_000 }, () => {
  // The compiled server, built up front when stale: a failing build fails here, saying why.
  beforeAll(() => ensureServerBuilt(), 300_000);

  it('creates the first admin, closes cleanly on SIGTERM, and keeps its data for the next start', async () => {
    const dir = tempDir();
    const env = { DATA_DIR: dir, ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'boss-password' };
    const first = await startServer(env);
    expect((await login(first.url, 'boss@example.com', 'boss-password')).status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await exited(first.child)).toBe(0);
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);

    const second = await startServer({ ...env, ADMIN_PASSWORD: 'ignored-now' });
    expect((await login(second.url, 'boss@example.com', 'boss-password')).status).toBe(200);
    second.child.kill('SIGINT');
    expect(await exited(second.child)).toBe(0);
  });

  it('refuses to start a second server on the same DATA_DIR', async () => {
    const dir = migratedDir();
    const first = await startServer({ DATA_DIR: dir, ADMIN_PASSWORD: 'whatever-it-is' });
    const second = startServer({ DATA_DIR: dir });
    const failure = await second.then(
      () => undefined,
      (error: Error & { exitCode: number }) => error,
    );
    expect(failure?.exitCode).toBe(1);
    expect(failure?.message).toMatch(/in use by another server process/);
    // The first server is unharmed.
    expect((await fetch(`${first.url}/v1/me`)).status).toBe(401);
    first.child.kill('SIGTERM');
    await exited(first.child);
  });

  it('drains and exits when SIGTERM is sent to `npm start` (no wrapper keeps it alive)', async () => {
    const dir = migratedDir();
    const server = await startServer(
      { DATA_DIR: dir, ADMIN_PASSWORD: 'whatever-it-is' },
      { file: 'npm', args: ['start', '--silent'] },
    );
    expect((await fetch(`${server.url}/v1/me`)).status).toBe(401);
    server.child.kill('SIGTERM');
    expect(await exited(server.child)).toBe(0);
    await expect(fetch(`${server.url}/v1/me`)).rejects.toThrow();
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
  });

  it('exits non-zero with one fatal log line when its embedded database dies', async () => {
    const dir = migratedDir();
    const script = path.resolve(import.meta.dirname, 'fixtures/server-losing-database.ts');
    const server = await startServer(
      { DATA_DIR: dir, ADMIN_PASSWORD: 'whatever-it-is' },
      // From the sources, as `npm run dev` runs it (the fixture reaches into the database).
      { file: process.execPath, args: ['--import', 'tsx', '--conditions=vrtc-source', script] },
    );
    expect((await login(server.url, 'admin@example.com', 'whatever-it-is')).status).toBe(200);
    const before = server.output().length;
    server.child.stdin!.write('crash\n');
    expect(await exited(server.child)).toBe(1);
    const after = server
      .output()
      .slice(before)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    const problems = after.filter((line) => line.level >= 40);
    expect(problems).toEqual([
      {
        ...problems[0],
        level: 60,
        msg: expect.stringMatching(
          /^The embedded database thread stopped \(exit code 1\); the server cannot go on without its database and exits/,
        ),
      },
    ]);
  });

  it('refuses to start with a DATA_DIR it cannot write, saying which and what to do', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a-file');
    fs.writeFileSync(file, '');
    const failure = await startServer({ DATA_DIR: path.join(file, 'data') }).then(
      () => undefined,
      (error: Error & { exitCode: number }) => error,
    );
    expect(failure?.exitCode).toBe(1);
    expect(failure?.message.trim()).toBe(
      `DATA_DIR ${path.join(file, 'data')} cannot be used: a part of the path is a file, not a ` +
        'directory (ENOTDIR). Create the directory and let the server’s user write to it, or set ' +
        'DATA_DIR to a directory that it can write.',
    );
  });

  it('refuses to start with a bad setting, naming each variable and what it must be', async () => {
    const failure = await startServer({
      DATA_DIR: tempDir(),
      PORT: 'eighty',
      // On the common-passwords list (the length alone is checked in config.test.ts).
      ADMIN_PASSWORD: 'password123',
    }).then(
      () => undefined,
      (error: Error & { exitCode: number }) => error,
    );
    expect(failure?.exitCode).toBe(1);
    expect(failure?.message.trim()).toBe(
      'PORT must be an integer from 0 to 65535, got "eighty"\n' +
        'ADMIN_PASSWORD is one of the most common passwords and easily guessed: choose another',
    );
  });

  it('prints a generated password once when no admin credentials are given', async () => {
    // A migrated database without accounts: the first admin is made all the same.
    const dir = migratedDir();
    const server = await startServer({ DATA_DIR: dir, ADMIN_EMAIL: '', ADMIN_PASSWORD: '' });
    const match = /First admin created: admin@example\.com with password (\S+)/.exec(
      server.output(),
    );
    expect(match).not.toBeNull();
    const signedIn = await login(server.url, 'admin@example.com', match![1]!);
    expect(signedIn.status).toBe(200);
    // The server made the first admin and its organisation: both are in the audit log, by the
    // system, the password redacted.
    const { token } = (await signedIn.json()) as { token: string };
    const page = await fetch(`${server.url}/v1/audit-events?limit=10`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { audit_events: events } = (await page.json()) as {
      audit_events: { action: string; actor: { type: string }; changes: object; target: object }[];
    };
    const first = (action: string) => events.find((event) => event.action === action);
    expect(first('organization.created')).toMatchObject({
      actor: { type: 'system' },
      target: { type: 'organization', label: 'Platform' },
    });
    expect(first('account.created')).toMatchObject({
      actor: { type: 'system' },
      target: { type: 'account', label: 'admin@example.com' },
      changes: { role: [null, 'admin'], password: [null, AUDIT_REDACTED] },
    });
    expect(JSON.stringify(events)).not.toContain(match![1]!);
    server.child.kill('SIGTERM');
    await exited(server.child);
  });
});

describe.runIf(inject('dbTemplate').kind === 'postgres')('migrations on PostgreSQL', () => {
  it('two processes migrating an empty database at once apply each file exactly once', async () => {
    const template = inject('dbTemplate');
    if (template.kind !== 'postgres') return;
    const name = `${template.runId}_empty_${crypto.randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: template.serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = databaseUrlFor(template.serverUrl, name);
    const a = await openDatabase({ databaseUrl: url });
    const b = await openDatabase({ databaseUrl: url });
    try {
      const [appliedByA, appliedByB] = await Promise.all([migrate(a.db), migrate(b.db)]);
      expect([...appliedByA, ...appliedByB].sort()).toEqual(
        fs
          .readdirSync(path.resolve(import.meta.dirname, '../src/platform/database/migrations'))
          .filter((file) => file.endsWith('.sql'))
          .map((file) => file.replace(/\.sql$/, ''))
          .sort(),
      );
      const { rows } = await sql<{
        count: number;
      }>`SELECT count(*)::int AS count FROM schema_migrations`.execute(a.db);
      expect(rows[0]!.count).toBe(appliedByA.length + appliedByB.length);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
