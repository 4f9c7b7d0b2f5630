import path from 'node:path';
import { CONFIG_SETTINGS } from '../apps/server/src/platform/config/config.ts';
import { readSetting } from '../apps/server/src/platform/config/settings.ts';
import { cliArgs } from './cli.ts';

/**
 * `npm run bench:console`'s flags, targets and number formats (console.bench.ts describes the run).
 */

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

export const args = cliArgs();
export const numberArg = (name: string, fallback: number) => {
  const value = args.has(name) ? Number(args.get(name)) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
export const SCALE = numberArg('scale', 1);
export const PGLITE_SCALE = numberArg('pglite-scale', SCALE / 10);
export const DURATION_S = numberArg('duration', 3);
export const WARMUP_S = numberArg('warmup', 1);
export const CONNECTIONS = numberArg('connections', 10);
export const HEARTBEAT_S = numberArg('heartbeat-s', 10);
export const HEARTBEAT_RATE = numberArg('heartbeat-rate', 1000);
export const HEARTBEAT_CONNECTIONS = numberArg('heartbeat-connections', 50);
export const HEARTBEAT_DEVICES = numberArg('heartbeat-devices', 200);
export const BATCH = numberArg('batch', 100_000);
export const KEEP = args.has('keep');
export const READ_FILTER = args.has('reads') ? new RegExp(args.get('reads')!, 'i') : undefined;
export const RUN_PG = !args.has('pglite-only');
export const RUN_PGLITE = !args.has('pg-only');
export const LOG_LEVEL = readSetting(CONFIG_SETTINGS.logLevel, process.env);
export const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * A read whose warm probe takes this long is measured with a fixed number of requests
 * (SLOW_REQUESTS, every one answered) instead of a window of DURATION_S: at 10 connections on 2
 * cores such a read would complete only a few dozen requests in the window, and autocannon drops
 * the ones still running when it ends, which are the slowest.
 */
export const SLOW_PROBE_MS = 100;
export const SLOW_REQUESTS = 3 * CONNECTIONS;
export const REQUEST_TIMEOUT_S = 120;
/** Keep-alive interval of the headsets in session (the server's default heartbeat interval). */
export const KEEPALIVE_MS = 5000;

// Targets
export const READ_P99_MS = 100;
export const EXPORT_MAX_S = 5;
export const EXPORT_MAX_RSS_MB = 300;
export const HEARTBEAT_MAX_RATIO = { postgres: 2, pglite: 3 } as const;
/** Issue #27: the server on PGlite (its WebAssembly heap in this process) stays under this. */
export const PGLITE_SERVING_MAX_RSS_MB = 650;
export const LOGIN_MAX_BYTES = 200 * 1024;
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const kb = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(2)} MB`
    : `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
export const int = (value: number) => Math.round(value).toLocaleString('en-US');
export const isoDay = (at: Date) => at.toISOString().slice(0, 10);
