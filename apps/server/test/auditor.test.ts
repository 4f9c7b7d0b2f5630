import crypto from 'node:crypto';
import { routePath, routes, type RouteDefinition } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/auth/auth.service.ts';
import { bearer, createTestApp, type TestApp } from './harness.ts';
import { makeAccount, makeDevice, makeSession, makeTenant, makeVrUser } from './factories.ts';

/**
 * The auditor (issue 37): an inspector's account of one organisation that reads what its staff
 * read and changes nothing. This walks the route map: every route not open to readers refuses it
 * with 403 before anything else, and every read staff have answers it.
 */
let t: TestApp;
let staff: Awaited<ReturnType<typeof makeTenant>>;
let auditor: { headers: Record<string, string> };
beforeAll(async () => {
  t = await createTestApp();
  staff = await makeTenant(t);
  const account = await makeAccount(t.db, {
    role: 'auditor',
    organization_id: staff.organization.id,
  });
  auditor = { headers: bearer((await issueToken(t, account.id)).token) };
});
afterAll(() => t.close());

const allRoutes = Object.entries(routes as Record<string, RouteDefinition>);
/**
 * The caller's own sign-in: signing out, its own password, its own API tokens (which act as the
 * auditor, so read only) and its own second factors (decision 031: every password account, the
 * auditor's too) change nothing of the organisation.
 */
const OWN_SIGN_IN = new Set<string>([
  'logout',
  'changeOwnPassword',
  'createApiToken',
  'revokeApiToken',
  'startTotp',
  'confirmTotp',
  'removeTotp',
  'renewRecoveryCodes',
  'passkeyRegistrationOptions',
  'addPasskey',
  'removePasskey',
]);

describe('the auditor', () => {
  it('is created by a platform admin for one organisation, like staff', async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    const email = `inspector-${crypto.randomBytes(3).toString('hex')}@example.com`;
    // A password an admin may give (not on the common-passwords list, as TEST_PASSWORD is).
    const password = 'inspector reads the record';
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/admin/users',
      headers: admin.headers,
      payload: {
        email,
        password,
        role: 'auditor',
        organization_id: staff.organization.id,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ role: 'auditor' });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email, password },
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({
      role: 'auditor',
      organization_id: staff.organization.id,
    });
  });

  it('reads only: no route open to readers changes anything but its own sign-in', () => {
    for (const [name, route] of allRoutes) {
      if (route.access !== 'reader') continue;
      expect(route.method === 'GET' || OWN_SIGN_IN.has(name), name).toBe(true);
    }
  });

  it('is refused with 403 on every route that is not open to readers', async () => {
    const fakeId = crypto.randomUUID();
    const before = await t.db.selectFrom('vr_users').selectAll().execute();
    let walked = 0;
    for (const [name, route] of allRoutes) {
      if (route.access !== 'user' && route.access !== 'admin') continue;
      const params = Object.fromEntries(
        [...route.path.matchAll(/:(\w+)/g)].map((match) => [match[1]!, fakeId]),
      );
      const response = await t.app.inject({
        method: route.method,
        url: routePath(route, params),
        headers: auditor.headers,
        ...(route.method === 'GET' ? {} : { payload: {} }),
      });
      expect(response.statusCode, `${name} ${response.body}`).toBe(403);
      expect(response.json().error, name).toBe('forbidden');
      walked += 1;
    }
    expect(walked).toBeGreaterThan(40);
    // The enrolment code is never shown to it (a POST: refused above).
    expect(routes.currentEnrollmentCode.access).toBe('user');
    expect(await t.db.selectFrom('vr_users').selectAll().execute()).toEqual(before);
  });

  it('gets 200 on every read its organisation’s staff have', async () => {
    const vrUser = await makeVrUser(t.db, staff.organization.id);
    const device = await makeDevice(t.db, staff.organization.id);
    const session = await makeSession(t.db, {
      organizationId: staff.organization.id,
      vrUserId: vrUser.id,
      status: 'completed',
    });
    const integration = await t.db
      .insertInto('integrations')
      .values({
        organization_id: staff.organization.id,
        kind: 'webhook',
        url: 'https://hooks.example.org/a',
        events: ['session.finished'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const qualification = await t.db
      .insertInto('qualifications')
      .values({
        organization_id: staff.organization.id,
        name: 'Forklift',
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const idOf: Record<string, string> = {
      getQualification: qualification.id,
      getVrUser: vrUser.id,
      listVrUserSessions: vrUser.id,
      vrUserRecord: vrUser.id,
      exportVrUserRecord: vrUser.id,
      getDevice: device.id,
      getSession: session.id,
      getIntegration: integration.id,
      listDeliveries: integration.id,
    };
    // The live stream never ends: live-access.test.ts follows it.
    const skip = new Set(['liveEvents']);
    for (const [name, route] of allRoutes) {
      if (route.access !== 'reader' || route.method !== 'GET' || skip.has(name)) continue;
      const params = route.path.includes(':id') ? { id: idOf[name]! } : undefined;
      for (const headers of [staff.headers, auditor.headers]) {
        const response = await t.app.inject({ url: routePath(route, params), headers });
        expect(response.statusCode, `${name} ${response.body.slice(0, 200)}`).toBe(200);
        expect(response.body).not.toContain('whsec_');
      }
    }
  });

  it('signs out', async () => {
    const account = await makeAccount(t.db, {
      role: 'auditor',
      organization_id: staff.organization.id,
    });
    const headers = bearer((await issueToken(t, account.id)).token);
    const out = await t.app.inject({ method: 'POST', url: '/v1/auth/logout', headers });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/me', headers })).statusCode).toBe(401);
  });
});
