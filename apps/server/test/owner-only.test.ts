import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { issueToken } from '../src/auth/auth.service.ts';
import { startServer, type RunningServer } from '../src/main.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { createBackup, restoreBackup } from '../src/platform/ops/backup.ts';
import { systemClock } from '../src/platform/service/clock.ts';
import { makeAccount } from './factories.ts';
import { bearer, describeOnce } from './harness.ts';

/**
 * DATA_DIR and everything the server writes in it (the embedded database, the signing secret,
 * builds, what a restore puts there) and its backups are its owner's only, whatever umask the
 * process was started with: umask 000 here, where every file would otherwise be world-writable.
 */
const dirs: string[] = [];
const servers: RunningServer[] = [];
let umaskBefore: number;
beforeAll(() => {
  umaskBefore = process.umask();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.app.close();
  process.umask(umaskBefore);
});
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-owner-'));
  dirs.push(dir);
  return dir;
}

/** Every path under `root` (itself included) whose group or others have any permission. */
function openToOthers(root: string): string[] {
  const found: string[] = [];
  const visit = (at: string) => {
    const stat = fs.lstatSync(at);
    if (stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) found.push(`${at} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(at)) visit(path.join(at, name));
  };
  visit(root);
  return found;
}

async function startOn(dataDir: string) {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    WEB_DIST_DIR: '/nonexistent',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
  });
  const server = await startServer(config);
  servers.push(server);
  return { server, config };
}

// A whole server on a new data directory (migrations included), a backup and a restore: minutes
// on a loaded machine, as in backup.test.ts.
describeOnce('DATA_DIR', { timeout: 240_000 }, () => {
  it('is owner-only, with all the server writes in it, though started with umask 000', async () => {
    process.umask(0o000);
    // An existing directory others could read is closed too.
    const dataDir = path.join(tempDir(), 'data');
    fs.mkdirSync(dataDir, { mode: 0o777 });
    fs.chmodSync(dataDir, 0o777);

    const { server, config } = await startOn(dataDir);
    const admin = await makeAccount(server.database.db, { role: 'admin' });
    const { token } = await issueToken(
      { db: server.database.db, clock: systemClock, config },
      admin.id,
    );
    const upload = await server.app.inject({
      method: 'POST',
      url: '/v1/admin/vr-app/builds/oculus',
      headers: { ...bearer(token), 'content-type': 'application/vnd.android.package-archive' },
      payload: Buffer.concat([Buffer.from('PK\x03\x04'), crypto.randomBytes(1000)]),
    });
    expect(upload.statusCode).toBe(201);
    // The signing secret is made on first use: a download link needs it.
    expect(
      (await server.app.inject({ url: '/v1/vr-app/download', headers: bearer(token) })).statusCode,
    ).toBe(200);

    const written = fs.readdirSync(dataDir);
    expect(written).toEqual(expect.arrayContaining(['pglite', 'builds']));
    expect(written.some((name) => name.includes('secret'))).toBe(true);
    expect(openToOthers(dataDir)).toEqual([]);

    // A backup taken meanwhile, and a restore into a new DATA_DIR, each with umask 000 again.
    process.umask(0o000);
    const backup = path.join(tempDir(), 'backup.tar');
    await createBackup({ dataDir }, backup);
    expect(openToOthers(backup)).toEqual([]);
    await server.app.close();
    servers.splice(0);

    process.umask(0o000);
    const restored = path.join(tempDir(), 'restored');
    await restoreBackup({ dataDir: restored }, backup, { force: false });
    expect(fs.readdirSync(restored)).toEqual(expect.arrayContaining(['pglite', 'builds']));
    expect(openToOthers(restored)).toEqual([]);
  });
});
