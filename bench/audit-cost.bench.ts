import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Tenant } from './mutation-server.ts';
import { createScratchDatabase, percentile } from './targets.ts';
import { loadAverage as load, say } from './cli.ts';

/**
 * `npm run bench:audit`: what the audit log adds to a mutating call. The console's rename of a VR
 * user (PUT /v1/vr-users/:id: one statement that locks the row, updates it and writes its audit
 * event in the organisation's chain) on this checkout ("after"), against the same call on the
 * commit before the audit log ("before", BENCH_BEFORE_COMMIT, default 200ca1f), both running at
 * once, each in a server process of its own on a fresh database of its own, loaded in turns:
 * rounds of BENCH_ROUND_S seconds, before and after alternating which goes first, so both see the
 * same machine. The figure is the median of the rounds' p99 latencies of each, and their ratio.
 * Target: the audit log adds less than 20% to the p99 (LOADS: one person at a time, ten people of
 * one organisation, ten of ten). On PGlite, and on PostgreSQL when DATABASE_URL is set.
 *
 * The "before" checkout: BENCH_BEFORE_DIR, or a git worktree of the commit made in the system's
 * temporary directory with `npm ci` the first time (a few minutes; reused after). Latencies are
 * taken by this process with a high-resolution clock around each request (autocannon's are whole
 * milliseconds, too coarse for 20% of a few). It reports and exits 0 whatever the verdict.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const BEFORE_COMMIT = process.env.BENCH_BEFORE_COMMIT || '200ca1f';
const ROUNDS = Number(process.env.BENCH_ROUNDS || 6);
const ROUND_S = Number(process.env.BENCH_ROUND_S || 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S || 5);
/**
 * The loads: one person at a time; ten people of one organisation at once (their events share its
 * one chain: a writer that finds its head held leaves its event to the linker, decision 027); ten
 * people of ten organisations at once (a busy platform: ten chains).
 */
const LOADS = [
  { connections: 1, organizations: 1 },
  { connections: 10, organizations: 1 },
  { connections: 10, organizations: 10 },
];
const MAX_ADDED = 0.2;

const median = (values: number[]) => percentile(values, 50);

/** A checkout of the commit before the audit log, with its dependencies installed. */
function beforeCheckout(): string {
  if (process.env.BENCH_BEFORE_DIR) return path.resolve(process.env.BENCH_BEFORE_DIR);
  const commit = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', BEFORE_COMMIT], {
    encoding: 'utf8',
  }).trim();
  const dir = path.join(os.tmpdir(), `vrtc-bench-before-${commit}`);
  if (!fs.existsSync(path.join(dir, 'package.json'))) {
    say(`Making a worktree of ${commit} at ${dir}…`);
    execFileSync('git', ['-C', ROOT, 'worktree', 'add', '-f', '--detach', dir, commit], {
      stdio: 'inherit',
    });
  }
  if (!fs.existsSync(path.join(dir, 'node_modules'))) {
    say(`Installing its dependencies (npm ci)…`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  }
  return dir;
}

interface Server {
  name: string;
  url: URL;
  tenants: Tenant[];
  child: ChildProcess;
}

