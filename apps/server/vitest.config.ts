import { defineConfig } from 'vitest/config';
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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
