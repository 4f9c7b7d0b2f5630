import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ManualClock } from '../src/platform/service/clock.ts';
import { testConfig } from '../src/platform/config/config.ts';
import type { DatabaseHandle } from '../src/platform/database/db.ts';
import { makeTenant, TEST_PASSWORD } from './factories.ts';
import { bearer, createTestDatabase, type TestApp } from './harness.ts';
import { parseLogLines } from './server-process.ts';

/**
 * The request log: one JSON line per request with its request id (the proxy's X-Request-Id when
 * sane), and no token, password, enrolment code or link signature in any line, at any level.
 */

let database: DatabaseHandle;
let t: TestApp;
let logged = '';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-log-'));

beforeAll(async () => {
  database = await createTestDatabase();
  const clock = new ManualClock(new Date());
  const config = testConfig({ dataDir, signingSecret: 'test-signing-secret' });
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logged += chunk.toString();
      callback();
    },
  });
  const app = await buildApp({
    db: database.db,
    config,
    clock,
    // Everything the server could write: trace is below every level it uses.
    logger: { level: 'trace', stream },
    databaseUrl: database.databaseUrl,
  });
  await app.ready();
  t = { app, db: database.db, clock, config, close: async () => {} };
});
afterAll(async () => {
  await t.app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const requestLines = () => parseLogLines(logged).filter((line) => line.msg === 'request');

describe('the request log', () => {
  it('writes one line per request, with the request id, and none for heartbeats and probes', async () => {
    const tenant = await makeTenant(t);
    const before = requestLines().length;
    const fromProxy = await t.app.inject({
      url: '/v1/vr-users?q=Ivanov',
      headers: { ...tenant.headers, 'x-request-id': '5f0c2b8e9d7a4c1e8b3f6a2d4e9c7b1a' },
    });
    expect(fromProxy.statusCode).toBe(200);
    const strange = await t.app.inject({
      url: '/v1/vr-users',
      headers: { ...tenant.headers, 'x-request-id': 'not an id\nforged line' },
    });
    expect(strange.statusCode).toBe(200);
    expect((await t.app.inject('/v1/nowhere')).statusCode).toBe(404);
    await t.app.inject('/readyz');
    await t.app.inject('/healthz');
    await t.app.inject({ method: 'POST', url: '/v1/headset/heartbeat', payload: {} });

    const lines = requestLines().slice(before);
    expect(lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        pid: process.pid,
        hostname: os.hostname(),
        // Our own id: a client's (or the proxy's) is kept apart, never taken as ours.
        reqId: expect.stringMatching(
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        ),
        client_request_id: '5f0c2b8e9d7a4c1e8b3f6a2d4e9c7b1a',
        method: 'GET',
        // The path only: a query string may hold people's names.
        path: '/v1/vr-users',
        route: '/v1/vr-users',
        status: 200,
        ms: expect.any(Number),
        ip: '127.0.0.1',
        account_id: tenant.account.id,
        msg: 'request',
      },
      expect.objectContaining({
        reqId: expect.stringMatching(
          /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
        ),
        path: '/v1/vr-users',
      }),
      expect.objectContaining({ path: '/v1/nowhere', route: 'unmatched', status: 404 }),
    ]);
    expect(logged).not.toContain('forged line');
    expect(logged).not.toContain('Ivanov');
  });

  it('never writes a token, password, enrolment code or link signature', async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    const secrets: string[] = [admin.token];
    const send = (options: InjectOptions) => t.app.inject(options);

    // Sign-ins: wrong, right, malformed, too long, not storable.
    const wrongPassword = 'wrong-secret-pw-1';
    secrets.push(wrongPassword);
    expect(
      (
        await send({
          method: 'POST',
          url: '/v1/auth/login',
          payload: { email: admin.account.email, password: wrongPassword },
        })
      ).statusCode,
    ).toBe(401);
    const signedIn = await send({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: admin.account.email, password: TEST_PASSWORD },
    });
    expect(signedIn.statusCode).toBe(200);
    secrets.push(signedIn.json().token);
    const malformed = 'malformed-secret-pw-2';
    secrets.push(malformed);
    expect(
      (
        await send({
          method: 'POST',
          url: '/v1/auth/login',
          headers: { 'content-type': 'application/json' },
          payload: `{"email":"a@b.c","password":"${malformed}"`,
        })
      ).statusCode,
    ).toBe(400);
    const long = `long-secret-pw-3-${'x'.repeat(300)}`;
    secrets.push(long.slice(0, 20));
    expect(
      (
        await send({
          method: 'POST',
          url: '/v1/auth/login',
          payload: { email: 'a@b.c', password: long },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await send({
          method: 'POST',
          url: '/v1/auth/login',
          payload: { email: 'a@b.c', password: 'nul-secret-pw-4\u0000' },
        })
      ).statusCode,
    ).toBe(400);
    secrets.push('nul-secret-pw-4');
    const unknownToken = 'unknown-secret-token-5';
    secrets.push(unknownToken);
    expect((await send({ url: '/v1/me', headers: bearer(unknownToken) })).statusCode).toBe(401);

    // Accounts: created with a password, then given a new one.
    const created = 'created-secret-pw-6';
    const changed = 'changed-secret-pw-7';
    secrets.push(created, changed);
    const account = await send({
      method: 'POST',
      url: '/v1/admin/users',
      headers: admin.headers,
      payload: {
        email: 'new-person@example.com',
        password: created,
        role: 'client',
        organization_id: admin.organization.id,
      },
    });
    expect(account.statusCode).toBe(201);
    expect(
      (
        await send({
          method: 'POST',
          url: `/v1/admin/users/${account.json().id}/password`,
          headers: admin.headers,
          payload: { new_password: changed },
        })
      ).statusCode,
    ).toBe(200);

    // Enrolment codes, an enrolment with an old one and a good one, and the device's token.
    const code = await send({
      method: 'POST',
      url: '/v1/devices/enrollment-code',
      headers: admin.headers,
    });
    const renewed = await send({
      method: 'POST',
      url: '/v1/devices/enrollment-code/renew',
      headers: admin.headers,
    });
    secrets.push(code.json().code, renewed.json().code);
    expect(
      (
        await send({
          method: 'POST',
          url: '/v1/headset/enroll',
          payload: { code: code.json().code, name: 'Quest', type: 'quest' },
        })
      ).statusCode,
    ).toBe(400);
    const enrolled = await send({
      method: 'POST',
      url: '/v1/headset/enroll',
      payload: { code: renewed.json().code, name: 'Quest', type: 'quest' },
    });
    expect(enrolled.statusCode).toBe(201);
    secrets.push(enrolled.json().device_token);
    expect(
      (
        await send({
          method: 'POST',
          url: '/v1/headset/heartbeat',
          headers: bearer(enrolled.json().device_token),
          payload: { battery_percent: 50 },
        })
      ).statusCode,
    ).toBe(200);

    // A signed download link, followed.
    fs.mkdirSync(path.join(dataDir, 'builds'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'builds', 'pico.apk'), Buffer.from('PK\u0003\u0004apk'));
    const links = await send({ url: '/v1/vr-app/download', headers: admin.headers });
    const link = new URL(links.json().pico_url);
    secrets.push(link.searchParams.get('signature')!);
    expect((await send({ url: `${link.pathname}${link.search}` })).statusCode).toBe(200);

    expect(requestLines().length).toBeGreaterThan(10);
    const leaked = secrets.filter((secret) => logged.includes(secret));
    expect(leaked).toEqual([]);
  });
});
