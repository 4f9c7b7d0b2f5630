import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isStale } from '../../../scripts/build.mjs';
import {
  ensureServerBuilt,
  REPOSITORY_ROOT,
  SERVER_ENTRY,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './server-process.ts';
import { describeOnce } from './harness.ts';

/**
 * The production build (decision 019): the server and the contract compiled to JavaScript, run by
 * plain `node apps/server/dist/main.js` with no TypeScript loader. A fresh build is reused, so
 * this costs a build only after the sources changed.
 */

const serverDir = path.join(REPOSITORY_ROOT, 'apps/server');
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => fs.statSync(path.join(dir, file)).isFile())
    .sort();

describeOnce('the compiled server', { timeout: 120_000 }, () => {
  // Building from scratch takes minutes on a loaded two-core machine.
  beforeAll(() => ensureServerBuilt(), 300_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-build-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await stopServerProcess(server, 'SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is built and fresh, every relative import rewritten to JavaScript', () => {
    expect(isStale('contract')).toBe(false);
    expect(isStale('server')).toBe(false);
    expect(fs.existsSync(SERVER_ENTRY)).toBe(true);
    expect(fs.existsSync(path.join(serverDir, 'dist/platform/database/pglite-worker.mjs'))).toBe(
      true,
    );
    // The contract resolves to its build outside the `vrtc-source` condition.
    const contract = JSON.parse(
      fs.readFileSync(path.join(REPOSITORY_ROOT, 'packages/contract/package.json'), 'utf8'),
    ) as { exports: { '.': { default: string } } };
    const contractEntry = path.join(
      REPOSITORY_ROOT,
      'packages/contract',
      contract.exports['.'].default,
    );
    expect(fs.existsSync(contractEntry)).toBe(true);
    for (const dir of ['apps/server/dist', 'packages/contract/dist']) {
      const root = path.join(REPOSITORY_ROOT, dir);
      for (const file of filesUnder(root).filter((name) => name.endsWith('.js'))) {
        const text = fs.readFileSync(path.join(root, file), 'utf8');
        expect(text, `${dir}/${file}`).not.toMatch(/from ["']\.{1,2}\/[^"']*\.ts["']/);
      }
    }
  });

  it('carries the migrations beside the compiled migrate.js, the same files as the sources', () => {
    const source = path.join(serverDir, 'src/platform/database/migrations');
    const built = path.join(serverDir, 'dist/platform/database/migrations');
    expect(filesUnder(built)).toEqual(filesUnder(source));
    for (const file of filesUnder(source)) {
      expect(fs.readFileSync(path.join(built, file), 'utf8')).toBe(
        fs.readFileSync(path.join(source, file), 'utf8'),
      );
    }
  });

  it('is what the systemd units run', () => {
    for (const unit of ['deploy/vrtc.service', 'deploy/vrtc@.service']) {
      const text = fs.readFileSync(path.join(REPOSITORY_ROOT, unit), 'utf8');
      const execStart = /^ExecStart=(.*)$/m.exec(text)?.[1];
      expect(execStart, unit).toMatch(/\/usr\/bin\/node apps\/server\/dist\/main\.js'?$/);
    }
    expect(path.relative(REPOSITORY_ROOT, SERVER_ENTRY)).toBe('apps/server/dist/main.js');
  });

  it('needs no TypeScript at run time: tsx and typescript are no dependencies of the server', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(serverDir, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies)).not.toContain('tsx');
    expect(Object.keys(manifest.dependencies)).not.toContain('typescript');
    expect(Object.keys(manifest.dependencies)).not.toContain('@vrtc/headset-sim');
  });

  it('starts with plain node on a fresh DATA_DIR, serves the API, and exits 0 on SIGTERM', async () => {
    server = await startServerProcess({
      DATA_DIR: dataDir,
      ADMIN_EMAIL: 'build@example.com',
      ADMIN_PASSWORD: 'build-password',
      // No loader may sneak in through the environment.
      NODE_OPTIONS: '',
    });
    expect(server.child.spawnargs).toEqual([process.execPath, SERVER_ENTRY]);

    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'alive' });

    // Migrated (the copied SQL), validated (the compiled contract), hashed (argon2), served.
    const login = await fetch(`${server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'build@example.com', password: 'build-password' }),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const me = await fetch(`${server.url}/v1/me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'build@example.com', role: 'admin' });
    const invalid = await fetch(`${server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'build@example.com' }),
    });
    expect(invalid.status).toBe(400);

    expect(await stopServerProcess(server, 'SIGTERM')).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  });
});
