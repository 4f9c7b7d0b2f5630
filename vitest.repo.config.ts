import { defineConfig } from 'vitest/config';
import { fromSources } from './scripts/source-condition.ts';

/** Checks on the repository itself (its lint rules fire), run by `npm test` as the "repo" suite. */
export default defineConfig({
  ...fromSources,
  test: {
    include: ['scripts/checks/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
