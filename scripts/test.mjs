// `npm test`: every suite in turn. Checks on the repository itself (its lint rules fire); the
// server integration tests on embedded PGlite, then again on PostgreSQL when TEST_DATABASE_URL is
// set; the demo's seed (tools/demo, on PGlite); the Unity SDK under Mono against the real server
// (scripts/sdk-test.mjs: PGlite, then PostgreSQL when TEST_DATABASE_URL is set); the cluster
// suite (three nodes behind nginx) when TEST_DATABASE_URL is set and nginx is installed; then the
// web unit tests and the browser tests.
// `--only NAME` (e.g. `npm run test:cluster`) runs one suite, and fails if it cannot run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;

/** nginx from NGINX, Debian's /usr/sbin/nginx, or PATH (as test/cluster/cluster.ts finds it). */
function hasNginx() {
  return [process.env.NGINX, '/usr/sbin/nginx', 'nginx']
    .filter(Boolean)
    .some((candidate) => spawnSync(candidate, ['-v']).status === 0);
}

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const suites = [
  // The repository's own rules: its lint boundaries fire (scripts/checks).
  { key: 'repo', name: 'repository checks', dir: '.', env: {}, config: 'vitest.repo.config.ts' },
  { key: 'server', name: 'server (PGlite)', dir: 'apps/server', env: { TEST_DB_KIND: 'pglite' } },
  {
    key: 'server-postgres',
    name: 'server (PostgreSQL)',
    dir: 'apps/server',
    env: { TEST_DB_KIND: 'postgres' },
    needs: postgres ? undefined : 'TEST_DATABASE_URL',
  },
  // The simulator's requests and answers checked against the contract's schemas; its runs against
  // the real server are in the server suites (apps/server/test/headset-sim.e2e.test.ts).
  { key: 'headset-sim', name: 'headset simulator', dir: 'tools/headset-sim', env: {} },
  // `npm run demo`'s seed, on the server's test databases (tools/demo/vitest.config.ts).
  { key: 'demo', name: 'demo (PGlite)', dir: 'tools/demo', env: { TEST_DB_KIND: 'pglite' } },
  // The Unity SDK (sdk/unity) compiled with mcs and run with Mono against the compiled server; it
  // fails, saying how to install Mono, when Mono is missing.
  { key: 'sdk', name: 'Unity SDK (Mono)', dir: '.', env: {}, script: 'scripts/sdk-test.mjs' },
  {
    key: 'cluster',
    name: 'cluster (3 nodes behind nginx, PostgreSQL)',
    dir: 'apps/server',
    env: {},
    config: 'vitest.cluster.config.ts',
    needs: !postgres ? 'TEST_DATABASE_URL' : hasNginx() ? undefined : 'nginx',
  },
  { key: 'web', name: 'web (unit)', dir: 'apps/web', env: {} },
  {
    key: 'e2e',
    name: 'web (browser end-to-end)',
    dir: 'apps/web',
    env: {},
    config: 'vitest.e2e.config.ts',
  },
];

const selected = only ? suites.filter((suite) => suite.key === only) : suites;
if (only && selected.length === 0) {
  console.error(`No suite "${only}"; suites: ${suites.map((suite) => suite.key).join(', ')}`);
  process.exit(2);
}

const results = [];
for (const suite of selected) {
  const cwd = path.join(root, suite.dir);
  const config = suite.script ?? suite.config ?? 'vitest.config.ts';
  if (suite.needs) {
    // In `npm test` a suite whose service is missing is skipped, and says so; asked for by name,
    // it fails.
    console.log(
      `\n=== ${suite.name}: ${only ? 'cannot run' : 'skipped'}, needs ${suite.needs} ===`,
    );
    if (only) results.push({ name: `${suite.name} (needs ${suite.needs})`, ok: false, seconds: 0 });
    continue;
  }
  // A suite whose configuration went missing is a failure, not a suite quietly not run.
  if (!fs.existsSync(path.join(cwd, config))) {
    console.log(`\n=== ${suite.name}: ${path.join(suite.dir, config)} is missing ===`);
    results.push({ name: `${suite.name} (no ${config})`, ok: false, seconds: 0 });
    continue;
  }
  console.log(`\n=== ${suite.name} ===`);
  const started = Date.now();
  const args = suite.script ? [suite.script] : [vitest, 'run', '--config', config];
  const run = spawnSync(process.execPath, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, ...suite.env },
  });
  results.push({ name: suite.name, ok: run.status === 0, seconds: (Date.now() - started) / 1000 });
}

console.log('\n=== summary ===');
for (const result of results) {
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${result.name} (${result.seconds.toFixed(0)} s)`);
}
const failed = results.filter((result) => !result.ok).length;
console.log(`suites: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
