import { defaultClientConditions, defaultServerConditions, type UserConfig } from 'vite';

/**
 * The export condition under which workspace packages (`@vrtc/contract`, `@vrtc/server`) resolve
 * to their TypeScript sources instead of their compiled `dist/` (decision 019). TypeScript reads
 * the sources through the `types` condition; Node takes them with `--conditions=vrtc-source`
 * (under tsx: `npm run dev`, the demo, the simulator, benchmarks).
 */
export const SOURCE_CONDITION = 'vrtc-source';

/** Vite and Vitest: resolve workspace packages from their sources, on the client and in Node. */
export const fromSources = {
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
} satisfies UserConfig;
