import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppInstance } from '../src/platform/http/app-types.ts';
import { ManualClock } from '../src/platform/service/clock.ts';
import { testConfig } from '../src/platform/config/config.ts';
import type { DatabaseHandle } from '../src/platform/database/db.ts';
import { makeTenant } from './factories.ts';
import { createTestDatabase, describeOnce, type TestApp } from './harness.ts';

/** Faults of the machine, not of the request: they answer 503 with a stable code, never 500. */

const STORAGE_UNAVAILABLE = {
  error: 'storage_unavailable',
  message:
    'The server cannot write data right now (its storage is full or unavailable). Nothing was saved; try again later.',
};

describe('a full disk', () => {
  let database: DatabaseHandle;
  let app: AppInstance;
  let t: TestApp;
  let diskFull = false;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-faults-'));

  /** Every INSERT fails as PostgreSQL fails it when the disk is full, while `diskFull` holds. */
  const fullDisk: KyselyPlugin = {
    transformQuery(args) {
      if (diskFull && args.node.kind === 'InsertQueryNode') {
        throw Object.assign(new Error('could not extend file: No space left on device'), {
          code: '53100',
        });
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig({ dataDir, signingSecret: 'test-secret' });
    const clock = new ManualClock(new Date());
    app = await buildApp({ db: database.db.withPlugin(fullDisk), config, clock, logger: false });
    await app.ready();
    t = { app, db: database.db, clock, config, close: async () => {} };
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    diskFull = false;
    vi.restoreAllMocks();
  });

  it('answers creates with 503 storage_unavailable, and works again once space returns', async () => {
    const tenant = await makeTenant(t);
    diskFull = true;
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers: tenant.headers,
      payload: { name: 'Anna' },
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual(STORAGE_UNAVAILABLE);
    const listed = await app.inject({ url: '/v1/vr-users', headers: tenant.headers });
    expect(listed.json().vr_users).toEqual([]);

    diskFull = false;
    const created = await app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers: tenant.headers,
      payload: { name: 'Anna' },
    });
    expect(created.statusCode).toBe(201);
  });

  it('answers uploads with 503 storage_unavailable, leaving no partial file', async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    const upload = () =>
      app.inject({
        method: 'POST',
        url: '/v1/admin/vr-app/builds/pico',
        headers: { ...admin.headers, 'content-type': 'application/vnd.android.package-archive' },
        payload: Buffer.concat([Buffer.from('PK\x03\x04'), crypto.randomBytes(50_000)]),
      });
    vi.spyOn(fs.promises, 'open').mockRejectedValueOnce(
      Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' }),
    );
    const refused = await upload();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual(STORAGE_UNAVAILABLE);
    expect(fs.readdirSync(path.join(dataDir, 'builds'))).toEqual([]);

    const stored = await upload();
    expect(stored.statusCode).toBe(201);
    expect(fs.readdirSync(path.join(dataDir, 'builds')).sort()).toEqual(['pico.apk', 'pico.json']);
  });
});

describeOnce('the embedded database thread dying', () => {
  it('turns every request that needs the database into 503, and says so once', async () => {
    // The run's migrated PGlite snapshot (this runs in the PGlite run only): a fresh database
    // and every migration took longer than the test's timeout on a loaded machine. A copy of its
    // own: the worker's kept database would be the one lost.
    const database = await createTestDatabase({ ownCopy: true });
    const lost: string[] = [];
    database.onLost((error) => lost.push(error.message));
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-lost-'));
    const app = await buildApp({
      db: database.db,
      config: testConfig({ dataDir, signingSecret: 'test-secret' }),
      logger: false,
    });
    try {
      await database.crashForTests!();
      const login = await app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        payload: { email: 'someone@example.com', password: 'whatever' },
      });
      expect(login.statusCode).toBe(503);
      expect(login.json()).toEqual({
        error: 'service_unavailable',
        message: 'The database is unavailable right now. Try again in a moment.',
      });
      expect(lost).toEqual(['The embedded database thread stopped (exit code 1)']);
    } finally {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