function startServer(name: string, root: string, database: string): Promise<Server> {
  const child = fork(
    path.join(import.meta.dirname, 'mutation-server.ts'),
    ['--root', root, '--database', database],
    {
      cwd: root,
      execArgv: ['--import', 'tsx', '--conditions=vrtc-source'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} server exited (${code})`)));
    child.once('message', (message) => {
      const ready = message as { url: string; tenants: Tenant[] };
      resolve({ name, url: new URL(ready.url), tenants: ready.tenants, child });
    });
  });
}

function cpuOf(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (usage) => {
      const { user, system } = usage as NodeJS.CpuUsage;
      resolve(user + system);
    });
    server.child.send('cpu');
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.child.removeAllListeners('exit');
    server.child.once('exit', () => resolve());
    server.child.send('close');
  });
}

let renames = 0;

/**
 * PUT renames at `connections` at once for `seconds`, connection i as organisation
 * i % `organizations`; the latency of each in milliseconds.
 */
type Measured = Awaited<ReturnType<typeof putLoad>>;

async function putLoad(
  server: Server,
  connections: number,
  organizations: number,
  seconds: number,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let failures = 0;
  const until = performance.now() + seconds * 1000;
  const cpuBefore = await cpuOf(server);
  const worker = async (_: unknown, index: number) => {
    const tenant = server.tenants[index % organizations]!;
    while (performance.now() < until) {
      renames += 1;
      const body = JSON.stringify({ name: `Renamed trainee ${renames}` });
      const at = process.hrtime.bigint();
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          {
            agent,
            host: server.url.hostname,
            port: server.url.port,
            method: 'PUT',
            path: tenant.paths[renames % tenant.paths.length],
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              authorization: `Bearer ${tenant.token}`,
            },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.statusCode ?? 0));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
      latencies.push(Number(process.hrtime.bigint() - at) / 1e6);
      if (status !== 200) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const cpu = (await cpuOf(server)) - cpuBefore;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    failures,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuPerRequestUs: cpu / Math.max(1, latencies.length),
  };
}

interface Row {
  database: string;
  connections: number;
  organizations: number;
  before: { p50: number; p99: number; cpu: number; requests: number };
  after: { p50: number; p99: number; cpu: number; requests: number };
}

async function runDatabase(label: string, beforeRoot: string, database: () => Promise<string>) {
  const servers = await Promise.all([
    startServer('before', beforeRoot, await database()),
    startServer('after', ROOT, await database()),
  ]);
  const [before, after] = servers as [Server, Server];
  const rows: Row[] = [];
  try {
    for (const server of servers) await putLoad(server, 10, 10, WARMUP_S);
    for (const { connections, organizations } of LOADS) {
      const rounds: { before: Measured[]; after: Measured[] } = { before: [], after: [] };
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = round % 2 === 0 ? [before, after] : [after, before];
        for (const server of order) {
          const measured = await putLoad(server, connections, organizations, ROUND_S);
          if (measured.failures > 0) throw new Error(`${server.name}: ${measured.failures} failed`);
          rounds[server.name as 'before' | 'after'].push(measured);
        }
      }
      const sum = (of: Measured[]) => ({
        p50: median(of.map((r) => r.p50)),
        p99: median(of.map((r) => r.p99)),
        cpu: median(of.map((r) => r.cpuPerRequestUs)),
        requests: of.reduce((total, r) => total + r.requests, 0),
      });
      const row = {
        database: label,
        connections,
        organizations,
        before: sum(rounds.before),
        after: sum(rounds.after),
      };
      rows.push(row);
      say(
        `  ${label}, ${connections} connection(s), ${organizations} organisation(s): p99 per round before ` +
          `${rounds.before.map((r) => r.p99.toFixed(2)).join(' ')} ms, after ` +
          `${rounds.after.map((r) => r.p99.toFixed(2)).join(' ')} ms (load ${load()})`,
      );
    }
  } finally {
    await Promise.all(servers.map(stop));
  }
  return rows;
}

async function run() {
  say(`Audit log cost on a mutating call (PUT /v1/vr-users/:id)`);
  say(`Node ${process.version}, ${os.cpus().length} cores, load average at start: ${load()}`);
  say(
    `${ROUNDS} rounds of ${ROUND_S} s per variant and concurrency, alternating; before = ${BEFORE_COMMIT}`,
  );
  const beforeRoot = beforeCheckout();
  const rows = await runDatabase('PGlite', beforeRoot, async () => 'pglite');
  if (process.env.DATABASE_URL) {
    const scratch: Awaited<ReturnType<typeof createScratchDatabase>>[] = [];
    try {
      rows.push(
        ...(await runDatabase('PostgreSQL', beforeRoot, async () => {
          const created = await createScratchDatabase(process.env.DATABASE_URL!);
          scratch.push(created);
          return created.url;
        })),
      );
    } finally {
      for (const created of scratch) await created.drop();
    }
  }
  say();
  say(
    '| database | connections | organisations | before p50 / p99 ms | after p50 / p99 ms | p99 added | CPU µs/req before → after | verdict |',
  );
  say('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    const added = row.after.p99 / row.before.p99 - 1;
    say(
      `| ${row.database} | ${row.connections} | ${row.organizations} | ${row.before.p50.toFixed(2)} / ${row.before.p99.toFixed(2)} | ` +
        `${row.after.p50.toFixed(2)} / ${row.after.p99.toFixed(2)} | ${(added * 100).toFixed(0)}% | ` +
        `${row.before.cpu.toFixed(0)} → ${row.after.cpu.toFixed(0)} | ${added < MAX_ADDED ? 'PASS' : 'FAIL'} (< ${MAX_ADDED * 100}%) |`,
    );
  }
  say(`\nLoad average at the end: ${load()}`);
}

run().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
