// `npm run bench:sdk`: the Unity SDK's report calls, timed on the caller's thread (Unity's main
// thread: a Quest frame is 11–14 ms; target p99 < 1 ms) and until the report is on disk, beside
// the two flushed writes each call did on that thread before 0.2.0. Compiles the SDK's Runtime
// and bench/sdk/ReportBench.cs with `mcs -langversion:7.2` and runs it with Mono (no server: a
// handler in the program accepts every report). `npm run bench:sdk -- 600 11`: reports, ms a frame.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const runtime = path.join(root, 'sdk/unity/Runtime');
const sources = fs
  .readdirSync(runtime, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.cs'))
  .map((file) => path.join(runtime, file));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-sdk-bench-'));
const exe = path.join(work, 'ReportBench.exe');
const compiled = spawnSync(
  'mcs',
  [
    '-langversion:7.2',
    '-optimize+',
    `-out:${exe}`,
    '-r:System.Net.Http.dll',
    ...sources,
    path.join(root, 'bench/sdk/ReportBench.cs'),
  ],
  { encoding: 'utf8' },
);
if (compiled.error || compiled.status !== 0) {
  console.error(
    `mcs failed (install Mono: apt-get install -y mono-devel):\n${compiled.stdout ?? ''}${compiled.stderr ?? ''}`,
  );
  process.exit(1);
}
const run = spawnSync('mono', [exe, ...process.argv.slice(2)], { encoding: 'utf8' });
fs.rmSync(work, { recursive: true, force: true });
if (run.status !== 0) {
  console.error(run.stdout, run.stderr);
  process.exit(1);
}
interface Figures {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
const result = JSON.parse(run.stdout.trim().split('\n').pop()!) as Record<string, Figures | number>;
const row = (label: string, f: Figures) =>
  `| ${label.padEnd(46)} | ${String(f.n).padStart(4)} | ${f.p50.toFixed(3)} | ${f.p90.toFixed(3)} | ${f.p99.toFixed(3)} | ${f.max.toFixed(3)} |`;
console.log(
  `${String(result.reports)} reports, one every ${String(result.frame_ms)} ms; milliseconds`,
);
console.log(
  '| measure                                        |    n |   p50 |   p90 |   p99 |   max |',
);
console.log(
  '| ---------------------------------------------- | ---: | ----: | ----: | ----: | ----: |',
);
console.log(row('ReportProgressAsync on the caller’s thread', result.caller_thread_ms as Figures));
console.log(row('… until the report is on disk (its task)', result.to_durable_ms as Figures));
console.log(
  row('before 0.2.0: two flushed writes on the caller', result.synchronous_writes_ms as Figures),
);
const p99 = (result.caller_thread_ms as Figures).p99;
console.log(
  p99 < 1
    ? `caller-thread p99 ${p99} ms: under the 1 ms target`
    : `caller-thread p99 ${p99} ms: OVER the 1 ms target`,
);
