import { defineConfig } from 'vitest/config';
import { fromSources } from '../../scripts/source-condition.ts';

/** Browser end-to-end tests: the real server on a fresh embedded database, driven in Chromium. */
export default defineConfig({
  ...fromSources,
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
