import {
  defineRoute,
  ERRORS,
  OkBody,
  routes,
  type RouteAccess,
  type RouteDefinition,
} from '@vrtc/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireUser } from '../src/auth/auth.guard.ts';
import { DeviceRefusals } from '../src/headset/device-refusals.ts';
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
    reader: requireUser(ctx, 'reader'),
    user: requireUser(ctx, 'staff'),
    admin: requireUser(ctx, 'admin'),
    device: requireDevice(
      new DeviceAuthenticator(ctx.db, t.app.deviceEvents.cache),
      new DeviceRefusals(ctx),
    ),
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

describe('a caller who may not call a route', () => {
  const longId = 'x'.repeat(5000);
  /** Requests an admin route judges by size or shape: each fails that judgement for an admin. */
  const badRequests = [
    { name: 'a long URL', method: 'GET', url: `/v1/admin/organizations/${longId}` },
    { name: 'a long URL on a route with a body', method: 'PUT', url: `/v1/admin/users/${longId}` },
    {
      name: 'an oversize body',
      method: 'POST',
      url: '/v1/admin/organizations',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    },
    {
      name: 'malformed JSON',
      method: 'POST',
      url: '/v1/admin/organizations',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    },
    {
      name: 'a body against the schema',
      method: 'POST',
      url: '/v1/admin/organizations',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ unknown: true }),
    },
    {
      name: 'an unknown content type',
      method: 'POST',
      url: '/v1/admin/organizations',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    },
  ] as const;

  it('is refused before the request is judged: 403 for a staff token, 401 without one', async () => {
    const staff = await makeTenant(t, { role: 'client' });
    const admin = await makeTenant(t, { role: 'admin' });
    for (const request of badRequests) {
      const headers = 'headers' in request ? request.headers : {};
      const asStaff = await t.app.inject({ ...request, headers: { ...headers, ...staff.headers } });
      expect(asStaff.statusCode, `${request.name}, staff`).toBe(403);
      expect(asStaff.json().error).toBe('forbidden');
      const anonymous = await t.app.inject({ ...request, headers });
      expect(anonymous.statusCode, `${request.name}, no token`).toBe(401);
      // The admin, let in, gets the answer the request deserves.
      const asAdmin = await t.app.inject({ ...request, headers: { ...headers, ...admin.headers } });
      expect([400, 413, 414, 415], `${request.name}, admin`).toContain(asAdmin.statusCode);
    }
  });

  it('gets 414 uri_too_long only once let in, on an account route too', async () => {
    const staff = await makeTenant(t, { role: 'client' });
    const url = `/v1/vr-users/${longId}`;
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const tooLong = await t.app.inject({ url, headers: staff.headers });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.json()).toMatchObject({
      error: 'uri_too_long',
      details: { field: 'params.id' },
    });
  });
});

describe('the OpenAPI document', () => {
  const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

  it('lists every status each route can answer', async () => {
    const paths = (
      t.app.swagger() as unknown as {
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      }
    ).paths;
    for (const [name, route] of Object.entries(routes as Record<string, RouteDefinition>)) {
      const documented = Object.keys(
        paths[openApiPath(route.path)]![route.method.toLowerCase()]!.responses,
      ).map(Number);
      const expected = new Set<number>([route.success.status, 400, 503]);
      const byAccount = ['reader', 'user', 'admin'].includes(route.access);
      if (byAccount || route.access === 'device') expected.add(401);
      // The admin role, or (user) not the read-only auditor.
      if (route.access === 'admin' || route.access === 'user') expected.add(403);
      // An account the policy sends to enrol a second factor first (mfa_enrolment_required).
      if (byAccount) expected.add(403);
      if (route.method !== 'GET') [413, 415].forEach((status) => expected.add(status));
      // A change signed in by the console's cookie from another site (cross_site_request).
      if (route.method !== 'GET' && byAccount) {
        expected.add(403);
      }
      if (route.params) expected.add(414);
      if (route.errors.some((code) => code === 'rate_limited' || code === 'too_many_streams')) {
        expected.add(429);
      }
      for (const code of route.errors) expected.add(ERRORS[code].status);
      expect(documented.sort(), name).toEqual([...expected].sort());
    }
  });

  it('names the codes behind each error status', () => {
    const login = (
      t.app.swagger() as unknown as {
        paths: Record<
          string,
          Record<string, { responses: Record<string, { description: string }> }>
        >;
      }
    ).paths['/v1/auth/login']!.post!.responses;
    expect(login['400']!.description).toContain('validation_error');
    expect(login['400']!.description).toContain('bad_request');
    expect(login['503']!.description).toContain('storage_unavailable');
    expect(login['403']!.description).toContain('cross_site_request');
  });
});
