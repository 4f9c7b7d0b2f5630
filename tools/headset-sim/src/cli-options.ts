import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEVICE_TYPES, type DeviceType } from '@vrtc/contract';

/** The command line of `npm run headset` (cli.ts), parsed apart from running it. */

export const USAGE = `Simulated VR headsets for the VR training console.

Usage: npm run headset -- --server URL --code CODE [options]

  --server URL          server base URL (default http://127.0.0.1:8080)
  --code CODE           enrolment code from the console ("Add headset"); needed for the first run
  --name NAME           device name (default from the type, e.g. Quest); with --count, NAME-1..NAME-N
  --type TYPE           oculus | pico | quest | other (default quest)
  --count N             how many headsets (default 1)
  --pace-ms MS          milliseconds per task while playing a session (default 2000)
  --success-rate R      share of sessions finished with success, 0..1 (default 0.8)
  --heartbeat-ms MS     heartbeat interval (default: what the server asks for)
  --state-dir DIR       where device tokens and unsent reports (the outbox) are kept between
                        runs (default .headset-sim)
  --drop-network-after T  lose the network this long after connecting, e.g. 30s, 2m, 1500 (ms)
  --drop-network-for T    ...for this long (default: for good); sessions keep playing meanwhile,
                        their reports wait in the outbox and are sent in order when it is back
  --pin PIN             claim an LMS launch: the 6-digit PIN its page shows (the first headset
                        enters it and plays the session)
  --verbose             also print every heartbeat and every report delivered
  --help                this text

A run killed while reports wait sends them when started again with the same --state-dir.
Ctrl+C stops every headset and exits.`;

export class UsageError extends Error {}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const MAX_DURATION_MS = 365 * 24 * 3_600_000;

/**
 * A duration as milliseconds: a bare number is milliseconds; else number-unit parts with ms, s,
 * m or h, e.g. "1500", "90s", "1m30s", "0.5h".
 */
export function parseDuration(name: string, raw: string): number {
  const text = raw.trim().toLowerCase();
  let ms: number | undefined;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text);
  else if (/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(text)) {
    ms = 0;
    for (const [, amount, , unit] of text.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) {
      ms += Number(amount) * UNIT_MS[unit!]!;
    }
  }
  if (ms === undefined || !Number.isFinite(ms) || ms > MAX_DURATION_MS) {
    throw new UsageError(
      `--${name} must be a duration such as 1500 (milliseconds), 30s, 2m or 1h, got "${raw}"`,
    );
  }
  return Math.round(ms);
}

function parseNumber(
  name: string,
  raw: string | undefined,
  fallback: number,
  min: number,
  max: number,
) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a number between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function parseOptional(name: string, raw: string | undefined) {
  return raw === undefined ? undefined : parseNumber(name, raw, 0, 0, MAX_DURATION_MS);
}

export function parseCli(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      server: { type: 'string', default: 'http://127.0.0.1:8080' },
      code: { type: 'string' },
      name: { type: 'string' },
      type: { type: 'string', default: 'quest' },
      count: { type: 'string' },
      'pace-ms': { type: 'string' },
      'success-rate': { type: 'string' },
      'heartbeat-ms': { type: 'string' },
      'state-dir': { type: 'string', default: '.headset-sim' },
      'drop-network-after': { type: 'string' },
      'drop-network-for': { type: 'string' },
      pin: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const type = values.type as DeviceType;
  if (!DEVICE_TYPES.includes(type)) {
    throw new UsageError(`--type must be one of ${DEVICE_TYPES.join(', ')}, got "${values.type}"`);
  }
  let server: string;
  try {
    server = new URL(values.server).origin;
  } catch {
    throw new UsageError(
      `--server must be a URL such as http://127.0.0.1:8080, got "${values.server}"`,
    );
  }
  const count = parseNumber('count', values.count, 1, 1, 10_000);
  if (!Number.isInteger(count)) throw new UsageError('--count must be a whole number');
  const baseName = values.name?.trim() || type.charAt(0).toUpperCase() + type.slice(1);
  const names =
    values.name && count === 1
      ? [baseName]
      : Array.from({ length: count }, (_, i) => `${baseName}-${i + 1}`);
  const dropAfter = values['drop-network-after'];
  const dropFor = values['drop-network-for'];
  if (dropFor !== undefined && dropAfter === undefined) {
    throw new UsageError('--drop-network-for needs --drop-network-after');
  }
  if (values.pin !== undefined && !/^\d{6}$/.test(values.pin)) {
    throw new UsageError(`--pin must be 6 digits, got "${values.pin}"`);
  }
  return {
    help: values.help,
    pin: values.pin,
    server,
    code: values.code,
    type,
    names,
    paceMs: parseNumber('pace-ms', values['pace-ms'], 2000, 0, 3_600_000),
    successRate: parseNumber('success-rate', values['success-rate'], 0.8, 0, 1),
    heartbeatIntervalMs: parseOptional('heartbeat-ms', values['heartbeat-ms']),
    stateDir: path.resolve(values['state-dir']),
    dropNetworkAfterMs:
      dropAfter === undefined ? undefined : parseDuration('drop-network-after', dropAfter),
    dropNetworkForMs:
      dropFor === undefined ? undefined : parseDuration('drop-network-for', dropFor),
    verbose: values.verbose,
  };
}

export type CliOptions = ReturnType<typeof parseCli>;
