import { defineRoute, OkBody, type RouteAccess } from '@vrtc/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireUser } from '../src/auth/auth.guard.ts';
import { DeviceAuthenticator } from '../src/headset/device-auth.ts';
import { requireDevice } from '../src/headset/device.guard.ts';
import type { AppInstance } from '../src/platform/http/app-types.ts';
import { registerErrorHandling } from '../src/platform/http/http-errors.ts';
import { registerRoute, useAccessGuards } from '../src/platform/http/routes.ts';
import { makeTenant } from './factories.ts';
import { contextOf, createTestApp, type TestApp } from './harness.ts';

/**
 * A route's `access` in the route map is enforced by registerRoute itself: a route registered
 * anywhere, with no hook of its scope, still lets in only the callers its access names.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const probeRoute = <A extends RouteAccess>(access: A, path: string) =>
  defineRoute({
    method: 'GET',
    path,
    access,
    tags: ['probe'],
    success: { status: 200, body: OkBody },
    errors: [],
  });

/** A bare app (no scopes, no hooks) with the real guards and routes of each access at its root. */
async function probeApp(): Promise<AppInstance> {
  const ctx = contextOf(t);
  const app = Fastify({ logger: false }) as unknown as AppInstance;
  registerErrorHandling(app);
  useAccessGuards(app, {
    user: requireUser(ctx),
    admin: requireUser(ctx, 'admin'),
    device: requireDevice(new DeviceAuthenticator(ctx.db, t.app.deviceEvents.cache)),
  });
  const ok = () => ({ ok: true as const });
  registerRoute(app, probeRoute('admin', '/probe/admin'), ok);
  registerRoute(app, probeRoute('user', '/probe/account'), ok);
  registerRoute(app, probeRoute('device', '/probe/headset'), ok);
  registerRoute(app, probeRoute('public', '/probe/anyone'), ok);
  await app.ready();
  return app;
}

describe('registerRoute', () => {
  it('refuses a staff token on a route declared admin, wherever it is registered', async () => {
    const app = await probeApp();
    const staff = await makeTenant(t, { role: 'client' });
    const admin = await makeTenant(t, { role: 'admin' });

    const refused = await app.inject({ url: '/probe/admin', headers: staff.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
    const allowed = await app.inject({ url: '/probe/admin', headers: admin.headers });
    expect(allowed.statusCode).toBe(200);
    await app.close();
  });

  it('refuses a caller without a token on a route declared account, and lets one in', async () => {
    const app = await probeApp();
    const staff = await makeTenant(t, { role: 'client' });

    const refused = await app.inject({ url: '/probe/account' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe('unauthorized');
    expect((await app.inject({ url: '/probe/account', headers: staff.headers })).statusCode).toBe(
      200,
    );
    // An account's token is no headset's, and a route open to anyone needs none.
    expect((await app.inject({ url: '/probe/headset', headers: staff.headers })).statusCode).toBe(
      401,
    );
    expect((await app.inject({ url: '/probe/anyone' })).statusCode).toBe(200);
    await app.close();
  });

  it('will not register a route whose access has no guard', () => {
    const app = Fastify({ logger: false }) as unknown as AppInstance;
    expect(() =>
      registerRoute(app, probeRoute('admin', '/probe/unguarded'), () => ({ ok: true as const })),
    ).toThrow(/no guard/);
  });
});
