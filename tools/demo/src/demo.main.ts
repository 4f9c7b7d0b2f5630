import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { EnrollmentCode, LoginResponse } from '@vrtc/contract';
import { SimulatedHeadset, seededRandom, type HeadsetEvent } from '@vrtc/headset-sim';
import { startServer } from '@vrtc/server';
import type { AppInstance } from '@vrtc/server/platform/http/app-types.ts';
import { systemClock } from '@vrtc/server/platform/service/clock.ts';
import { loadConfig } from '@vrtc/server/platform/config/config.ts';
import type { Db } from '@vrtc/server/platform/database/db.ts';
import pg from 'pg';
import { ensureBuilt } from '../../../scripts/build.mjs';
import { DEMO_ADMIN, DEMO_HEADSETS, DEMO_STAFF, SCENARIOS } from './demo-content.ts';
import { seedDemo, seedHistory, type DemoSeed, type HistoryDevice } from './demo.seed.ts';
import { DEMO_QUALIFIED_TRAINEES, seedQualifications } from './demo.qualifications.ts';

/**
 * `npm run demo`: the real server (@vrtc/server's startServer, run from its sources, background
 * jobs on) on a throw-away database filled by demo.seed.ts, with five simulated headsets enrolled
 * through the API and running in this process. It prints the URL, the logins, the enrolment code and one line per
 * headset event (heartbeats only with --verbose). Ctrl+C stops the headsets and the server and
 * removes the temporary data.
 *
 * Without DATABASE_URL the database is PGlite in a new temporary directory. With DATABASE_URL the
 * demo refuses unless that database is empty, and the demo data stays there afterwards.
 */

const verbose = process.argv.includes('--verbose');
const time = () => new Date().toTimeString().slice(0, 8);
const say = (line = '') => process.stdout.write(`${line}\n`);

class DemoError extends Error {}

/**
 * Empty: no tables at all, or only this product's tables (migrated, schema_migrations present)
 * with no organisation yet. Anything else is somebody's data, which the demo never touches.
 */
async function assertEmptyDatabase(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new DemoError(
      `Cannot connect to DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
         AND table_schema NOT LIKE 'pg_toast%' AND table_type = 'BASE TABLE'
       ORDER BY 1`,
    );
    if (rows.length === 0) return;
    const names = rows.map((row) => row.name);
    const refuse = (why: string) =>
      new DemoError(
        `Refusing to run the demo: the database at DATABASE_URL is not empty (${why}).\n` +
          'The demo fills a fresh database with sample data. Point DATABASE_URL at a new, empty ' +
          'database (e.g. `createdb vrtc_demo`), or unset DATABASE_URL to use a throw-away ' +
          'embedded database.',
      );
    if (!names.includes('public.schema_migrations') || !names.includes('public.organizations')) {
      const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : '');
      throw refuse(`${names.length} table(s): ${shown}`);
    }
    const { rows: counted } = await client.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM organizations',
    );
    const organizations = counted[0]?.count ?? 0;
    if (organizations > 0) throw refuse(`it already holds ${organizations} organisation(s)`);
  } finally {
    await client.end();
  }
}

/**
 * Builds the console when its build is missing or stale (as `npm start` does), unless WEB_DIST_DIR
 * names one made elsewhere; without it, the API still runs.
 */
async function ensureConsoleBuilt(): Promise<void> {
  if (process.env.WEB_DIST_DIR) return;
  try {
    await ensureBuilt(['web'], { log: say });
  } catch {
    say('The console build failed: the API runs, the console page will not. See the output above.');
  }
}

