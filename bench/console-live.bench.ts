import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { routes } from '@vrtc/contract';
import { SimulatedHeadset } from '@vrtc/headset-sim';
import { hashPassword } from '../apps/server/src/auth/passwords.ts';
import { openDatabase, type Db } from '../apps/server/src/platform/database/db.ts';
import { migrate } from '../apps/server/src/platform/database/migrate.ts';
import { startServerProcess, stopServerProcess } from '../apps/server/test/server-process.ts';
import { waitFor } from '../apps/server/test/wait-for.ts';
import {
  latencies,
  recordProgressPosts,
  watchCompletedTasks,
} from '../apps/web/e2e/active-card.ts';
import { createScratchDatabase, percentile, seedProbe, type Probe } from './targets.ts';
import { loadAverage, say } from './cli.ts';

/**
 * `npm run bench:console-live`: how soon a task a headset reports shows on the console's Active
 * card, in a real browser. A benchmark, not a test: it prints PASS/FAIL against its target and
 * exits 0 whatever the verdict (non-zero only when it cannot run).
 *
 * Per database (PGlite; then PostgreSQL when DATABASE_URL is set, in a database created for the
 * run and dropped after): the console built for production (vite build), served by the server
 * started as production starts it (test/server-process.ts: `node apps/server/dist/main.js`),
 * seeded through the data layer with one organisation, its account, a headset and a level of
 * BENCH_TASKS + 1 tasks. Chromium (/usr/bin/chromium, or CHROMIUM) signs in, opens the Active
 * sessions tab and waits for the live stream; the simulated headset (in this process) plays a
 * session started through the API, one task every BENCH_PACE_MS. For each task: from just before
 * its progress POST to its answer (the server's part), and to the moment the card's task count
 * shows it (a MutationObserver in the page: stream, React and the DOM included).
 *
 * Target: progress → shown on the card, p95 < 1 s.
 *
 * Environment: DATABASE_URL, BENCH_TASKS (40), BENCH_PACE_MS (600), LOG_LEVEL (info), CHROMIUM.
 */

const TASKS = Number(process.env.BENCH_TASKS || 40);
const PACE_MS = Number(process.env.BENCH_PACE_MS || 600);
const LOG_LEVEL = process.env.LOG_LEVEL || 'info';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const MAX_P95_MS = 1000;
const EMAIL = 'console-live@bench.local';
const PASSWORD = 'console-live-bench';
const VR_USER = 'Latency Probe';

const root = path.resolve(import.meta.dirname, '..');

interface Run {
  label: string;
  load: string;
  shown: number[];
  answered: number[];
}

/** The console as `npm run build` makes it, in a folder of this run's own. */
function buildConsole(outDir: string) {
  say('Building the console (vite build)…');
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  const build = spawnSync(
    process.execPath,
    [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
    { cwd: path.join(root, 'apps/web'), stdio: 'inherit', env: { ...process.env } },
  );
  if (build.status !== 0) throw new Error('the console build failed');
}

async function seedInto(db: Db): Promise<Probe> {
  await migrate(db);
  return seedProbe(db, {
    name: 'Console live bench',
    email: EMAIL,
    passwordHash: await hashPassword(PASSWORD),
    maxTasks: TASKS + 1,
  });
}

async function post(url: string, token: string, body: object) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
}

