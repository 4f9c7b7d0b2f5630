import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { fromSources } from '../../scripts/source-condition.ts';

export default defineConfig({
  // @vrtc/contract from its sources, not its build (decision 019).
  ...fromSources,
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // Each file in a fresh module graph and jsdom cost more than the tests themselves (React,
    // Mantine and the dictionaries imported again per file: 150 s against 70 s on two cores).
    // Files share a worker's modules instead; src/test/setup.ts puts back, before each file, the
    // state a file may change: the language, the toasts, fetch.
    isolate: false,
    testTimeout: 20_000,
  },
});