async function api<T>(base: string, method: string, url: string, body?: object, token?: string) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok)
    throw new DemoError(`${method} ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

function printEvent(event: HeadsetEvent) {
  if (event.type === 'heartbeat' && !verbose) return;
  say(`${time()} ${event.line}`);
}

interface Running {
  app?: AppInstance;
  headsets: SimulatedHeadset[];
  tempDir: string;
}

async function shutdown(running: Running): Promise<void> {
  await Promise.allSettled(running.headsets.map((headset) => headset.stop()));
  try {
    await running.app?.close();
  } finally {
    fs.rmSync(running.tempDir, { recursive: true, force: true });
  }
}

async function main(running: Running) {
  const config = {
    // Request logs would drown the headset lines; LOG_LEVEL still wins when set.
    // Loopback receivers are allowed so a newcomer can try a webhook on their own machine.
    ...loadConfig({
      ...process.env,
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      OUTBOUND_ALLOW_PRIVATE: process.env.OUTBOUND_ALLOW_PRIVATE ?? '127.0.0.1',
    }),
    dataDir: running.tempDir,
  };
  if (config.databaseUrl) await assertEmptyDatabase(config.databaseUrl);
  await ensureConsoleBuilt();

  let db: Db | undefined;
  let seed: DemoSeed | undefined;
  say('Starting the server and filling the demo database…');
  ({ app: running.app } = await startServer(config, {
    beforeStart: async (migrated) => {
      db = migrated;
      seed = await seedDemo(migrated, systemClock);
    },
  }));
  const address = running.app.server.address() as AddressInfo;
  const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;

  // Enrol the headsets as a person would: a code from the console, typed on each headset.
  const staff = await api<LoginResponse>(base, 'POST', '/v1/auth/login', DEMO_STAFF);
  const { code } = await api<EnrollmentCode>(
    base,
    'POST',
    '/v1/devices/enrollment-code',
    {},
    staff.token,
  );
  const random = seededRandom(Date.now());
  running.headsets = DEMO_HEADSETS.map(
    (spec, index) =>
      new SimulatedHeadset({
        server: base,
        name: spec.name,
        type: spec.type,
        code,
        paceMs: Math.round(4000 + random() * 4000),
        successRate: 0.8,
        batteryPercent: 100 - index * 9,
        appVersion: '1.5.0',
        random: seededRandom(Math.floor(random() * 2 ** 32)),
      }),
  );
  for (const headset of running.headsets) headset.on('event', printEvent);
  for (const headset of running.headsets) await headset.start();

  const headsetDevices: HistoryDevice[] = running.headsets.map((headset, index) => ({
    ...DEMO_HEADSETS[index]!,
    id: headset.deviceId!,
  }));
  const history = await seedHistory(db!, systemClock, seed!, headsetDevices);
  await seedQualifications(db!, systemClock, seed!);

  const rule = '─'.repeat(78);
  say();
  say(rule);
  say('  VR Training Console — demo is running');
  say(rule);
  say(`  Console + API   ${base}/        (API reference: ${base}/docs)`);
  say(`  Admin login     ${DEMO_ADMIN.email}  /  ${DEMO_ADMIN.password}`);
  say(`  Staff login     ${DEMO_STAFF.email}  /  ${DEMO_STAFF.password}   (${seed!.demo.name})`);
  say(`  Enrolment code  ${code}   (valid 24 h; add another headset:`);
  say(`                  npm run headset -- --server ${base} --code ${code})`);
  say(
    `  Demo data       2 organisations, ${SCENARIOS.length} scenarios, ` +
      `${seed!.demo.vrUsers.length + seed!.partner.vrUsers.length} VR users, ` +
      `${history.total} past sessions over six weeks`,
  );
  say(
    `                  2 qualifications, ${DEMO_QUALIFIED_TRAINEES.length} trainees in every ` +
      'status (Compliance)',
  );
  say(
    config.databaseUrl
      ? '  Database        DATABASE_URL (the demo data stays there after exit)'
      : `  Database        throw-away PGlite in ${running.tempDir} (removed on exit)`,
  );
  say(rule);
  say(
    `  ${running.headsets.length} simulated headsets are online. Sign in, open Sessions → Start,`,
  );
  say('  pick a VR user, a waiting headset and a level: the headset plays it task by task below.');
  say(
    `  Ctrl+C stops the headsets and the server${config.databaseUrl ? '' : ' and deletes the data'}.`,
  );
  say(rule);
}

const running: Running = {
  headsets: [],
  tempDir: fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-demo-')),
};
let stopping = false;
const stop = (signal: string) => {
  if (stopping) {
    say('Stopping already; once more forces exit.');
    fs.rmSync(running.tempDir, { recursive: true, force: true });
    process.exit(1);
  }
  stopping = true;
  say(`\n${signal}: stopping the headsets and the server…`);
  shutdown(running).then(
    () => {
      say('Stopped; temporary data removed.');
      process.exit(0);
    },
    (error: unknown) => {
      console.error('Shutdown failed:', error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

main(running).catch(async (error: unknown) => {
  console.error(error instanceof DemoError ? error.message : error);
  stopping = true;
  await shutdown(running).catch(() => {});
  process.exit(1);
});
