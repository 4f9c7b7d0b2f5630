import fs from 'node:fs';
import path from 'node:path';
import { AUDIT_REDACTED, type AuditEventPage, type SsoConfig } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { TEST_PASSWORD, makeAccount, makeOrganization, makeTenant } from '../../test/factories.ts';

/**
 * A platform admin sets an organisation's identity provider (issue 38): the secret is sealed
 * under a key outside the database and never answered, a domain belongs to one organisation.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
let staff: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
  staff = await makeTenant(t);
});
afterAll(() => t.close());

const SECRET = 'the-provider-client-secret-7f3a';
const body = (domains: string[], extra: Record<string, unknown> = {}) => ({
  protocol: 'oidc',
  issuer: 'https://login.example.com/tenant',
  client_id: 'vr-console',
  client_secret: SECRET,
  email_domains: domains,
  enforced: false,
  jit: false,
  default_role: 'client',
  ...extra,
});
const url = (id: string) => `/v1/admin/organizations/${id}/sso`;
const put = (id: string, payload: object, headers = admin.headers) =>
  t.app.inject({ method: 'PUT', url: url(id), headers, payload });

describe('single sign-on settings', () => {
  it('stores the provider, answers it without the secret, and keeps the secret sealed', async () => {
    const organization = await makeOrganization(t.db, { name: 'Acme plant' });
    const saved = await put(organization.id, body(['Acme.example', 'acme-mail.example']));
    expect(saved.statusCode, saved.body).toBe(200);
    const config = saved.json<SsoConfig>();
    expect(config).toMatchObject({
      organization_id: organization.id,
      issuer: 'https://login.example.com/tenant',
      client_id: 'vr-console',
      client_secret_set: true,
      email_domains: ['acme-mail.example', 'acme.example'],
      redirect_uri: expect.stringMatching(/\/v1\/auth\/sso\/callback$/),
    });
    const read = await t.app.inject({ url: url(organization.id), headers: admin.headers });
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(SECRET);
    expect(read.json()).toEqual(config);

    const row = await t.db
      .selectFrom('sso_configs')
      .selectAll()
      .where('organization_id', '=', organization.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(fs.existsSync(path.join(t.config.dataDir, 'sso-key'))).toBe(true);

    const events = await t.app.inject({
      url: `/v1/audit-events?action=sso.&organization_id=${organization.id}`,
      headers: admin.headers,
    });
    expect(events.body).not.toContain(SECRET);
    const [event] = events.json<AuditEventPage>().audit_events;
    expect(event).toMatchObject({ action: 'sso.configured', target: { label: 'Acme plant' } });
    expect(event!.changes.client_secret).toEqual([null, AUDIT_REDACTED]);
  });

  it('refuses a domain another organisation already has, with 409 email_domain_taken', async () => {
    const first = await makeOrganization(t.db);
    const second = await makeOrganization(t.db);
    expect((await put(first.id, body(['shared.example']))).statusCode).toBe(200);
    const refused = await put(second.id, body(['other.example', 'SHARED.example']));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'email_domain_taken' });
    // The organisation that holds it may save it again (a change of its other fields).
    const again = await put(first.id, body(['shared.example'], { enforced: true }));
    expect(again.statusCode).toBe(200);
    expect(again.json<SsoConfig>().enforced).toBe(true);
  });

  it('removes the settings, frees the domains, and answers 404 after', async () => {
    const organization = await makeOrganization(t.db);
    expect((await put(organization.id, body(['leaving.example']))).statusCode).toBe(200);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: url(organization.id),
      headers: admin.headers,
    });
    expect(removed.statusCode).toBe(200);
    const read = await t.app.inject({ url: url(organization.id), headers: admin.headers });
    expect(read.statusCode).toBe(404);
    const other = await makeOrganization(t.db);
    expect((await put(other.id, body(['leaving.example']))).statusCode).toBe(200);
  });

  it('answers 404 for an unknown organisation, 400 for a bad body, 403 to staff', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await put(unknown, body(['nowhere.example']))).statusCode).toBe(404);
    const organization = await makeOrganization(t.db);
    const bad = await put(organization.id, body(['@not a domain']));
    expect(bad.statusCode).toBe(400);
    expect(
      (await put(organization.id, body(['x.example'], { default_role: 'admin' }))).statusCode,
    ).toBe(400);
    const asStaff = await put(organization.id, body(['staff.example']), staff.headers);
    expect(asStaff.statusCode).toBe(403);
  });
});

describe('enforced single sign-on', () => {
  const login = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email, password: TEST_PASSWORD },
    });

  it('refuses the password of the organisation’s staff with 403 sso_required, but not of an exempt account or an admin', async () => {
    const organization = await makeOrganization(t.db);
    const worker = await makeAccount(t.db, { organization_id: organization.id });
    const breakGlass = await makeAccount(t.db, { organization_id: organization.id });
    expect((await login(worker.email)).statusCode).toBe(200);
    expect(
      (await put(organization.id, body(['enforced.example'], { enforced: true }))).statusCode,
    ).toBe(200);

    const refused = await login(worker.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'sso_required' });

    const exempt = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/users/${breakGlass.id}`,
      headers: admin.headers,
      payload: { sso_exempt: true },
    });
    expect(exempt.statusCode, exempt.body).toBe(200);
    expect(exempt.json()).toMatchObject({ sso_exempt: true });
    expect((await login(breakGlass.email)).statusCode).toBe(200);

    // A platform admin keeps the password whatever the organisation enforces.
    const platformAdmin = await makeAccount(t.db, {
      organization_id: organization.id,
      role: 'admin',
    });
    expect((await login(platformAdmin.email)).statusCode).toBe(200);

    // Not enforced any more: the password works again.
    expect(
      (await put(organization.id, body(['enforced.example'], { enforced: false }))).statusCode,
    ).toBe(200);
    expect((await login(worker.email)).statusCode).toBe(200);
  });
});

describe('starting a single sign-on', () => {
  it('takes only a console path to return to, never another site or the API', async () => {
    for (const returnTo of [
      '//evil.example/x',
      '/\\evil.example',
      '/v1/me',
      'https://evil.example',
    ]) {
      const started = await t.app.inject({
        url: `/v1/auth/sso/start?email=a@b.example&return_to=${encodeURIComponent(returnTo)}`,
      });
      expect(started.statusCode, returnTo).toBe(400);
    }
  });

  it('refuses a plain-http issuer unless SSO_ALLOW_HTTP is set', async () => {
    const organization = await makeOrganization(t.db);
    const refused = await put(
      organization.id,
      body(['plain.example'], { issuer: 'http://idp.example' }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'validation_error' });
  });
});
