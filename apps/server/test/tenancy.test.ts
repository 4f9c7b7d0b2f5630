import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import {
  TEST_PASSWORD,
  makeDevice,
  makeSession,
  makeStartableSetup,
  makeTenant,
  makeVrUser,
} from './factories.ts';

/**
 * Tenant isolation: for every client route that takes an id, organisation B's tokens (client and
 * admin alike: admins use the client routes for their own organisation) get 404 on organisation
 * A's ids, and A's data is unchanged afterwards.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The route as OpenAPI names it, e.g. /v1/vr-users/{id}. */
  route: string;
  url: string;
  payload?: Record<string, unknown>;
}

/** Client routes outside the user-token scope (headset tokens, signed URLs) or with no tenant id. */
const notClientRoute = (path: string) =>
  path.startsWith('/v1/admin/') ||
  path.startsWith('/v1/headset/') ||
  path.startsWith('/v1/vr-app/files/') ||
  path.startsWith('/v1/auth/') ||
  // A certificate's code is its holder's to show anyone (public, no organisation asks).
  path.startsWith('/v1/certificates/') ||
  // SCIM: the organisation's directory token, not a user's; another organisation's token gets
  // 404 on each of these in src/scim/scim.test.ts.
  path.startsWith('/scim/');

async function snapshotOf(organizationId: string) {
  const [vrUsers, devices, sessions] = await Promise.all([
    t.db
      .selectFrom('vr_users')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute(),
    t.db
      .selectFrom('devices')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute(),
    t.db
      .selectFrom('sessions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute(),
  ]);
  return { vrUsers, devices, sessions };
}

describe('tenant isolation', () => {
  it("answers 404 to organisation B on every client route given organisation A's ids", async () => {
    const a = await makeTenant(t);
    const bClient = await makeTenant(t);
    const bAdmin = await makeTenant(t, { role: 'admin' });

    const aVrUser = await makeVrUser(t.db, a.organization.id, { name: 'A person' });
    const aIdle = await makeStartableSetup(t, a.organization.id, { deviceName: 'A idle' });
    const aBusy = await makeDevice(t.db, a.organization.id, {
      name: 'A busy',
      last_seen_at: t.clock.now(),
    });
    const aActive = await makeSession(t.db, {
      organizationId: a.organization.id,
      deviceId: aBusy.id,
      vrUserId: aVrUser.id,
      status: 'active',
      startedAt: t.clock.now(),
    });
    const aEnded = await makeSession(t.db, {
      organizationId: a.organization.id,
      vrUserId: aVrUser.id,
      status: 'completed',
    });

    const aQualification = await t.db
      .insertInto('qualifications')
      .values({
        organization_id: a.organization.id,
        name: 'A forklift',
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('qualification_assignments')
      .values({
        qualification_id: aQualification.id,
        vr_user_id: aVrUser.id,
        organization_id: a.organization.id,
        assigned_at: t.clock.now(),
      })
      .execute();
    const aQ = `/v1/qualifications/${aQualification.id}`;
    // An LMS package key of A (issue 41).
    const aPackageKey = await t.db
      .insertInto('lms_package_keys')
      .values({
        organization_id: a.organization.id,
        level_id: null,
        qualification_id: aQualification.id,
        key_hash: crypto.randomBytes(32).toString('hex'),
        scorm_version: '1.2',
        title: 'A package',
        created_by_email: null,
        created_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    // An API token of A's account: its own, whoever else asks (B's admin too).
    const aApiToken = await t.db
      .insertInto('auth_tokens')
      .values({
        account_id: a.account.id,
        token_hash: 'not-a-real-hash',
        name: 'A script',
        created_at: t.clock.now(),
        expires_at: new Date(t.clock.now().getTime() + 3600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // A's staff's passkey (decision 031): an account's own factor, no other account's to remove.
    const aPasskey = await t.db
      .insertInto('mfa_passkeys')
      .values({
        account_id: a.account.id,
        credential_id: `credential-${aQualification.id}`,
        public_key: 'pQECAyYgASFYIA',
        name: 'A’s key',
        created_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const calls = (bSetup: Awaited<ReturnType<typeof makeStartableSetup>>): Call[] => [
      {
        method: 'DELETE',
        route: '/v1/me/api-tokens/{id}',
        url: `/v1/me/api-tokens/${aApiToken.id}`,
      },
      {
        method: 'DELETE',
        route: '/v1/me/mfa/passkeys/{id}',
        url: `/v1/me/mfa/passkeys/${aPasskey.id}`,
      },
      // Qualifications (issue 37): A's qualification, A's trainee.
      { method: 'GET', route: '/v1/qualifications/{id}', url: aQ },
      {
        method: 'PUT',
        route: '/v1/qualifications/{id}',
        url: aQ,
        payload: { name: 'Hijacked' },
      },
      { method: 'DELETE', route: '/v1/qualifications/{id}', url: aQ },
      {
        method: 'POST',
        route: '/v1/qualifications/{id}/assignments',
        url: `${aQ}/assignments`,
        payload: { vr_user_ids: [aVrUser.id] },
      },
      {
        method: 'DELETE',
        route: '/v1/qualifications/{id}/assignments/{vrUserId}',
        url: `${aQ}/assignments/${aVrUser.id}`,
      },
      {
        method: 'POST',
        route: '/v1/vr-users/{id}/evaluations',
        url: `/v1/vr-users/${aVrUser.id}/evaluations`,
        payload: {
          qualification_id: aQualification.id,
          result: 'pass',
          meaning: 'Passed',
          password: TEST_PASSWORD,
        },
      },
      {
        method: 'POST',
        route: '/v1/vr-users/{id}/qualifications/{qualificationId}/revoke',
        url: `/v1/vr-users/${aVrUser.id}/qualifications/${aQualification.id}/revoke`,
        payload: { reason: 'Hijacked' },
      },
      {
        method: 'PUT',
        route: '/v1/vr-users/{id}',
        url: `/v1/vr-users/${aVrUser.id}`,
        payload: { name: 'Hijacked' },
      },
      { method: 'GET', route: '/v1/vr-users/{id}', url: `/v1/vr-users/${aVrUser.id}` },
      { method: 'DELETE', route: '/v1/vr-users/{id}', url: `/v1/vr-users/${aVrUser.id}` },
      {
        method: 'GET',
        route: '/v1/vr-users/{id}/sessions',
        url: `/v1/vr-users/${aVrUser.id}/sessions`,
      },
      {
        method: 'GET',
        route: '/v1/vr-users/{id}/record',
        url: `/v1/vr-users/${aVrUser.id}/record`,
      },
      {
        method: 'GET',
        route: '/v1/vr-users/{id}/record/export',
        url: `/v1/vr-users/${aVrUser.id}/record/export`,
      },
      { method: 'GET', route: '/v1/devices/{id}', url: `/v1/devices/${aIdle.device.id}` },
      { method: 'DELETE', route: '/v1/devices/{id}', url: `/v1/devices/${aIdle.device.id}` },
      { method: 'DELETE', route: '/v1/devices/{id}', url: `/v1/devices/${aBusy.id}` },
      {
        method: 'PUT',
        route: '/v1/devices/{id}/movement-type',
        url: `/v1/devices/${aIdle.device.id}/movement-type`,
        payload: { movement_type: 'teleport' },
      },
      { method: 'GET', route: '/v1/sessions/{id}', url: `/v1/sessions/${aEnded.id}` },
      {
        method: 'POST',
        route: '/v1/sessions/{id}/cancel',
        url: `/v1/sessions/${aActive.id}/cancel`,
      },
      {
        method: 'POST',
        route: '/v1/sessions/{id}/cancel',
        url: `/v1/sessions/${aEnded.id}/cancel`,
      },
      {
        method: 'POST',
        route: '/v1/lms/package-keys/{id}/revoke',
        url: `/v1/lms/package-keys/${aPackageKey.id}/revoke`,
      },
      // Ids in a query: A's qualification, a level only A holds a grant for.
      {
        method: 'POST',
        route: '/v1/lms/packages',
        url: `/v1/lms/packages?qualification_id=${aQualification.id}&scorm_version=1.2`,
      },
      {
        method: 'POST',
        route: '/v1/lms/packages',
        url: `/v1/lms/packages?level_id=${aIdle.level.id}&scorm_version=2004`,
      },
      // Ids in a body: A's device, A's VR user, a level only A holds a grant for.
      {
        method: 'POST',
        route: '/v1/sessions/start',
        url: '/v1/sessions/start',
        payload: {
          device_id: aIdle.device.id,
          level_id: bSetup.level.id,
          vr_user_name: 'B person',
        },
      },
      {
        method: 'POST',
        route: '/v1/sessions/start',
        url: '/v1/sessions/start',
        payload: {
          device_id: bSetup.device.id,
          level_id: bSetup.level.id,
          vr_user_name: 'A person',
          vr_user_id: aVrUser.id,
        },
      },
      {
        method: 'POST',
        route: '/v1/sessions/start',
        url: '/v1/sessions/start',
        payload: {
          device_id: bSetup.device.id,
          level_id: aIdle.level.id,
          vr_user_name: 'B person',
        },
      },
    ];

    // Integrations (issue 26): staff manage their own organisation's, admins every organisation's,
    // so only B's staff are refused here; the admins' reach is tested in integrations.test.ts.
    const aIntegration = await t.db
      .insertInto('integrations')
      .values({
        organization_id: a.organization.id,
        kind: 'webhook',
        url: 'https://hooks.example.org/a',
        events: ['session.finished'],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = `/v1/integrations/${aIntegration.id}`;
    const staffOnly: Call[] = [
      { method: 'GET', route: '/v1/integrations/{id}', url: base },
      {
        method: 'PATCH',
        route: '/v1/integrations/{id}',
        url: base,
        payload: { url: 'https://hooks.example.org/b' },
      },
      { method: 'DELETE', route: '/v1/integrations/{id}', url: base },
      {
        method: 'POST',
        route: '/v1/integrations/{id}/rotate-secret',
        url: `${base}/rotate-secret`,
      },
      {
        method: 'POST',
        route: '/v1/integrations/{id}/revoke-previous-secret',
        url: `${base}/revoke-previous-secret`,
      },
      { method: 'POST', route: '/v1/integrations/{id}/test', url: `${base}/test` },
      {
        method: 'GET',
        route: '/v1/integrations/{id}/deliveries',
        url: `${base}/deliveries`,
      },
      {
        method: 'POST',
        route: '/v1/integrations/{id}/deliveries/{deliveryId}/redeliver',
        url: `${base}/deliveries/${aIntegration.id}/redeliver`,
      },
    ];
    const aIntegrationBefore = await t.db.selectFrom('integrations').selectAll().execute();

    const before = await snapshotOf(a.organization.id);
    const covered = new Set<string>();
    for (const call of staffOnly) {
      covered.add(`${call.method} ${call.route}`);
      const response = await t.app.inject({
        method: call.method,
        url: call.url,
        headers: bClient.headers,
        ...(call.payload ? { payload: call.payload } : {}),
      });
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(404);
      expect(response.json().error).toBe('not_found');
    }
    expect(await t.db.selectFrom('integrations').selectAll().execute()).toEqual(aIntegrationBefore);
    for (const b of [bClient, bAdmin]) {
      const bSetup = await makeStartableSetup(t, b.organization.id);
      for (const call of calls(bSetup)) {
        covered.add(`${call.method} ${call.route}`);
        const response = await t.app.inject({
          method: call.method,
          url: call.url,
          headers: b.headers,
          ...(call.payload ? { payload: call.payload } : {}),
        });
        expect(
          response.statusCode,
          `${call.method} ${call.url} ${JSON.stringify(call.payload ?? {})}`,
        ).toBe(404);
        expect(response.json().error).toBe('not_found');
      }
      // B's own sessions were never started by these calls.
      const bSessions = await t.db
        .selectFrom('sessions')
        .select('id')
        .where('organization_id', '=', b.organization.id)
        .execute();
      expect(bSessions).toEqual([]);
    }
    expect(await snapshotOf(a.organization.id)).toEqual(before);
    expect(
      await t.db.selectFrom('auth_tokens').select('id').where('id', '=', aApiToken.id).execute(),
    ).toHaveLength(1);
    expect(
      await t.db.selectFrom('mfa_passkeys').select('id').where('id', '=', aPasskey.id).execute(),
    ).toHaveLength(1);

    // Every client route with a path id is in the matrix above (a new one must be added).
    const paths = (t.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
    const withIds = Object.entries(paths)
      .filter(([path]) => path.includes('{') && !notClientRoute(path))
      .flatMap(([path, methods]) =>
        Object.keys(methods)
          .filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
          .map((method) => `${method.toUpperCase()} ${path}`),
      );
    expect(withIds.length).toBeGreaterThan(0);
    expect(withIds.filter((route) => !covered.has(route))).toEqual([]);
  });

  it("never lists organisation A's data to organisation B", async () => {
    const a = await makeTenant(t);
    const b = await makeTenant(t);
    const aVrUser = await makeVrUser(t.db, a.organization.id);
    const aDevice = await makeDevice(t.db, a.organization.id, { last_seen_at: t.clock.now() });
    await makeSession(t.db, {
      organizationId: a.organization.id,
      deviceId: aDevice.id,
      status: 'active',
    });
    await makeSession(t.db, { organizationId: a.organization.id, vrUserId: aVrUser.id });

    const lists: Array<[string, string]> = [
      ['/v1/vr-users', 'vr_users'],
      ['/v1/devices', 'devices'],
      ['/v1/sessions', 'sessions'],
      ['/v1/sessions?status=active', 'sessions'],
      ['/v1/sessions/active', 'active_sessions'],
    ];
    for (const [url, key] of lists) {
      const response = await t.app.inject({ url, headers: b.headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.json()[key], url).toEqual([]);
    }
    // Its statistics count its own sessions alone, in the file too.
    const stats = await t.app.inject({ url: '/v1/stats', headers: b.headers });
    expect(stats.json()).toMatchObject({ organization_id: b.organization.id, total_sessions: 0 });
    const file = await t.app.inject({ url: '/v1/stats/export', headers: b.headers });
    expect(file.body).toMatch(/Total sessions,0\r?\n/);
  });
});
