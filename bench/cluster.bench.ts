import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { hashToken } from '../apps/server/src/auth/tokens.ts';
import { openDatabase } from '../apps/server/src/platform/database/db.ts';
import { Cluster, findNginx } from '../apps/server/test/cluster/cluster.ts';
import { LoadGenerator } from './load-generator.ts';
import type { LoadResult } from './load-runner.ts';
import { loadAverage, say } from './cli.ts';

/**
 * `npm run bench:cluster`: heartbeat throughput through nginx (deploy/nginx.conf) with one node,
 * then with three, on one PostgreSQL database (DATABASE_URL names the server; a database is
 * created per run and dropped). Each run: 1,000 enrolled devices, 50 connections, 5 s warm-up,
 * 10 s measured, as `npm run bench`. Besides req/s and latency it reads the CPU time the node
 * processes and nginx spent (from /proc), per heartbeat, to show where the work went.
 * Environment: DATABASE_URL (required), BENCH_DURATION_S (10), BENCH_WARMUP_S (5),
 * BENCH_CONNECTIONS (50), BENCH_DEVICES (1000), NGINX (default /usr/sbin/nginx or PATH).
 */

const DURATION_S = Number(process.env.BENCH_DURATION_S || 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S || 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const DEVICES = Number(process.env.BENCH_DEVICES || 1000);

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU seconds (user + system) a process and its children threads used so far. */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** nginx's master and its workers. */
function nginxPids(master: number): number[] {
  try {
    const children = fs.readFileSync(`/proc/${master}/task/${master}/children`, 'utf8');
    return [master, ...children.trim().split(/\s+/).filter(Boolean).map(Number)];
  } catch {
    return [master];
  }
}

interface Row {
  target: string;
  result: LoadResult;
  nodeCpuUs: number;
  nginxCpuUs: number;
}

async function measure(
  generator: LoadGenerator,
  target: string,
  url: string,
  nodes: number[],
  nginx: number[],
): Promise<Row> {
  say(`  ${target}: warming up ${WARMUP_S} s, measuring ${DURATION_S} s…`);
  await generator.run(url, WARMUP_S);
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuSeconds(pid), 0);
  const nodesBefore = sum(nodes);
  const nginxBefore = sum(nginx);
  const result = await generator.run(url, DURATION_S);
  const perRequest = (seconds: number) => (seconds * 1e6) / Math.max(1, result.total);
  return {
    target,
    result,
    nodeCpuUs: perRequest(sum(nodes) - nodesBefore),
    nginxCpuUs: perRequest(sum(nginx) - nginxBefore),
  };
}

async function enrol(databaseUrl: string, tokens: string[]) {
  const database = await openDatabase({ databaseUrl });
  try {
    const organization = await database.db
      .insertInto('organizations')
      .values({ name: 'Benchmark' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = tokens.map((token, index) => ({
      organization_id: organization.id,
      name: `bench-${index + 1}`,
      type: 'quest' as const,
      token_hash: hashToken(token),
    }));
    for (let at = 0; at < rows.length; at += 500) {
      await database.db
        .insertInto('devices')
        .values(rows.slice(at, at + 500))
        .execute();
    }
  } finally {
    await database.close();
  }
}

async function run() {
  const serverUrl = process.env.DATABASE_URL;
  const nginx = findNginx();
  if (!serverUrl || !nginx) {
    console.error('bench:cluster needs DATABASE_URL (a PostgreSQL server) and nginx');
    process.exit(1);
  }
  say(
    `Cluster heartbeat benchmark: ${DEVICES} devices, ${CONNECTIONS} connections, ${DURATION_S} s per target`,
  );
  say(
    `Node ${process.version}, ${os.cpus().length} cores, load average at start: ${loadAverage()}`,
  );
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-bench-cluster-'));
  const tokens = Array.from({ length: DEVICES }, () =>
    crypto.randomBytes(32).toString('base64url'),
  );
  const tokensFile = path.join(scratch, 'tokens.json');
  fs.writeFileSync(tokensFile, JSON.stringify(tokens));
  const generator = new LoadGenerator(tokensFile, CONNECTIONS);
  const rows: Row[] = [];
  try {
    for (const nodes of [1, 3]) {
      const cluster = await Cluster.start({
        nodes,
        serverUrl,
        nginx,
        env: { LOG_LEVEL: 'info' },
        workerProcesses: 'auto',
      });
      try {
        await enrol(cluster.databaseUrl, tokens);
        const nodePids = cluster.nodes.map((node) => node.process.child.pid!);
        const nginxPidList = nginxPids(cluster.nginx.process.pid!);
        if (nodes === 1) {
          rows.push(
            await measure(generator, '1 node, direct', cluster.nodes[0]!.url, nodePids, []),
          );
        }
        rows.push(
          await measure(
            generator,
            `${nodes} node${nodes > 1 ? 's' : ''} via nginx`,
            cluster.url,
            nodePids,
            nginxPidList,
          ),
        );
      } finally {
        await cluster.stop();
      }
    }
  } finally {
    generator.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  say();
  say('| target | req/s | p50 ms | p99 ms | node CPU µs/req | nginx CPU µs/req | failed |');
  say('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) {
    say(
      `| ${row.target} | ${row.result.requestsPerSecond.toFixed(0)} | ${row.result.p50.toFixed(1)} | ` +
        `${row.result.p99.toFixed(1)} | ${row.nodeCpuUs.toFixed(0)} | ` +
        `${row.nginxCpuUs ? row.nginxCpuUs.toFixed(0) : ''} | ${row.result.failures} |`,
    );
  }
  say();
  say(`Load average at end: ${loadAverage()}`);
}

run().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('benchmark failed to run:', error);
    process.exit(1);
  },
);
