import { defineConfig } from 'vitest/config';
import { fromSources } from '../../scripts/source-condition.ts';

/**
 * `npm run test:cluster`: three server processes on one PostgreSQL database behind a real nginx
 * running deploy/nginx.conf (test/cluster/cluster.ts). Needs TEST_DATABASE_URL and nginx; the
 * global setup fails the run, rather than skipping, when either is missing.
 */
export default defineConfig({
  ...fromSources,
  test: {
    include: ['test/cluster/**/*.cluster.test.ts'],
    globalSetup: ['test/cluster/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
