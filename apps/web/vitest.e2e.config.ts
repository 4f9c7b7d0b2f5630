import { defineConfig } from 'vitest/config';
import { longestFirst } from '../../scripts/longest-first.ts';
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
    // A worker keeps its modules from file to file (Playwright, the helpers, the contract): each
    // file imported them anew, about 1–2 core-seconds a file (docs/benchmarks.md). The files share
    // no state but the server a file may point the helpers at, which it points back in `afterAll`
    // (`useOwnServer`), and every file closes its browser and servers there.
    isolate: false,
    // The files that take longest, longest first (scripts/longest-first.ts): started last, the
    // one-minute files ran on alone at the end.
    sequence: {
      sequencer: longestFirst([
        'e2e/routes.e2e.test.ts',
        'e2e/phone.e2e.test.ts',
        'e2e/a11y.e2e.test.ts',
        'e2e/live-truth.e2e.test.ts',
        'e2e/sso.e2e.test.ts',
        'e2e/auth.e2e.test.ts',
      ]),
    },
    // An `expect.poll` without its own limit waits as long as the suite's other waits (vitest's
    // 1 s ran out on a slow host: a compliance filter's list took longer to come back).
    expect: { poll: { timeout: 10_000 } },
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
