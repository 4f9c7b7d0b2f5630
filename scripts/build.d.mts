// Types of scripts/build.mjs, for the TypeScript that imports it (tests, benchmarks).
export type BuildTarget = 'contract' | 'server' | 'web';

export function isStale(name: BuildTarget): boolean;

export function ensureBuilt(
  names: BuildTarget[],
  options?: { force?: boolean; log?: (line: string) => void },
): Promise<BuildTarget[]>;
