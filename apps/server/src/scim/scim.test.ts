import type { AddressInfo } from 'node:net';
import type { ScimTokenIssued, ScimTokenState } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../auth/auth.service.ts';
import { makeAccount, makeOrganization, makeTenant } from '../../test/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import { openStream } from '../../test/live-stream.ts';
import { SCIM_ERROR_SCHEMA } from './scim-errors.ts';
import { SCIM_REFUSALS_PER_ADDRESS } from './scim.routes.ts';

/**
 * SCIM 2.0 provisioning (issue 38) as Entra ID and Okta call it: the bodies below follow their
 * documented examples (Microsoft's "Develop a SCIM endpoint" request/response pairs, Okta's
 * "SCIM 2.0 protocol reference"), with email userNames as this console requires.
 */
let t: TestApp;
let base: string;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const tokenUrl = (id: string) => `/v1/admin/organizations/${id}/scim-token`;

/** An organisation with a SCIM token: what most tests start from. */
async function directory(name = 'Entra ID', defaultRole?: 'client' | 'auditor') {
  const organization = await makeOrganization(t.db);
  if (defaultRole) {
    const sso = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/organizations/${organization.id}/sso`,
      headers: admin.headers,
      payload: {
        protocol: 'oidc',
        issuer: 'https://login.example.com',
        client_id: 'console',
        client_secret: 'provider-secret-1',
        email_domains: [`${crypto.randomUUID()}.example.com`],
        enforced: false,
        jit: false,
        default_role: defaultRole,
      },
    });
    expect(sso.statusCode, sso.body).toBe(200);
  }
  const issued = await t.app.inject({
    method: 'POST',
    url: tokenUrl(organization.id),
    headers: admin.headers,
    payload: { name },
  });
  expect(issued.statusCode, issued.body).toBe(201);
  const { token } = issued.json<ScimTokenIssued>();
  const scim = (
    method: string,
    url: string,
    payload?: object,
    contentType = 'application/scim+json',
  ) =>
    t.app.inject({
      method: method as 'GET',
      url: `/scim/v2${url}`,
      headers: { ...bearer(token), ...(payload ? { 'content-type': contentType } : {}) },
      ...(payload ? { payload: JSON.stringify(payload) } : {}),
    });
  return { organization, token, scim };
}

const email = (who: string) => `${who}.${crypto.randomUUID().slice(0, 8)}@corp.example.com`;

const entraUser = (userName: string) => ({
  schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
  externalId: crypto.randomUUID(),
  userName,
  active: true,
  emails: [{ primary: true, type: 'work', value: userName }],
  meta: { resourceType: 'User' },
  name: { formatted: 'Ana Ivanova', familyName: 'Ivanova', givenName: 'Ana' },
  roles: [],
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Safety' },
});

const oktaUser = (userName: string) => ({
  schemas: [USER],
  userName,
  name: { givenName: 'Test', familyName: 'User' },
  emails: [{ primary: true, value: userName, type: 'work' }],
  displayName: 'Test User',
  locale: 'en-US',
  externalId: '00ujl29u0le5T6Aj10h7',
  groups: [],
  password: '1mz050nq',
  active: true,
});

async function accountOf(id: string) {
  return t.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function scimEvents(accountId: string) {
  return t.db
    .selectFrom('audit_events')
    .selectAll()
    .where('target_id', '=', accountId)
    .where('actor_type', '=', 'scim_token')
    .orderBy('seq')
    .execute();
}

describe('the SCIM token', () => {
  it('is shown once, kept hashed, rotated and revoked by a platform admin, audited', async () => {
    const organization = await makeOrganization(t.db);
    const none = await t.app.inject({ url: tokenUrl(organization.id), headers: admin.headers });
    expect(none.json<ScimTokenState>()).toMatchObject({ exists: false, name: null });
    expect(none.json<ScimTokenState>().base_url).toMatch(/\/scim\/v2$/);

    const issue = () =>
      t.app.inject({
        method: 'POST',
        url: tokenUrl(organization.id),
        headers: admin.headers,
        payload: { name: 'Okta' },
      });
    const first = (await issue()).json<ScimTokenIssued>();
    const state = await t.app.inject({ url: tokenUrl(organization.id), headers: admin.headers });
    expect(state.json()).toMatchObject({ exists: true, name: 'Okta', last_used_at: null });
    expect(state.body).not.toContain(first.token);
    const row = await t.db
      .selectFrom('scim_tokens')
      .selectAll()
      .where('organization_id', '=', organization.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(first.token);

    const config = (token: string) =>
      t.app.inject({ url: '/scim/v2/ServiceProviderConfig', headers: bearer(token) });
    expect((await config(first.token)).statusCode).toBe(200);
    const used = await t.app.inject({ url: tokenUrl(organization.id), headers: admin.headers });
    expect(used.json<ScimTokenState>().last_used_at).not.toBeNull();

    const second = (await issue()).json<ScimTokenIssued>();
    expect((await config(first.token)).statusCode).toBe(401);
    expect((await config(second.token)).statusCode).toBe(200);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: tokenUrl(organization.id),
      headers: admin.headers,
    });
    expect(revoked.statusCode).toBe(200);
    expect((await config(second.token)).statusCode).toBe(401);
    const again = await t.app.inject({
      method: 'DELETE',
      url: tokenUrl(organization.id),
      headers: admin.headers,
    });
    expect(again.statusCode).toBe(404);

    const events = await t.db
      .selectFrom('audit_events')
      .select(['action', 'changes', 'actor_email'])
      .where('organization_id', '=', organization.id)
      .where('target_type', '=', 'scim_token')
      .orderBy('seq')
      .execute();
    expect(events.map((event) => event.action)).toEqual([
      'sso.scim_token_issued',
      'sso.scim_token_issued',
      'sso.scim_token_revoked',
    ]);
    const logged = JSON.stringify(events);
    expect(logged).not.toContain(first.token);
    expect(logged).not.toContain(row.token_hash);
  });

  it('is the platform admin’s: staff are refused, an unknown organisation is 404', async () => {
    const staff = await makeTenant(t);
    const refused = await t.app.inject({
      method: 'POST',
      url: tokenUrl(staff.organization.id),
      headers: staff.headers,
      payload: {},
    });
    expect(refused.statusCode).toBe(403);
    const missing = await t.app.inject({
      method: 'POST',
      url: tokenUrl(crypto.randomUUID()),
      headers: admin.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('SCIM discovery and refusals', () => {
  it('answers the discovery documents in application/scim+json', async () => {
    const { scim } = await directory();
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.statusCode).toBe(200);
    expect(config.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect(config.json()).toMatchObject({ patch: { supported: true }, bulk: { supported: false } });
    const types = await scim('GET', '/ResourceTypes');
    expect(types.json()).toMatchObject({ totalResults: 1, Resources: [{ id: 'User' }] });
    const schemas = await scim('GET', '/Schemas');
    expect(schemas.json()).toMatchObject({ Resources: [{ id: USER }] });
    expect((await scim('GET', `/Schemas/${USER}`)).statusCode).toBe(200);
  });

  it('refuses a missing or unknown token with 401 in the SCIM error form', async () => {
    for (const headers of [{}, bearer('not-a-token')]) {
      const answer = await t.app.inject({ url: '/scim/v2/Users', headers });
      expect(answer.statusCode).toBe(401);
      expect(answer.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(answer.json()).toEqual({
        schemas: [SCIM_ERROR_SCHEMA],
        status: '401',
        detail: expect.any(String),
      });
    }
  });

  it('slows an address that keeps sending refused tokens (429)', async () => {
    const call = () =>
      t.app.inject({
        url: '/scim/v2/Users',
        headers: bearer('guess'),
        remoteAddress: '203.0.113.9',
      });
    for (let i = 0; i < SCIM_REFUSALS_PER_ADDRESS; i += 1)
      expect((await call()).statusCode).toBe(401);
    const limited = await call();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toMatchObject({ schemas: [SCIM_ERROR_SCHEMA], status: '429' });
  });

  it('answers 400 invalidFilter and invalidValue', async () => {
    const { scim } = await directory();
    const filter = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('name.familyName co "x"')}`,
    );
    expect(filter.statusCode).toBe(400);
    expect(filter.json()).toMatchObject({ status: '400', scimType: 'invalidFilter' });
    const notEmail = await scim('POST', '/Users', { schemas: [USER], userName: 'not an email' });
    expect(notEmail.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const created = (await scim('POST', '/Users', entraUser(email('flag')))).json<{ id: string }>();
    const badActive = await scim('PATCH', `/Users/${created.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'maybe' }],
    });
    expect(badActive.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const badOp = await scim('PATCH', `/Users/${created.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'move', path: 'active', value: true }],
    });
    expect(badOp.statusCode).toBe(400);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { ...bearer((await directory()).token), 'content-type': 'application/scim+json' },
      payload: '{"userName":',
    });
    expect(notJson.json()).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
  });
});

