import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { loadAverage, say } from './cli.ts';
import { LoadGenerator } from './load-generator.ts';
import { startPushHolders } from './push-holders.ts';
import { makeDeviceTokens, startBareRoute, startHeartbeatServer, type Target } from './targets.ts';

/**
 * `npm run bench:heartbeat-profile`: where a heartbeat's CPU goes, on a shared machine. The same
 * server as `npm run bench` (the real app on PGlite, background jobs on, 1,000 enrolled devices,
 * BENCH_PUSH_HOLDERS push calls held) and the same bare route, measured in alternation for
 * PROFILE_ROUNDS rounds of BENCH_DURATION_S, so that a load that drifts touches both alike. Per
 * target and round: CPU µs per request of this process (user and system apart), and the time the
 * garbage collector held the thread per request (scavenges and full collections). With
 * PROFILE_CPU_DIR, a V8 CPU profile of each measurement only (not the set-up), to open in a
 * browser's developer tools. Reports, never fails.
 */

const DURATION_S = Number(process.env.BENCH_DURATION_S || 5);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S || 2);
const ROUNDS = Number(process.env.PROFILE_ROUNDS || 3);
const PUSH_HOLDERS = Number(process.env.BENCH_PUSH_HOLDERS ?? 1000);
const CPU_DIR = process.env.PROFILE_CPU_DIR;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Figures {
  name: string;
  requestsPerSecond: number;
  userUs: number;
  systemUs: number;
  gcUs: number;
  collections: number;
}

async function measure(
  generator: LoadGenerator,
  target: Target,
  session: Session,
  round: number,
): Promise<Figures> {
  await generator.run(target.url, WARMUP_S);
  let gcMs = 0;
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMs += entry.duration;
      collections += 1;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  if (CPU_DIR) await session.post('Profiler.start');
  const before = process.cpuUsage();
  const result = await generator.run(target.url, DURATION_S);
  const cpu = process.cpuUsage(before);
  observer.disconnect();
  if (CPU_DIR) {
    const { profile } = await session.post('Profiler.stop');
    const file = path.join(CPU_DIR, `${target.name.replace(/\W+/g, '-')}-${round}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
  }
  const total = Math.max(1, result.total);
  return {
    name: target.name,
    requestsPerSecond: result.requestsPerSecond,
    userUs: cpu.user / total,
    systemUs: cpu.system / total,
    gcUs: (gcMs * 1000) / total,
    collections,
  };
}

function report(figures: Figures, round: number) {
  const cpu = figures.userUs + figures.systemUs;
  say(
    `  ${round + 1} ${figures.name.padEnd(20)} ${Math.round(figures.requestsPerSecond)
      .toString()
      .padStart(
        6,
      )} req/s  CPU ${cpu.toFixed(1).padStart(6)} µs/req (user ${figures.userUs.toFixed(1)}, system ${figures.systemUs.toFixed(1)})  GC ${figures.gcUs.toFixed(1)} µs/req in ${figures.collections} collections`,
  );
}

async function run(): Promise<void> {
  say(`Heartbeat profile: ${ROUNDS} rounds of ${DURATION_S} s, ${PUSH_HOLDERS} push calls held`);
  say(`Node ${process.version}, ${os.cpus().length} cores, load average: ${loadAverage()}`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-profile-tokens-'));
  const tokens = makeDeviceTokens(1000);
  const tokensFile = path.join(scratch, 'tokens.json');
  fs.writeFileSync(tokensFile, JSON.stringify(tokens));
  if (CPU_DIR) fs.mkdirSync(CPU_DIR, { recursive: true });
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  const generator = new LoadGenerator(tokensFile, 50);
  const heartbeat = await startHeartbeatServer({ kind: 'pglite' }, tokens, { logLevel: 'info' });
  const holders =
    PUSH_HOLDERS > 0 ? startPushHolders(heartbeat.url, tokensFile, PUSH_HOLDERS) : undefined;
  for (let i = 0; i < 600 && holders && heartbeat.heldPushCalls() < PUSH_HOLDERS; i++)
    await sleep(100);
  say(`  ${heartbeat.heldPushCalls()} push calls held`);
  const bare = await startBareRoute();
  try {
    for (let round = 0; round < ROUNDS; round++) {
      report(await measure(generator, bare, session, round), round);
      report(await measure(generator, heartbeat, session, round), round);
    }
  } finally {
    holders?.stop();
    generator.close();
    session.disconnect();
    await bare.close();
    await heartbeat.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  say(`Load average at end: ${loadAverage()}${CPU_DIR ? `; CPU profiles in ${CPU_DIR}` : ''}`);
}

run().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
