import { defineConfig } from 'vitest/config';
import { fromSources } from '../../scripts/source-condition.ts';

export default defineConfig({
  // @vrtc/contract from its sources, not its build (decision 019).
  ...fromSources,
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});
