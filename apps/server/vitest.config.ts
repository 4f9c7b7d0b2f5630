import { defineConfig } from 'vitest/config';
import { longestFirst } from '../../scripts/longest-first.ts';
import { fromSources } from '../../scripts/source-condition.ts';

export default defineConfig({
  // @vrtc/contract from its sources, not its build (decision 019).
  ...fromSources,
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Three nodes behind nginx: their own suite (vitest.cluster.config.ts, npm run test:cluster).
    exclude: ['test/cluster/**', '**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Every file makes its own app on its own database (test/harness.ts), so files can share a
    // worker's modules: importing Fastify, Kysely and PGlite again per file took a third of the
    // suite's time (130 s against 80 s for the same files on two cores).
    isolate: false,
    // The files that take longest, longest first (scripts/longest-first.ts): the outage test runs
    // on PostgreSQL only, the server processes' start on PGlite only.
    sequence: {
      sequencer: longestFirst([
        'test/database-outage.test.ts',
        'test/platform.test.ts',
        'test/lms-scorm.e2e.test.ts',
        'test/fuzz.test.ts',
        'test/backup.test.ts',
        'test/delivery-restart.test.ts',
        'src/qualifications/compliance-rollup.test.ts',
      ]),
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
