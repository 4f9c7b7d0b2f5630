import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBuilt } from '../../../scripts/build.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminEmail: string;
    adminPassword: string;
    /** A DATA_DIR with a migrated database, closed: copied, never opened. */
    migratedTemplate: string;
  }
}

const webDir = path.resolve(import.meta.dirname, '..');
const root = path.resolve(webDir, '../..');
export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'e2e-admin-password';

/**
 * Builds the console from the current sources and starts the real server, compiled as production
 * runs it (built first when stale), on a fresh database.
 */
export default async function setup(project: TestProject) {
  // Its own output folder, so a developer's `npm run build` or `npm start` is left alone.
  const distDir = path.join(webDir, 'dist-e2e');
  // The console's build (Rollup: mostly one core) and the server's build then its migrated
  // database (PGlite: one core) are apart until the server starts, so they run side by side.
  const [, template] = await Promise.all([buildConsole(distDir), migratedTemplate()]);
  const dataDir = copyOfTemplate(template);
  placeAppBuilds(dataDir);
  const server = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      WEB_DIST_DIR: distDir,
      HEARTBEAT_INTERVAL_MS: '300',
      LAST_SEEN_FLUSH_MS: '200',
      LOG_LEVEL: 'info',
      // Every sign-in of the suite verifies a hash made at Argon2's floor (allowed only here).
      NODE_ENV: 'test',
      PASSWORD_HASH_COST: 'test',
      // The integrations test's receiver listens on this machine, which the server otherwise
      // refuses to deliver to.
      OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const baseUrl = await waitForListening(server);
  project.provide('baseUrl', baseUrl);
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('migratedTemplate', template);

  return async () => {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(template, { recursive: true, force: true });
  };
}

/** Runs a node script to its end; throws, saying what failed, when it does not exit with 0. */
function runNode(args: string[], what: string, env: NodeJS.ProcessEnv = process.env) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: webDir, stdio: 'inherit', env });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${what} failed`))));
  });
}

/**
 * The console built into `distDir`, and compressed as `npm run build` leaves it, so the browser
 * receives what production sends (bundle-budget.e2e.test.ts counts it).
 */
async function buildConsole(distDir: string) {
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  await runNode(
    [vite, 'build', '--logLevel', 'warn', '--outDir', distDir],
    'The console build',
    // Vitest sets NODE_ENV=test, which would give React's development build.
    { ...process.env, NODE_ENV: 'production' },
  );
  await runNode(
    [path.join(webDir, 'scripts/precompress.mjs'), distDir],
    'Compressing the console build',
  );
}

/**
 * A DATA_DIR whose embedded database the compiled server has migrated, left closed: the suite's
 * server and each file's own (own-server.ts) start on a copy of it, instead of each creating a
 * database and applying every migration (the first start itself is the server suite's to test:
 * apps/server/test/platform.test.ts). Nothing else is in it: each server still makes its own
 * first admin, signing secret and folders.
 */
async function migratedTemplate(): Promise<string> {
  await ensureBuilt(['server']);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-e2e-template-'));
  await runNode(
    [path.join(webDir, 'e2e/migrate-template.mjs'), dir],
    "Migrating the browser suite's database",
  );
  return dir;
}

/** A new DATA_DIR holding a copy of the migrated template's database (own-server.ts does too). */
function copyOfTemplate(template: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-e2e-'));
  fs.cpSync(path.join(template, 'pglite'), path.join(dir, 'pglite'), { recursive: true });
  return dir;
}

/**
 * The VR app's builds are the server's, one per platform for every organisation, so they are no
 * test file's to upload: placed before the server starts, as an operator copies one by hand, they
 * are there for every file that shows the download page. The one test that uploads a build
 * (defects.e2e.test.ts) replaces the Oculus build; the links stay.
 */
function placeAppBuilds(dataDir: string) {
  const builds = path.join(dataDir, 'builds');
  fs.mkdirSync(builds);
  for (const platform of ['oculus', 'pico']) {
    // Begins as an APK does, with a ZIP archive's signature.
    fs.writeFileSync(path.join(builds, `${platform}.apk`), `PK\x03\x04 e2e ${platform} build`);
  }
}

function waitForListening(server: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`The server did not start:\n${output}`)),
      // On a copy of the migrated database; a first start on an empty one took 115 s at a load
      // of 36 on two cores.
      240_000,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    server.stdout?.on('data', onData);
    server.stderr?.on('data', onData);
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${code}:\n${output}`));
    });
  });
}
