import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { fromSources } from '../../scripts/source-condition.ts';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // @vrtc/contract is bundled from its TypeScript sources, so the console needs no contract build
  // (decision 019).
  ...fromSources,
  plugins: [react()],
  server: {
    port: 5173,
    // Host passed on unchanged (Vite's shorthand would rewrite it to the API's): the server lets
    // the sign-in cookie make a change only when its Origin, this page's, is the host it was sent
    // to (decision 025).
    proxy: {
      '/v1': { target: apiTarget, changeOrigin: false },
      '/docs': { target: apiTarget, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // `npm run build` prints each chunk with its gzip size; e2e/bundle-budget.test.ts enforces
    // the budgets of the login route.
    reportCompressedSize: true,
    chunkSizeWarningLimit: 700,
  },
});
