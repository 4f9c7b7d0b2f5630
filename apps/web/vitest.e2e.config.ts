import { defineConfig } from 'vitest/config';
import { fromSources } from '../../scripts/source-condition.ts';

/** Browser end-to-end tests: the real server on a fresh embedded database, driven in Chromium. */
export default defineConfig({
  ...fromSources,
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    environment: 'node',
    // Two files at a time, each with its own browser, against the one server: each file makes its
    // own organisation, content and headsets, and finds its rows in the admin's lists by searching.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