async function measure(label: string, env: Record<string, string>, probe: Probe): Promise<Run> {
  say();
  say(`## ${label}`);
  const run: Run = { label, load: loadAverage(), shown: [], answered: [] };
  const server = await startServerProcess({ LOG_LEVEL, SIGNING_SECRET: 'bench', ...env });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const progress = recordProgressPosts();
  const headset = new SimulatedHeadset({
    server: server.url,
    name: 'bench-headset',
    credentials: { device_id: probe.deviceId, device_token: probe.deviceToken },
    paceMs: PACE_MS,
    successRate: 1,
  });
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 1366, height: 900 } })
    ).newPage();
    await page.addInitScript(() => localStorage.setItem('language', 'en'));
    await page.goto(`${server.url}/login`);
    await page.locator('input[name="email"]').fill(EMAIL);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/vr-users');
    await page.goto(`${server.url}/sessions?tab=active`);
    await page.locator('[data-testid="live-indicator"][data-mode="live"]').waitFor();
    await watchCompletedTasks(page, VR_USER);

    await headset.start();
    // The headset counts as waiting once its first heartbeat is flushed: start when it does.
    const started = await waitFor(
      async () => {
        const answer = await post(`${server.url}${routes.startSession.path}`, probe.accountToken, {
          device_id: probe.deviceId,
          level_id: probe.levelId,
          vr_user_name: VR_USER,
        });
        return answer.status === 201 ? ((await answer.json()) as { id: string }) : undefined;
      },
      { timeout: 15_000, interval: 250, what: 'the session to start' },
    );
    say(`  session ${started.id}: ${TASKS + 1} tasks, one every ${PACE_MS} ms`);
    const last = `${started.id}:${TASKS}`;
    await waitFor(() => progress.answeredAt.has(last), {
      timeout: (TASKS + 10) * PACE_MS + 30_000,
      what: `task ${TASKS} to be reported`,
    });
    // The card shows the last measured task (the one after it ends the session).
    await page.waitForFunction(
      (task) =>
        (window as unknown as { __tasksSeenAt: Record<number, number> }).__tasksSeenAt[task],
      TASKS,
      { timeout: 30_000 },
    );
    run.shown = await latencies(page, progress.postedAt, started.id, TASKS);
    run.answered = Array.from({ length: TASKS }, (_, index) => {
      const key = `${started.id}:${index + 1}`;
      return progress.answeredAt.get(key)! - progress.postedAt.get(key)!;
    });
  } finally {
    progress.restore();
    await headset.stop();
    await browser.close();
    await stopServerProcess(server, 'SIGINT');
  }
  return run;
}

function report(runs: Run[]) {
  const row = (values: number[]) =>
    `${percentile(values, 50).toFixed(0)} | ${percentile(values, 95).toFixed(0)} | ${Math.max(...values).toFixed(0)}`;
  say();
  say(
    '| database | load at start | from the progress POST to | tasks | p50 ms | p95 ms | max ms |',
  );
  say('| --- | --- | --- | ---: | ---: | ---: | ---: |');
  for (const run of runs) {
    say(
      `| ${run.label} | ${run.load} | its answer | ${run.answered.length} | ${row(run.answered)} |`,
    );
    say(
      `| ${run.label} | ${run.load} | shown on the Active card | ${run.shown.length} | ${row(run.shown)} |`,
    );
  }
  say();
  say('| database | target | measured | verdict |');
  say('| --- | --- | --- | --- |');
  for (const run of runs) {
    const p95 = percentile(run.shown, 95);
    say(
      `| ${run.label} | progress → shown on the Active card, p95 < ${MAX_P95_MS} ms | ${p95.toFixed(0)} ms | ` +
        `${p95 < MAX_P95_MS ? '**PASS**' : '**FAIL**'} |`,
    );
  }
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  say(`Console live benchmark: ${TASKS} tasks, one every ${PACE_MS} ms, in Chromium`);
  say(`${new Date().toISOString()}; Node ${process.version}, ${os.cpus().length} cores`);
  say(`Load average at start: ${loadAverage()}`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-console-live-'));
  const runs: Run[] = [];
  try {
    const webDir = path.join(scratch, 'web');
    buildConsole(webDir);

    const dataDir = path.join(scratch, 'data');
    fs.mkdirSync(dataDir);
    const handle = await openDatabase({ pgliteDir: dataDir });
    const probe = await seedInto(handle.db).finally(() => handle.close());
    const env = { DATA_DIR: dataDir, WEB_DIST_DIR: webDir };
    runs.push(await measure('PGlite', { ...env, DATABASE_URL: '' }, probe));

    const serverUrl = process.env.DATABASE_URL;
    if (serverUrl) {
      const database = await createScratchDatabase(serverUrl);
      say(`  (database ${database.name} created for this run)`);
      try {
        const pgHandle = await openDatabase({ databaseUrl: database.url });
        const pgProbe = await seedInto(pgHandle.db).finally(() => pgHandle.close());
        runs.push(await measure('PostgreSQL', { ...env, DATABASE_URL: database.url }, pgProbe));
      } finally {
        await database.drop();
        say(`  (database ${database.name} dropped)`);
      }
    } else {
      say('  (DATABASE_URL not set: PostgreSQL skipped)');
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  report(runs);
  say();
  say(
    `Load average at the end: ${loadAverage()}; whole run ${((Date.now() - startedAt) / 1000).toFixed(0)} s`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('benchmark failed to run:', error);
    process.exit(1);
  },
);
