import fs from 'node:fs';
import path from 'node:path';
import { SimulatedHeadset, type HeadsetCredentials, type HeadsetEvent } from './index.ts';
import { parseCli, USAGE, UsageError } from './cli-options.ts';

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
  const tokenFile = path.join(options.stateDir, 'tokens.json');
  const tokens = readTokens(tokenFile);
  const saved = (tokens[options.server] ??= {});
  const missing = options.names.filter((name) => !saved[name]);
  if (missing.length > 0 && !options.code) {
    throw new UsageError(
      `No saved token for ${missing.join(', ')} in ${tokenFile}: pass --code with the ` +
        'enrolment code shown in the console ("Add headset").',
    );
  }

  const print = (event: HeadsetEvent) => {
    if ((event.type === 'heartbeat' || event.type === 'report_delivered') && !options.verbose) {
      return;
    }
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
        stateDir: options.stateDir,
      }),
  );
  for (const headset of headsets) {
    headset.on('event', (event) => {
      print(event);
      if (event.type === 'enrolled') {
        saved[headset.name] = event.credentials;
        writeTokens(tokenFile, tokens);
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

  if (options.pin) {
    const session = await running[0]!.claimLaunch(options.pin);
    console.log(
      `[${running[0]!.name}] claimed PIN ${options.pin}: ${session.vr_user_name} on ${session.level_name}`,
    );
  }

  if (options.dropNetworkAfterMs !== undefined) {
    const timer = setTimeout(() => {
      for (const headset of running) headset.dropConnection(options.dropNetworkForMs);
    }, options.dropNetworkAfterMs);
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