describe('Entra ID provisioning', () => {
  it('looks up, creates, updates, disables and enables a user', async () => {
    const { scim, organization } = await directory('Entra ID', 'auditor');
    const userName = email('ana');
    const lookup = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`,
    );
    expect(lookup.json()).toMatchObject({ totalResults: 0, Resources: [] });

    const body = entraUser(userName);
    const created = await scim('POST', '/Users', body);
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json<{ id: string; meta: { location: string } }>();
    expect(created.headers.location).toBe(user.meta.location);
    expect(created.json()).toMatchObject({
      schemas: [USER],
      userName,
      externalId: body.externalId,
      name: { givenName: 'Ana', familyName: 'Ivanova' },
      active: true,
    });
    const account = await accountOf(user.id);
    expect(account).toMatchObject({
      organization_id: organization.id,
      role: 'auditor',
      active: true,
      email: userName,
    });

    const byExternalId = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`externalId eq "${body.externalId}"`)}`,
    );
    expect(byExternalId.json()).toMatchObject({ totalResults: 1, Resources: [{ id: user.id }] });
    const byUserName = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}`,
    );
    expect(byUserName.json()).toMatchObject({ totalResults: 1 });

    const renamed = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: userName },
        { op: 'Replace', path: 'name.familyName', value: 'Petrova' },
        { op: 'Add', path: 'displayName', value: 'Ana Petrova' },
      ],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: { givenName: 'Ana', familyName: 'Petrova' },
      displayName: 'Ana Petrova',
    });

    // Entra sends booleans as strings ("False") unless told otherwise.
    const session = await issueToken(t, user.id);
    const disabled = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.json()).toMatchObject({ active: false });
    const after = await t.app.inject({ url: '/v1/me', headers: bearer(session.token) });
    expect(after.statusCode).toBe(401);
    expect(await accountOf(user.id)).toMatchObject({ active: false, role: 'auditor' });

    const enabled = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    });
    expect(enabled.json()).toMatchObject({ active: true });

    const events = await scimEvents(user.id);
    expect(events.map((event) => event.action)).toEqual([
      'account.created',
      'account.updated',
      'account.updated',
      'account.updated',
    ]);
    expect(events[0]).toMatchObject({ actor_email: 'Entra ID', actor_role: null });
    expect(events[2]!.changes).toEqual({ active: [true, false] });
  });

  it('takes operations without a path, in any letter case, with dotted keys', async () => {
    const { scim } = await directory();
    const user = (await scim('POST', '/Users', entraUser(email('boris')))).json<{ id: string }>();
    const patched = await scim('PATCH', `/Users/${user.id}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'REPLACE', value: { 'name.givenName': 'Boris', displayName: 'Boris I.' } },
        { op: 'add', value: { name: { familyName: 'Ivanov' }, title: 'Engineer' } },
        { op: 'Remove', path: 'externalId' },
        {
          op: 'replace',
          path: 'urn:ietf:params:scim:schemas:core:2.0:User:active',
          value: false,
        },
      ],
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const answer = patched.json<Record<string, unknown>>();
    expect(answer).toMatchObject({
      name: { givenName: 'Boris', familyName: 'Ivanov' },
      displayName: 'Boris I.',
      active: false,
    });
    expect(answer.externalId).toBeUndefined();
  });
});

