import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { fromSources } from '../../scripts/source-condition.ts';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  // @vrtc/contract is bundled from its TypeScript sources, so the console needs no contract build
  // (decision 019).
  ...fromSources,
  resolve: {
    ...fromSources.resolve,
    // The contract's schemas stay out of the browser: the console takes only types, constants and
    // the route table from the contract (scripts/typebox-stub.mjs says why).
    alias: [
      {
        find: /^typebox$/,
        replacement: path.resolve(import.meta.dirname, 'scripts/typebox-stub.mjs'),
      },
    ],
  },
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
    // Fewer, larger files (issue #27). Left to itself the bundler gives every set of lazy screens
    // that shares a module a chunk of its own: about 70 files on the first signed-in visit, most
    // under 2 KB of brotli, each paying a round trip and ~1 KB of response headers. A shared chunk
    // under 64 KB (before minification) is copied into the chunks that import it instead. Each
    // screen keeps its own chunk (decision 003): charts and date pickers stay on the screens that
    // use them, the login page loads neither. The copies run in import order (rolldown turns on
    // strictExecutionOrder for this); the entry's exports are no one's API (preserveEntrySignatures).
    rolldownOptions: {
      preserveEntrySignatures: false,
      output: {
        codeSplitting: { experimentalInlineCommonChunks: { maxSize: 64 * 1024 } },
      },
    },
  },
});
