// `npm test`: every suite. Checks on the repository itself (its lint rules fire); the simulator's
// checks; the demo's seed (tools/demo, on PGlite); the Unity SDK under Mono against the real
// server (scripts/sdk-test.mjs: PGlite, then PostgreSQL when TEST_DATABASE_URL is set); the
// cluster suite (three nodes behind nginx) when TEST_DATABASE_URL is set and nginx is installed;
// the server integration tests on PostgreSQL when TEST_DATABASE_URL is set; the web unit tests;
// the browser tests; the server integration tests on embedded PGlite.
// `--only NAME` (e.g. `npm run test:cluster`) runs one suite, and fails if it cannot run.
//
// Two lanes share the two cores. In turn, printing as they run: the browser suite, whose two
// workers leave about a fifth of the cores idle (they wait on pages and on the server), then the
// server suite on PGlite, which keeps both busy. Beside them, one after another in the order
// listed: every other suite, each small, waiting (on Mono and the server it drives, on three
// server processes behind nginx, on PostgreSQL) or on one core (the web unit tests). Their output
// is held and printed whole once the suite they ran beside has ended, so each suite's output
// stays together. On a clean clone (docs/benchmarks.md, "Test suite time"): 529 s with only the
// SDK, cluster and web unit suites beside, 446 s like this. `--serial` runs every suite in turn,
// in the order listed (to measure, or to read a failure on a machine that is short of cores).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
const serial = process.argv.includes('--serial');

/** nginx from NGINX, Debian's /usr/sbin/nginx, or PATH (as test/cluster/cluster.ts finds it). */
function hasNginx() {
  return [process.env.NGINX, '/usr/sbin/nginx', 'nginx']
    .filter(Boolean)
    .some((candidate) => spawnSync(candidate, ['-v']).status === 0);
}

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const suites = [
  // The repository's own rules: its lint boundaries fire (scripts/checks).
  {
    key: 'repo',
    name: 'repository checks',
    dir: '.',
    env: {},
    config: 'vitest.repo.config.ts',
    beside: true,
  },
  // The simulator's requests and answers checked against the contract's schemas; its runs against
  // the real server are in the server suites (apps/server/test/headset-sim.e2e.test.ts).
  {
    key: 'headset-sim',
    name: 'headset simulator',
    dir: 'tools/headset-sim',
    env: {},
    beside: true,
  },
  // `npm run demo`'s seed, on the server's test databases (tools/demo/vitest.config.ts).
  {
    key: 'demo',
    name: 'demo (PGlite)',
    dir: 'tools/demo',
    env: { TEST_DB_KIND: 'pglite' },
    beside: true,
  },
  // The Unity SDK (sdk/unity) compiled with mcs and run with Mono against the compiled server; it
  // fails, saying how to install Mono, when Mono is missing.
  {
    key: 'sdk',
    name: 'Unity SDK (Mono)',
    dir: '.',
    env: {},
    script: 'scripts/sdk-test.mjs',
    beside: true,
  },
  {
    key: 'cluster',
    name: 'cluster (3 nodes behind nginx, PostgreSQL)',
    dir: 'apps/server',
    env: {},
    config: 'vitest.cluster.config.ts',
    needs: !postgres ? 'TEST_DATABASE_URL' : hasNginx() ? undefined : 'nginx',
    beside: true,
  },
  // Its files wait on PostgreSQL (each on a database of its own) and on the servers they stop and
  // start: run in turn, it left half the cores idle.
  {
    key: 'server-postgres',
    name: 'server (PostgreSQL)',
    dir: 'apps/server',
    env: { TEST_DB_KIND: 'postgres' },
    needs: postgres ? undefined : 'TEST_DATABASE_URL',
    beside: true,
  },
  { key: 'web', name: 'web (unit)', dir: 'apps/web', env: {}, beside: true },
  {
    key: 'e2e',
    name: 'web (browser end-to-end)',
    dir: 'apps/web',
    env: {},
    config: 'vitest.e2e.config.ts',
  },
  // After the browser suite, so that the suites beside fill the browser suite's idle share.
  { key: 'server', name: 'server (PGlite)', dir: 'apps/server', env: { TEST_DB_KIND: 'pglite' } },
];

