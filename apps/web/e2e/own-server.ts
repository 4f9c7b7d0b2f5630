import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';

const webDir = path.resolve(import.meta.dirname, '..');
const root = path.resolve(webDir, '../..');

/** How long a file's own server may take to start, and so the hook that starts it. */
export const OWN_SERVER_START_MS = 240_000;

/**
 * A server of one test file's own, built and served as the suite's (global-setup.ts) but with the
 * settings it is given, on its own embedded database (a copy of the suite's migrated one): a file that stops the server, or needs
 * headsets to count as silent within seconds, leaves the shared one alone. `stop()` and `start()`
 * again keep the address and the data (sign-ins survive), as a restarted server does.
 */
export class OwnServer {
  private process: ChildProcess | undefined;
  private port = 0;
  private readonly dataDir = copyOfMigrated();
  url = '';

  constructor(private readonly settings: Record<string, string>) {}

  async start(): Promise<string> {
    const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        DATABASE_URL: '',
        ADMIN_EMAIL: inject('adminEmail'),
        ADMIN_PASSWORD: inject('adminPassword'),
        WEB_DIST_DIR: path.join(webDir, 'dist-e2e'),
        HEARTBEAT_INTERVAL_MS: '300',
        LAST_SEEN_FLUSH_MS: '200',
        LOG_LEVEL: 'info',
        NODE_ENV: 'test',
        PASSWORD_HASH_COST: 'test',
        ...this.settings,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    this.url = await listening(child);
    this.port = Number(new URL(this.url).port);
    return this.url;
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    this.process = undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async close(): Promise<void> {
    await this.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * A new DATA_DIR holding a copy of the database global-setup.ts migrated: the server starts on it
 * in seconds, where creating and migrating one took up to 100 s on a loaded machine.
 */
function copyOfMigrated(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-e2e-own-'));
  const template = inject('migratedTemplate');
  fs.cpSync(path.join(template, 'pglite'), path.join(dir, 'pglite'), { recursive: true });
  return dir;
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`The server did not start:\n${output}`)),
      // As the suite's (global-setup.ts): a loaded machine slows even a start on a migrated copy.
      OWN_SERVER_START_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        // Keep reading, so a full pipe never stalls the server.
        child.stdout?.resume();
        child.stderr?.resume();
        resolve(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${code}:\n${output}`));
    });
  });
}