describe('Okta provisioning', () => {
  it('looks up, creates, reads, replaces and deactivates a user', async () => {
    const { scim } = await directory('Okta');
    const userName = email('test.user');
    const query = `filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`;
    expect((await scim('GET', `/Users?${query}`)).json()).toMatchObject({ totalResults: 0 });
    // Okta may send JSON as application/json too.
    const created = await scim('POST', '/Users', oktaUser(userName), 'application/json');
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
    expect(await accountOf(id)).toMatchObject({ role: 'client', given_name: 'Test' });

    const read = await scim('GET', `/Users/${id}`);
    expect(read.json()).toMatchObject({ id, userName, displayName: 'Test User' });

    // A platform admin makes the person an auditor: the directory does not undo it.
    const promoted = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/users/${id}`,
      headers: admin.headers,
      payload: { role: 'auditor' },
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const replaced = await scim('PUT', `/Users/${id}`, {
      ...oktaUser(userName),
      id,
      name: { givenName: 'Tess', familyName: 'User' },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ name: { givenName: 'Tess' }, active: true });
    expect(await accountOf(id)).toMatchObject({ role: 'auditor' });

    const deactivated = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.json()).toMatchObject({ active: false });
    const reactivated = await scim('PUT', `/Users/${id}`, { ...oktaUser(userName), active: true });
    expect(reactivated.json()).toMatchObject({ active: true });
  });

  it('pages the list by startIndex and count', async () => {
    const { scim } = await directory('Okta');
    for (const who of ['a', 'b', 'c']) {
      expect((await scim('POST', '/Users', oktaUser(email(who)))).statusCode).toBe(201);
    }
    const page = await scim('GET', '/Users?startIndex=2&count=2');
    expect(page.json()).toMatchObject({ totalResults: 3, startIndex: 2, itemsPerPage: 2 });
    const counted = await scim('GET', '/Users?count=0');
    expect(counted.json()).toMatchObject({ totalResults: 3, itemsPerPage: 0, Resources: [] });
  });
});

describe('what a directory may not do', () => {
  it('reaches no user of another organisation (404), with its own token', async () => {
    const a = await directory('A');
    const b = await directory('B');
    const user = (await a.scim('POST', '/Users', entraUser(email('a')))).json<{
      id: string;
      userName: string;
    }>();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', entraUser(user.userName)],
      [
        'PATCH',
        { schemas: [PATCH_OP], Operations: [{ op: 'replace', path: 'active', value: false }] },
      ],
      ['DELETE', undefined],
    ] as const) {
      const answer = await b.scim(method, `/Users/${user.id}`, payload);
      expect(answer.statusCode, method).toBe(404);
      expect(answer.json()).toMatchObject({ schemas: [SCIM_ERROR_SCHEMA], status: '404' });
    }
    const listed = await b.scim(
      'GET',
      `/Users?filter=${encodeURIComponent(`userName eq "${user.userName}"`)}`,
    );
    expect(listed.json()).toMatchObject({ totalResults: 0 });
    expect(await accountOf(user.id)).toMatchObject({ active: true });
  });

  it('answers 409 uniqueness for a userName taken here, elsewhere or by a platform admin', async () => {
    const { scim, organization } = await directory();
    const taken = email('taken');
    expect((await scim('POST', '/Users', entraUser(taken))).statusCode).toBe(201);
    const other = await makeAccount(t.db, { email: email('other') });
    const platformAdmin = await makeAccount(t.db, {
      email: email('root'),
      role: 'admin',
      organization_id: organization.id,
    });
    for (const userName of [taken, taken.toUpperCase(), other.email, platformAdmin.email]) {
      const answer = await scim('POST', '/Users', entraUser(userName));
      expect(answer.statusCode, userName).toBe(409);
      expect(answer.json()).toMatchObject({ status: '409', scimType: 'uniqueness' });
    }
    const mine = (await scim('POST', '/Users', entraUser(email('mine')))).json<{ id: string }>();
    const rename = await scim('PATCH', `/Users/${mine.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', path: 'userName', value: other.email }],
    });
    expect(rename.json()).toMatchObject({ status: '409', scimType: 'uniqueness' });
  });

  it('never touches a platform admin of its organisation', async () => {
    const { scim, organization } = await directory();
    const platformAdmin = await makeAccount(t.db, {
      role: 'admin',
      organization_id: organization.id,
    });
    expect((await scim('GET', `/Users/${platformAdmin.id}`)).statusCode).toBe(404);
    expect((await scim('DELETE', `/Users/${platformAdmin.id}`)).statusCode).toBe(404);
    expect((await scim('GET', '/Users')).json()).toMatchObject({ totalResults: 0 });
    expect(await accountOf(platformAdmin.id)).toMatchObject({ active: true, role: 'admin' });
  });
});

describe('deactivation', () => {
  it('by DELETE ends the console session and live stream at once; the record stays', async () => {
    const { scim } = await directory('Okta');
    const userName = email('leaver');
    const { id } = (await scim('POST', '/Users', oktaUser(userName))).json<{ id: string }>();
    const session = bearer((await issueToken(t, id)).token);
    const stream = await openStream(base, session);
    const deleted = await scim('DELETE', `/Users/${id}`);
    expect(deleted.statusCode).toBe(204);
    const at = Date.now();
    await stream.ended;
    expect(Date.now() - at).toBeLessThan(2000);
    expect((await t.app.inject({ url: '/v1/me', headers: session })).statusCode).toBe(401);
    // Still there, deactivated: history, signatures and audit events keep pointing at it.
    expect(await accountOf(id)).toMatchObject({ active: false, email: userName });
    expect((await scim('GET', `/Users/${id}`)).json()).toMatchObject({ active: false });
    const events = await scimEvents(id);
    expect(events.at(-1)).toMatchObject({ action: 'account.updated', actor_email: 'Okta' });
  });
});
