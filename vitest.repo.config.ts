import { defineConfig } from 'vitest/config';

/** Checks on the repository itself (its lint rules fire), run by `npm test` as the "repo" suite. */
export default defineConfig({
  test: {
    include: ['scripts/checks/**/*.test.ts'],
    testTimeout: 60_000,
  },
});
