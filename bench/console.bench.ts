import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashPassword } from '../apps/server/src/auth/passwords.ts';
import { BENCH_PASSWORD, sizesFor } from './console-fill.ts';
import { loadAverage, say } from './cli.ts';
import { ClientProcess, cleanups, runDatabase, startBareApp } from './console-loads.ts';
import {
  BATCH,
  LOG_LEVEL,
  PGLITE_SCALE,
  ROOT,
  RUN_PG,
  RUN_PGLITE,
  SCALE,
  mb,
} from './console-options.ts';
import {
  type DatabaseRun,
  type StaticResult,
  databaseReport,
  staticReport,
  table,
} from './console-report.ts';

/**
 * `npm run bench:console`: the console's read paths at scale. A benchmark, not a test: it prints
 * PASS/FAIL against the targets below and exits 0 whatever the verdict (non-zero only when it
 * cannot run at all).
 *
 * For each database (PostgreSQL at --scale, default 1: 100 organisations, 20,000 headsets,
 * 50,000 VR users, 1,000,000 sessions over 400 days; then PGlite at a tenth of that):
 *  1. a fresh database, migrated, filled with plain SQL as a bulk import would (console-fill.ts);
 *  2. the real app in this process (buildApp, background jobs on, 127.0.0.1, free port); sign-in
 *     as the admin and as a client of the biggest organisation; the headsets running the active
 *     sessions heartbeat every 5 s throughout, as headsets in session do;
 *  3. a bare Fastify route under the same load first, as the reference;
 *  4. each console read of READS: one probe (status, size), then autocannon at 10 connections;
 *  5. the history export (downloaded twice; RSS of this process sampled every 100 ms);
 *  6. heartbeats at a fixed 1,000 req/s, idle and while an admin loops the 365-day statistics and
 *     the history export;
 *  7. once: /login and what its HTML references, as a browser fetches them (br, gzip).
 * This process's RSS is sampled every 100 ms from the server's start to the end of 6: on PGlite its
 * peak is held under 650 MB (issue #27).
 * Clients (autocannon, downloads, background traffic) run in child processes (console-client.ts),
 * so this process's CPU time and RSS are the server's (PGlite included: it runs in a worker thread
 * of this process).
 *
 * Flags: --scale=1 (PostgreSQL; PGlite gets a tenth), --pglite-scale=…, --pg-only, --pglite-only,
 * --keep (keep the database / PGlite directory), --duration=3 and --warmup=1 (seconds per read),
 * --connections=10, --heartbeat-s=10, --reads=<regexp> (only the reads whose name matches),
 * --batch=100000 (sessions per INSERT). DATABASE_URL chooses the PostgreSQL server (default
 * postgres://postgres@127.0.0.1:5432/postgres); the database itself is created for the run.
 */

// Main
// ---------------------------------------------------------------------------------------------

/** Which server code ran: the commit, and whether apps/ or packages/ had uncommitted changes. */
function sourceDescription(): string {
  try {
    const git = (command: string) =>
      execSync(`git ${command}`, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    const commit = git('log -1 --format=%h%x20%s');
    const changed = git('status --porcelain -- apps packages').split('\n').filter(Boolean).length;
    return `commit ${commit}${changed ? ` plus ${changed} uncommitted file(s) in apps/ and packages/` : ''}`;
  } catch {
    return `${ROOT} (not a git checkout)`;
  }
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const stamp = startedAt.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15);
  const loadBefore = loadAverage();
  say(`# Console read paths at scale (npm run bench:console)`);
  say(`Node ${process.version}, ${os.cpus().length} cores, load average ${loadBefore}`);

  const distIndex = path.join(ROOT, 'apps/web/dist/index.html');
  if (!fs.existsSync(distIndex)) {
    say('apps/web/dist is missing: npm run build…');
    execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
  }

  const clients = {
    load: new ClientProcess('load client'),
    background: new ClientProcess('background client'),
  };
  const bare = await startBareApp();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const runs: DatabaseRun[] = [];
  if (RUN_PG) {
    runs.push({
      kind: 'postgres',
      label: 'PostgreSQL',
      scale: SCALE,
      sizes: sizesFor(SCALE, BATCH),
      where: '',
      loadBefore: '',
      reads: [],
      rss: [],
      exports: [],
    });
  }
  if (RUN_PGLITE) {
    runs.push({
      kind: 'pglite',
      label: 'PGlite',
      scale: PGLITE_SCALE,
      sizes: sizesFor(PGLITE_SCALE, BATCH),
      where: '',
      loadBefore: '',
      reads: [],
      rss: [],
      exports: [],
    });
  }
  const staticHolder: { result?: StaticResult } = {};
  try {
    for (const run of runs) {
      run.loadBefore = loadAverage();
      await runDatabase(run, clients, bare.url, passwordHash, stamp, staticHolder);
    }
  } finally {
    await bare.close();
    clients.load.close();
    clients.background.close();
  }
  const loadAfter = loadAverage();

  const lines: string[] = [
    `# Console read paths at scale — ${startedAt.toISOString()}`,
    '',
    `\`npm run bench:console -- ${process.argv.slice(2).join(' ')}\``.replace(' -- `', '`'),
    '',
    `- Machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${mb(os.totalmem())} memory, Node ${process.version}`,
    `- Load average (1 / 5 / 15 min): ${loadBefore} before, ${loadAfter} after (${os.cpus().length} cores)`,
    `- Server code: ${sourceDescription()}`,
    `- Server: the real app in the benchmark process (buildApp, background jobs on, LOG_LEVEL=${LOG_LEVEL} to /dev/null); clients in child processes`,
    `- Whole run: ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s`,
    '',
  ];
  const targetRows: string[][] = [];
  for (const run of runs) {
    const part = databaseReport(run);
    lines.push(...part.lines, '');
    for (const row of part.targets) targetRows.push([run.label, ...row]);
  }
  const statics = staticReport(staticHolder.result);
  lines.push(...statics.lines, '');
  for (const row of statics.targets) targetRows.push(['(either)', ...row]);
  lines.push(
    '## Targets',
    '',
    table(['database', 'target', 'measured', 'verdict'], targetRows, 'llll'),
    '',
  );

  const report = lines.join('\n');
  say();
  say(report);
  const resultsDir = path.join(import.meta.dirname, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `console-${stamp}.md`);
  fs.writeFileSync(file, report);
  say(`Report written to ${path.relative(ROOT, file)}`);
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  say('\nInterrupted: cleaning up (Ctrl-C again to leave at once)…');
  Promise.allSettled(cleanups.map((cleanup) => cleanup())).then(() => process.exit(130));
});

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    console.error('benchmark failed to run:', error);
    await Promise.allSettled(cleanups.map((cleanup) => cleanup()));
    process.exit(1);
  },
);
