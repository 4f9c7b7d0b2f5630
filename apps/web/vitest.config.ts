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
    testTimeout: 20_000,
  },
});
