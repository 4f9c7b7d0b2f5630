import { defineConfig } from 'vitest/config';
import { fromSources } from '../../scripts/source-condition.ts';

/**
 * The demo's seed on a test database, read back through the API. The server (and its test
 * harness) come from their sources, as `npm run demo` runs them.
 */
export default defineConfig({
  ...fromSources,
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
