import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ensureBuilt } from '../../../scripts/build.mjs';

/** The production entry (compiled) and the repository root, as the operations guide runs them. */
export const SERVER_ENTRY = path.resolve(import.meta.dirname, '../dist/main.js');
export const REPOSITORY_ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Builds the server (and the contract) when its build is missing or older than its sources, as
 * `npm start` does; a fresh build is reused, and test files asking at once build it once. Minutes
 * at worst on a loaded machine: call it where the timeout allows (startServerProcess does).
 */
export async function ensureServerBuilt(): Promise<void> {
  await ensureBuilt(['server']);
}

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:PORT of the API. */
  url: string;
  /** http://…/metrics when METRICS_PORT was given. */
  metricsUrl?: string;
  /** Everything it wrote so far (JSON log lines). */
  output(): string;
  /** Parsed JSON log lines written so far. */
  logLines(): LogLine[];
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
}

export interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

/**
 * Starts `node apps/server/dist/main.js` (the command of docs/operations.md, built first when
 * stale) with `env` over a neutral environment (no console build, PGlite unless DATABASE_URL is
 * given, the tests' password hash cost), and resolves once it listens (and serves metrics, when METRICS_PORT is set).
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  await ensureServerBuilt();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: REPOSITORY_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      WEB_DIST_DIR: '/nonexistent',
      // The tests' own accounts hash at Argon2's floor (config.test.ts: only beside NODE_ENV=test).
      NODE_ENV: 'test',
      PASSWORD_HASH_COST: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wantsMetrics = env.METRICS_PORT !== undefined && env.METRICS_PORT !== '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const api = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      const metrics = /metrics listening at (http:\/\/127\.0\.0\.1:\d+\/metrics)/.exec(output);
      if (api && (!wantsMetrics || metrics)) {
        child.stdout!.off('data', onData);
        child.stderr!.off('data', onData);
        const keep = (more: Buffer) => (output += more.toString());
        child.stdout!.on('data', keep);
        child.stderr!.on('data', keep);
        resolve({
          child,
          url: api[1]!,
          metricsUrl: metrics?.[1],
          output: () => output,
          logLines: () => parseLogLines(output),
          exited,
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) =>
      reject(
        Object.assign(new Error(`server exited (${code}) before listening:\n${output}`), { code }),
      ),
    );
  });
}

export function parseLogLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

/** Sends `signal` and waits for the exit code. */
export async function stopServerProcess(
  server: Pick<ServerProcess, 'child' | 'exited'>,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | null> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/** Runs an npm script from the repository root as the guide does; its exit code and output. */
export function runNpm(
  args: string[],
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('npm', ['run', '--silent', ...args], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, DATABASE_URL: '', ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * runNpm without blocking this process: for commands that talk to a server running in it (the
 * backup command asks the server for its snapshot).
 */
export function runNpmAsync(
  args: string[],
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', ['run', '--silent', ...args], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('exit', (status) => resolve({ status, stdout, stderr })),
  );
}

/** Runs a command (pg_dump, pg_restore, psql) as the guide writes it; throws on failure. */
export function runCommand(file: string, args: string[], env: Record<string, string> = {}): string {
  const run = spawnSync(file, args, {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (run.status !== 0) {
    throw new Error(`${file} ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  }
  return run.stdout;
}
