import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { hashPassword } from '../apps/server/src/auth/passwords.ts';
import { openDatabase } from '../apps/server/src/platform/database/db.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import { startServerProcess, stopServerProcess } from '../apps/server/test/server-process.ts';
import { waitFor } from '../apps/server/test/wait-for.ts';
import { BENCH_PASSWORD, fillDatabase, sizesFor } from './console-fill.ts';
import { percentile } from './targets.ts';
import { cliArgs, loadAverage as load, say } from './cli.ts';

/**
 * `npm run bench:cold-start`: how soon the server is ready after it starts on an embedded database
 * (PGlite) that already holds a million sessions, as after a restart or an upgrade of a busy
 * installation. Target: ready in under 3 s (issue #27).
 *
 *  1. a PGlite data directory filled as `npm run bench:console` fills it (console-fill.ts: at
 *     --scale=1, 100 organisations, 20,000 headsets, 50,000 VR users, 1,000,000 sessions), or the
 *     DATA_DIR given by --data-dir (filled before, e.g. by an earlier run with --keep);
 *  2. the compiled server (`apps/server/dist/main.js`, built when stale; test/server-process.ts)
 *     started --runs times on it in a process of its own, in production mode, each timed from the spawn to its first 200 on GET /readyz (the
 *     database answers, migrations checked); the page cache is dropped before each start when the
 *     machine lets it (root), so each start reads the database from disk;
 *  3. the median against the target; exit code 1 when it fails.
 */

const args = cliArgs();
const SCALE = Number(args.get('scale') ?? 1);
const RUNS = Number(args.get('runs') ?? 3);
const KEEP = args.has('keep');
const TARGET_MS = 3000;

async function fill(dataDir: string): Promise<number> {
  const handle = await openDatabase({ pgliteDir: dataDir });
  try {
    await migrate(handle.db);
    const result = await fillDatabase(handle.db, sizesFor(SCALE), {
      now: new Date(),
      passwordHash: await hashPassword(BENCH_PASSWORD),
      log: say,
    });
    say(`  fill took ${(result.totalMs / 1000).toFixed(1)} s`);
    return await countSessions(handle.db);
  } finally {
    await handle.close();
  }
}

async function countSessions(db: Awaited<ReturnType<typeof openDatabase>>['db']) {
  const { rows } = await sql<{
    count: number;
  }>`SELECT count(*)::int AS count FROM sessions`.execute(db);
  return rows[0]!.count;
}

async function sessionsIn(dataDir: string): Promise<number> {
  const handle = await openDatabase({ pgliteDir: dataDir });
  try {
    return await countSessions(handle.db);
  } finally {
    await handle.close();
  }
}

const readyz = (port: number) =>
  new Promise<number>((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/readyz' }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', () => resolve(0));
  });

/** Drops the page cache, so the start reads the database from disk; false when not allowed. */
function dropPageCache(): boolean {
  try {
    execFileSync('sync');
    fs.writeFileSync('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

async function timeStart(dataDir: string): Promise<number> {
  const started = performance.now();
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    PASSWORD_HASH_COST: 'standard',
  });
  try {
    const port = Number(new URL(server.url).port);
    await waitFor(async () => (await readyz(port)) === 200, {
      timeout: 60_000,
      interval: 5,
      what: 'the server to be ready',
    });
    return performance.now() - started;
  } finally {
    await stopServerProcess(server);
  }
}

async function run() {
  say('Cold start of the server on an embedded database (PGlite) holding a million sessions');
  say(`Node ${process.version}, ${os.cpus().length} cores, load average at start: ${load()}`);
  const given = args.get('data-dir');
  const dataDir = given
    ? path.resolve(given)
    : fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-cold-start-'));
  try {
    const sessions = given ? await sessionsIn(dataDir) : await fill(dataDir);
    say(`  DATA_DIR ${dataDir}: ${sessions.toLocaleString('en')} sessions`);
    const times: number[] = [];
    for (let index = 0; index < RUNS; index += 1) {
      const dropped = dropPageCache();
      const ms = await timeStart(dataDir);
      times.push(ms);
      say(
        `  start ${index + 1}: ready in ${(ms / 1000).toFixed(2)} s` +
          ` (page cache ${dropped ? 'dropped' : 'kept: not allowed to drop it'}; load ${load()})`,
      );
    }
    const median = percentile(
      [...times].sort((a, b) => a - b),
      50,
    );
    const pass = median < TARGET_MS;
    say();
    say('| target | measured | verdict |');
    say('| --- | --- | --- |');
    say(
      `| ready in < ${TARGET_MS / 1000} s on ${sessions.toLocaleString('en')} sessions (PGlite) | median ` +
        `${(median / 1000).toFixed(2)} s of ${RUNS} (${times.map((ms) => (ms / 1000).toFixed(2)).join(', ')}) | ` +
        `${pass ? 'PASS' : 'FAIL'} |`,
    );
    say(`\nLoad average at the end: ${load()}`);
    process.exitCode = pass ? 0 : 1;
  } finally {
    if (!given && !KEEP) fs.rmSync(dataDir, { recursive: true, force: true });
    else say(`(DATA_DIR ${dataDir} kept)`);
  }
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