const selected = only ? suites.filter((suite) => suite.key === only) : suites;
if (only && selected.length === 0) {
  console.error(`No suite "${only}"; suites: ${suites.map((suite) => suite.key).join(', ')}`);
  process.exit(2);
}

/**
 * Runs one suite. Its output goes straight to the terminal (`live`), or is held and answered with
 * the result, to be printed whole later.
 */
function runSuite(suite, live) {
  const cwd = path.join(root, suite.dir);
  const config = suite.script ?? suite.config ?? 'vitest.config.ts';
  const output = [];
  const say = (line) => (live ? console.log(line) : output.push(`${line}\n`));
  const done = (ok, seconds, name = suite.name, skipped = false) =>
    Promise.resolve({ name, ok, seconds, skipped, beside: !live, output: output.join('') });
  if (suite.needs) {
    // In `npm test` a suite whose service is missing is skipped, and says so; asked for by name,
    // it fails.
    say(`\n=== ${suite.name}: ${only ? 'cannot run' : 'skipped'}, needs ${suite.needs} ===`);
    return done(!only, 0, `${suite.name} (needs ${suite.needs})`, !only);
  }
  // A suite whose configuration went missing is a failure, not a suite quietly not run.
  if (!fs.existsSync(path.join(cwd, config))) {
    say(`\n=== ${suite.name}: ${path.join(suite.dir, config)} is missing ===`);
    return done(false, 0, `${suite.name} (no ${config})`);
  }
  say(`\n=== ${suite.name}${live ? '' : ' (ran beside the others)'} ===`);
  const started = Date.now();
  const args = suite.script ? [suite.script] : [vitest, 'run', '--config', config];
  const child = spawn(process.execPath, args, {
    cwd,
    stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      // Colours as the terminal would have had them.
      ...(!live && process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}),
      ...suite.env,
    },
  });
  child.stdout?.on('data', (chunk) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk) => output.push(chunk.toString()));
  return new Promise((resolve) => {
    child.once('error', (error) => {
      output.push(`${error.message}\n`);
      resolve(done(false, (Date.now() - started) / 1000));
    });
    child.once('close', (code) => resolve(done(code === 0, (Date.now() - started) / 1000)));
  });
}

const startedAll = Date.now();
const beside = only || serial ? [] : selected.filter((suite) => suite.beside);
const inTurn = selected.filter((suite) => !beside.includes(suite));
/** Results by suite, printed in the suites' order. */
const resultOf = new Map();
/** Suites run beside the others that have ended and whose output is not printed yet. */
const held = [];
const printHeld = () => {
  for (const result of held.splice(0)) process.stdout.write(result.output);
};
const besideRun = (async () => {
  for (const suite of beside) {
    const result = await runSuite(suite, false);
    resultOf.set(suite, result);
    held.push(result);
  }
})();
for (const suite of inTurn) {
  resultOf.set(suite, await runSuite(suite, true));
  printHeld();
}
await besideRun;
printHeld();
const results = selected.map((suite) => resultOf.get(suite)).filter((result) => !result.skipped);

console.log('\n=== summary ===');
for (const result of results) {
  const note = result.beside ? ', beside the others' : '';
  console.log(
    `${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${result.seconds.toFixed(0)} s${note})`,
  );
}
const failed = results.filter((result) => !result.ok).length;
console.log(
  `suites: ${results.length - failed} passed, ${failed} failed, ` +
    `${((Date.now() - startedAll) / 1000).toFixed(0)} s in all`,
);
process.exit(failed === 0 ? 0 : 1);
