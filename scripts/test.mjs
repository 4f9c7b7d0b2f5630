// `npm test`: every suite in turn. Server integration tests run on embedded PGlite, then again on
// PostgreSQL when TEST_DATABASE_URL is set; then the web unit tests and the browser tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vitest = path.join(root, 'node_modules/vitest/vitest.mjs');

const suites = [
  { name: 'server (PGlite)', dir: 'apps/server', env: { TEST_DB_KIND: 'pglite' } },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'server (PostgreSQL)', dir: 'apps/server', env: { TEST_DB_KIND: 'postgres' } }]
    : []),
  { name: 'headset simulator', dir: 'tools/headset-sim', env: {} },
  { name: 'web (unit)', dir: 'apps/web', env: {} },
  { name: 'web (browser end-to-end)', dir: 'apps/web', env: {}, config: 'vitest.e2e.config.ts' },
];

const results = [];
for (const suite of suites) {
  const cwd = path.join(root, suite.dir);
  const config = suite.config ?? 'vitest.config.ts';
  if (!fs.existsSync(path.join(cwd, config))) continue;
  console.log(`\n=== ${suite.name} ===`);
  const started = Date.now();
  const run = spawnSync(process.execPath, [vitest, 'run', '--config', config], {
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
