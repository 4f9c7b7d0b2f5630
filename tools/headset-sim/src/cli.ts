import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DEVICE_TYPES, type DeviceType } from '@vrtc/contract';
import { SimulatedHeadset, type HeadsetCredentials, type HeadsetEvent } from './index.ts';

const USAGE = `Simulated VR headsets for the VR training console.

Usage: npm run headset -- --server URL --code CODE [options]

  --server URL          server base URL (default http://127.0.0.1:8080)
  --code CODE           enrolment code from the console ("Add headset"); needed for the first run
  --name NAME           device name (default from the type, e.g. Quest); with --count, NAME-1..NAME-N
  --type TYPE           oculus | pico | quest | other (default quest)
  --count N             how many headsets (default 1)
  --pace-ms MS          milliseconds per task while playing a session (default 2000)
  --success-rate R      share of sessions finished with success, 0..1 (default 0.8)
  --heartbeat-ms MS     heartbeat interval (default: what the server asks for)
  --token-file PATH     where device tokens are kept and reused (default .headset-sim/tokens.json)
  --drop-after-ms MS    simulate a dropped connection this long after start
  --drop-for-ms MS      ...lasting this long (default: for good)
  --verbose             also print every heartbeat
  --help                this text

Ctrl+C stops every headset and exits.`;

class UsageError extends Error {}

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
  return raw === undefined ? undefined : parseNumber(name, raw, 0, 0, 365 * 24 * 3600 * 1000);
}

function parseCli(argv: string[]) {
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
      'token-file': { type: 'string', default: path.join('.headset-sim', 'tokens.json') },
      'drop-after-ms': { type: 'string' },
      'drop-for-ms': { type: 'string' },
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
  return {
    help: values.help,
    server,
    code: values.code,
    type,
    names,
    paceMs: parseNumber('pace-ms', values['pace-ms'], 2000, 0, 3_600_000),
    successRate: parseNumber('success-rate', values['success-rate'], 0.8, 0, 1),
    heartbeatIntervalMs: parseOptional('heartbeat-ms', values['heartbeat-ms']),
    tokenFile: path.resolve(values['token-file']),
    dropAfterMs: parseOptional('drop-after-ms', values['drop-after-ms']),
    dropForMs: parseOptional('drop-for-ms', values['drop-for-ms']),
    verbose: values.verbose,
  };
}

/** Saved tokens, by server origin then device name, so the next run reuses the same devices. */
type TokenFile = Record<string, Record<string, HeadsetCredentials>>;

function readTokens(file: string): TokenFile {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as TokenFile) : {};
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UsageError(`Cannot read the token file ${file}: ${(error as Error).message}`);
  }
}

function writeTokens(file: string, tokens: TokenFile) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(tokens, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temporary, file);
}

async function main() {
  const options = parseCli(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const tokens = readTokens(options.tokenFile);
  const saved = (tokens[options.server] ??= {});
  const missing = options.names.filter((name) => !saved[name]);
  if (missing.length > 0 && !options.code) {
    throw new UsageError(
      `No saved token for ${missing.join(', ')} in ${options.tokenFile}: pass --code with the ` +
        'enrolment code shown in the console ("Add headset").',
    );
  }

  const print = (event: HeadsetEvent) => {
    if (event.type === 'heartbeat' && !options.verbose) return;
    console.log(`${event.at.toISOString().slice(11, 19)} ${event.line}`);
  };

  const headsets = options.names.map(
    (name) =>
      new SimulatedHeadset({
        server: options.server,
        name,
        type: options.type,
        code: options.code,
        credentials: saved[name],
        paceMs: options.paceMs,
        successRate: options.successRate,
        heartbeatIntervalMs: options.heartbeatIntervalMs,
      }),
  );
  for (const headset of headsets) {
    headset.on('event', (event) => {
      print(event);
      if (event.type === 'enrolled') {
        saved[headset.name] = event.credentials;
        writeTokens(options.tokenFile, tokens);
      }
    });
  }

  let stopping = false;
  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.allSettled(headsets.map((headset) => headset.stop()));
    process.exit(code);
  };
  process.on('SIGINT', () => {
    if (stopping) process.exit(130); // a second Ctrl+C: do not wait
    console.log('\nStopping the headsets…');
    void stopAll(0);
  });
  process.on('SIGTERM', () => void stopAll(0));

  const started = await Promise.allSettled(headsets.map((headset) => headset.start()));
  started.forEach((result, index) => {
    if (result.status === 'rejected') {
      const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
      console.error(`[${options.names[index]}] could not start: ${reason}`);
    }
  });
  const running = headsets.filter((_, index) => started[index]?.status === 'fulfilled');
  if (running.length === 0) {
    await stopAll(1);
    return 1;
  }
  console.log(
    `${running.length} headset(s) connected to ${options.server}; waiting for sessions. Ctrl+C to stop.`,
  );

  if (options.dropAfterMs !== undefined) {
    const timer = setTimeout(() => {
      for (const headset of running) headset.dropConnection(options.dropForMs);
    }, options.dropAfterMs);
    timer.unref();
  }

  // Exit once every headset has stopped on its own (e.g. its token was refused).
  let stopped = 0;
  for (const headset of running) {
    headset.on('event', (event) => {
      if (event.type === 'stopped' && ++stopped === running.length && !stopping) void stopAll(1);
    });
  }
  // Keep the process alive while the headsets run (their timers are not enough on their own
  // while a connection is dropped for good).
  setInterval(() => {}, 1 << 30);
  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      console.error(`${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
