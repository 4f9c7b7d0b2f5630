import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { fromSources } from '../../scripts/source-condition.ts';

const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

/**
 * Two of Mantine's files patched in the build, each for a field that brought code every signed-in
 * page loaded and none uses (issue #27):
 * - `Table` carries `Table.ScrollContainer` as a static field, so every table loaded Mantine's
 *   ScrollArea and, through it, floating-ui (~27 KB brotli). The field is dropped: the console
 *   imports `TableScrollContainer` by name where it wants one, and `Table.ScrollContainer` says so
 *   if used.
 * - `AppShell.Header` reads one class name from react-remove-scroll, which loaded the whole scroll
 *   lock (~7 KB) with the layout; the name comes from its constants instead, and the scroll lock
 *   loads with the first dialog.
 * A patch that no longer applies (a new Mantine) fails the build.
 */
function mantineTrims(): Plugin {
  const patches: Array<{ file: RegExp; edits: Array<[RegExp, string]> }> = [
    {
      file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]Table[\\/]Table\.mjs$/,
      edits: [
        [/^import \{ TableScrollContainer \} from "\.\/TableScrollContainer\.mjs";$/m, ''],
        [
          /^Table\.ScrollContainer = TableScrollContainer;$/m,
          'Object.defineProperty(Table, "ScrollContainer", { get() { throw new Error(' +
            '"Table.ScrollContainer is left out of the console (vite.config.ts): import TableScrollContainer"); } });',
        ],
      ],
    },
    {
      file: /@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]AppShell(Header|Footer|Aside)[\\/]AppShell\w+\.mjs$/,
      edits: [
        [
          /^import \{ RemoveScroll \} from "react-remove-scroll";$/m,
          'import { zeroRightClassName } from "react-remove-scroll-bar/constants";\n' +
            'const RemoveScroll = { classNames: { zeroRight: zeroRightClassName } };',
        ],
      ],
    },
  ];
  return {
    name: 'vrtc:mantine-trims',
    transform(code, id) {
      const patch = patches.find(({ file }) => file.test(id));
      if (!patch) return null;
      let result = code;
      for (const [pattern, replacement] of patch.edits) {
        if (!pattern.test(result)) {
          throw new Error(`${id}: Mantine changed; update mantineTrims() in vite.config.ts`);
        }
        result = result.replace(pattern, replacement);
      }
      return { code: result, map: null };
    },
  };
}

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
  plugins: [react(), mantineTrims()],
  server: {
    port: 5173,
    // Host passed on unchanged (Vite's shorthand would rewrite it to the API's): the server lets
    // the sign-in cookie make a change only when its Origin, this page's, is the host it was sent
    // to (decision 025).
    proxy: {
      '/v1': { target: apiTarget, changeOrigin: false },
      '/docs': { target: apiTarget, changeOrigin: false },
      // The live stream asks it whether the server is away (api/connection.ts).
      '/healthz': { target: apiTarget, changeOrigin: false },
    },
  },
  logLevel: process.env.VRTC_BUILD_SIZES === '1' ? 'info' : 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // `npm run build -- --sizes` prints each chunk with its gzip size (seventy lines a newcomer
    // has no use for on every start); e2e/bundle-budget.test.ts enforces the login route's budgets.
    reportCompressedSize: process.env.VRTC_BUILD_SIZES === '1',
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
