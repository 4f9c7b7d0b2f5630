import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../auth/auth.service.ts';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  makeAccount,
  makeOrganization,
  makeSession,
  makeTenant,
  TEST_PASSWORD,
} from '../../test/factories.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin', organizationName: 'Platform' });
});
afterAll(() => t.close());

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const request = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: admin.headers, ...(payload ? { payload } : {}) });

const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });

const me = (headers: Record<string, string>) => t.app.inject({ url: '/v1/me', headers });

describe('POST /v1/admin/users', () => {
  it('creates an account that can sign in, with an argon2id password hash', async () => {
    const organization = await makeOrganization(t.db, { name: 'Acme' });
    const response = await request('POST', '/v1/admin/users', {
      email: 'New.Staff@acme.test',
      password: 'secret-888',
      role: 'client',
      organization_id: organization.id,
    });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toEqual({
      id: expect.any(String),
      email: 'New.Staff@acme.test',
      role: 'client',
      organization_id: organization.id,
      organization_name: 'Acme',
      active: true,
      sso_exempt: false,
      mfa_enabled: false,
      created_at: t.clock.now().toISOString(),
    });
    const stored = await t.db
      .selectFrom('accounts')
      .select('password_hash')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    const signedIn = await login('new.staff@acme.test', 'secret-888');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ role: 'client', organization_name: 'Acme' });
  });

  it('refuses an email already in use, whatever its case', async () => {
    const existing = await makeAccount(t.db, { email: 'taken@example.com' });
    const response = await request('POST', '/v1/admin/users', {
      email: 'TAKEN@Example.com',
      password: 'secret-888',
      role: 'admin',
      organization_id: existing.organization_id,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'email_taken',
      message: 'An account with this email already exists',
    });
  });

  it('validates the body, naming the field', async () => {
    const organizationId = admin.organization.id;
    const valid = {
      email: 'v@example.com',
      password: 'secret-888',
      role: 'client',
      organization_id: organizationId,
    };
    const cases = [
      [{ ...valid, password: '1234567' }, 'body.password must NOT have fewer than 8 characters'],
      [{ ...valid, email: 'not-an-email' }, 'body.email must be a valid email'],
      [{ ...valid, email: `${'a'.repeat(250)}@example.com` }, 'body.email'],
      [{ ...valid, role: 'root' }, 'body.role'],
      [{ ...valid, organization_id: 'x' }, 'body.organization_id must be a valid uuid'],
      [
        { ...valid, organization_id: UNKNOWN_ID },
        'body.organization_id does not match any organization',
      ],
      [{ ...valid, active: true }, 'body.active is not allowed'],
      [
        { email: valid.email, password: valid.password, role: 'client' },
        'body.organization_id is required',
      ],
    ] as const;
    for (const [payload, message] of cases) {
      const response = await request('POST', '/v1/admin/users', payload);
      expect(response.statusCode, message).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'validation_error',
        message: expect.stringContaining(message),
      });
    }
    const none = await t.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', valid.email)
      .execute();
    expect(none).toEqual([]);
  });
});

describe('GET /v1/admin/users', () => {
  it('lists accounts with their organisation, filtered by organisation, role and email', async () => {
    const org = await makeOrganization(t.db, { name: 'Filter Org' });
    const alice = await makeAccount(t.db, {
      email: 'alice@filter.test',
      organization_id: org.id,
      role: 'admin',
    });
    const bob = await makeAccount(t.db, { email: 'Bob_100%@filter.test', organization_id: org.id });
    await makeAccount(t.db, { email: 'carol@elsewhere.test' });

    const byOrg = await request('GET', `/v1/admin/users?organization_id=${org.id}`);
    expect(byOrg.statusCode).toBe(200);
    expect(byOrg.json().users).toEqual([
      {
        id: alice.id,
        email: 'alice@filter.test',
        role: 'admin',
        organization_id: org.id,
        organization_name: 'Filter Org',
        active: true,
        sso_exempt: false,
        mfa_enabled: false,
        created_at: alice.created_at.toISOString(),
      },
      expect.objectContaining({ id: bob.id, email: 'Bob_100%@filter.test', role: 'client' }),
    ]);

    const clients = (
      await request('GET', `/v1/admin/users?organization_id=${org.id}&role=client`)
    ).json();
    expect(clients.users.map((u: { id: string }) => u.id)).toEqual([bob.id]);

    const search = (await request('GET', '/v1/admin/users?q=FILTER.TEST')).json();
    expect(search.users.map((u: { id: string }) => u.id)).toEqual([alice.id, bob.id]);
    // The search text is literal: % and _ are not wildcards.
    const literal = (
      await request('GET', `/v1/admin/users?q=${encodeURIComponent('_100%')}`)
    ).json();
    expect(literal.users.map((u: { id: string }) => u.id)).toEqual([bob.id]);
    const wildcard = (
      await request('GET', `/v1/admin/users?q=${encodeURIComponent('a%e')}`)
    ).json();
    expect(wildcard.users).toEqual([]);
    const nul = await request('GET', '/v1/admin/users?q=%00');
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({
      error: 'validation_error',
      message:
        'querystring.q contains a character that cannot be stored (NUL or an unpaired surrogate)',
      details: { field: 'querystring.q', rule: 'storable' },
    });

    const all = (await request('GET', '/v1/admin/users')).json();
    expect(all.users.length).toBeGreaterThanOrEqual(4);
  });

  it('validates the filters', async () => {
    for (const [query, message] of [
      ['role=root', 'querystring.role'],
      ['organization_id=abc', 'querystring.organization_id must be a valid uuid'],
      [`q=${'x'.repeat(201)}`, 'querystring.q must NOT have more than 200 characters'],
      [
        'sort=password',
        'querystring.sort must be one of: email, role, organization_name, active, created_at',
      ],
      ['page=2', 'querystring.page is not allowed'],
    ] as const) {
      const response = await request('GET', `/v1/admin/users?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message).toContain(message);
    }
  });
});

describe('GET /v1/admin/users/:id', () => {
  it('reads one account, 404 when unknown, 400 when not a uuid', async () => {
    const account = await makeAccount(t.db);
    const response = await request('GET', `/v1/admin/users/${account.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: account.id, email: account.email });
    const unknown = await request('GET', `/v1/admin/users/${UNKNOWN_ID}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'User not found' });
    expect((await request('GET', '/v1/admin/users/1')).statusCode).toBe(400);
  });
});

describe('PUT /v1/admin/users/:id', () => {
  it('changes email, role and organisation', async () => {
    const account = await makeAccount(t.db);
    const target = await makeOrganization(t.db, { name: 'Target Org' });
    const response = await request('PUT', `/v1/admin/users/${account.id}`, {
      email: 'moved@example.com',
      role: 'admin',
      organization_id: target.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: account.id,
      email: 'moved@example.com',
      role: 'admin',
      organization_id: target.id,
      organization_name: 'Target Org',
      active: true,
    });
    // Keeping its own email (in another case) is not a conflict.
    const sameEmail = await request('PUT', `/v1/admin/users/${account.id}`, {
      email: 'MOVED@example.com',
    });
    expect(sameEmail.statusCode).toBe(200);
    expect(sameEmail.json().email).toBe('MOVED@example.com');
  });

  it('refuses another account’s email, unknown organisations, bad input and unknown ids', async () => {
    const account = await makeAccount(t.db);
    const other = await makeAccount(t.db, { email: 'Other.Person@example.com' });
    const taken = await request('PUT', `/v1/admin/users/${account.id}`, {
      email: 'other.person@example.com',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('email_taken');
    const noOrg = await request('PUT', `/v1/admin/users/${account.id}`, {
      organization_id: UNKNOWN_ID,
    });
    expect(noOrg.statusCode).toBe(400);
    expect(noOrg.json().message).toBe('body.organization_id does not match any organization');
    for (const [payload, message] of [
      [{ active: 'no' }, 'body.active'],
      [{ role: 'owner' }, 'body.role'],
      [{ email: 'x' }, 'body.email must be a valid email'],
      [{ password: 'secret-888' }, 'body.password is not allowed'],
    ] as const) {
      const response = await request('PUT', `/v1/admin/users/${account.id}`, payload);
      expect(response.statusCode, message).toBe(400);
      expect(response.json().message).toContain(message);
    }
    expect(
      (await request('PUT', `/v1/admin/users/${UNKNOWN_ID}`, { active: true })).statusCode,
    ).toBe(404);
    const unchanged = await t.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    expect(unchanged.email).toBe(account.email);
    expect(other.email).toBe('Other.Person@example.com');
  });

  it('deactivation ends the account’s sign-ins at once, and reactivation does not revive them', async () => {
    const member = await makeTenant(t);
    expect((await me(member.headers)).statusCode).toBe(200);
    const off = await request('PUT', `/v1/admin/users/${member.account.id}`, { active: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().active).toBe(false);
    expect((await me(member.headers)).statusCode).toBe(401);
    expect((await login(member.account.email, TEST_PASSWORD)).statusCode).toBe(403);

    const on = await request('PUT', `/v1/admin/users/${member.account.id}`, { active: true });
    expect(on.json().active).toBe(true);
    expect((await me(member.headers)).statusCode).toBe(401);
    const again = await login(member.account.email, TEST_PASSWORD);
    expect(again.statusCode).toBe(200);
    expect((await me(bearer(again.json().token))).statusCode).toBe(200);
  });

  it('an admin cannot deactivate or demote their own account, nor move it into an inactive organisation', async () => {
    const self = await makeTenant(t, { role: 'admin' });
    const ownUrl = `/v1/admin/users/${self.account.id}`;
    const put = (payload: object) =>
      t.app.inject({ method: 'PUT', url: ownUrl, headers: self.headers, payload });

    const deactivate = await put({ active: false });
    expect(deactivate.statusCode).toBe(409);
    expect(deactivate.json()).toEqual({
      error: 'cannot_modify_self',
      message: 'You cannot deactivate your own account.',
    });
    const demote = await put({ role: 'client' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({
      error: 'cannot_modify_self',
      message: 'You cannot remove the admin role from your own account.',
    });
    const inactive = await makeOrganization(t.db, { active: false });
    const move = await put({ organization_id: inactive.id });
    expect(move.statusCode).toBe(409);
    expect(move.json().error).toBe('cannot_modify_self');

    const stored = await t.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', self.account.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      active: true,
      role: 'admin',
      organization_id: self.organization.id,
    });
    expect((await me(self.headers)).statusCode).toBe(200);

    // What does not lock them out is allowed.
    const fine = await put({
      email: `renamed-${self.account.id}@example.com`,
      role: 'admin',
      active: true,
    });
    expect(fine.statusCode).toBe(200);
  });
});

describe('DELETE /v1/admin/users/:id', () => {
  it('removes the account and its tokens; its sessions keep started_by_email', async () => {
    const member = await makeTenant(t);
    const session = await makeSession(t.db, {
      organizationId: member.organization.id,
      startedByEmail: member.account.email,
    });
    await t.db
      .updateTable('sessions')
      .set({ started_by_account_id: member.account.id })
      .where('id', '=', session.id)
      .execute();

    const response = await request('DELETE', `/v1/admin/users/${member.account.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect((await me(member.headers)).statusCode).toBe(401);
    expect((await request('GET', `/v1/admin/users/${member.account.id}`)).statusCode).toBe(404);
    const tokens = await t.db
      .selectFrom('auth_tokens')
      .select('id')
      .where('account_id', '=', member.account.id)
      .execute();
    expect(tokens).toEqual([]);
    const kept = await t.db
      .selectFrom('sessions')
      .select(['started_by_email', 'started_by_account_id'])
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ started_by_email: member.account.email, started_by_account_id: null });

    expect((await request('DELETE', `/v1/admin/users/${member.account.id}`)).statusCode).toBe(404);
    expect((await request('DELETE', '/v1/admin/users/xyz')).statusCode).toBe(400);
  });

  it('an admin cannot delete their own account', async () => {
    const response = await request('DELETE', `/v1/admin/users/${admin.account.id}`);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'cannot_delete_self',
      message: 'You cannot delete your own account.',
    });
    expect((await me(admin.headers)).statusCode).toBe(200);
  });
});

describe('POST /v1/admin/users/:id/password', () => {
  it('sets the password and revokes the account’s tokens', async () => {
    const member = await makeTenant(t);
    const second = await issueToken(t, member.account.id);
    const response = await request('POST', `/v1/admin/users/${member.account.id}/password`, {
      new_password: 'brand-new',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    expect((await me(member.headers)).statusCode).toBe(401);
    expect((await me(bearer(second.token))).statusCode).toBe(401);
    expect((await login(member.account.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(member.account.email, 'brand-new')).statusCode).toBe(200);
  });

  it('keeps the caller’s current token when admins change their own password', async () => {
    const self = await makeTenant(t, { role: 'admin' });
    const elsewhere = await issueToken(t, self.account.id);
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/users/${self.account.id}/password`,
      headers: self.headers,
      payload: { new_password: 'my-new-secret' },
    });
    expect(response.statusCode).toBe(200);
    expect((await me(self.headers)).statusCode).toBe(200);
    expect((await me(bearer(elsewhere.token))).statusCode).toBe(401);
    expect((await login(self.account.email, 'my-new-secret')).statusCode).toBe(200);
  });

  it('validates the body and answers 404 for unknown accounts', async () => {
    const account = await makeAccount(t.db);
    const url = `/v1/admin/users/${account.id}/password`;
    for (const [payload, message] of [
      [{ new_password: '1234567' }, 'body.new_password must NOT have fewer than 8 characters'],
      [{}, 'body.new_password is required'],
      [
        { new_password: 'x'.repeat(201) },
        'body.new_password must NOT have more than 200 characters',
      ],
      [{ new_password: 'secret-888', old_password: 'a' }, 'body.old_password is not allowed'],
    ] as const) {
      const response = await request('POST', url, payload);
      expect(response.statusCode, message).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const unknown = await request('POST', `/v1/admin/users/${UNKNOWN_ID}/password`, {
      new_password: 'secret-888',
    });
    expect(unknown.statusCode).toBe(404);
    expect((await login(account.email, TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe('access', () => {
  it('is admin-only on every route', async () => {
    const client = await makeTenant(t);
    const id = client.account.id;
    const routes = [
      ['GET', '/v1/admin/users', undefined],
      [
        'POST',
        '/v1/admin/users',
        {
          email: 'x@example.com',
          password: 'secret-888',
          role: 'admin',
          organization_id: client.organization.id,
        },
      ],
      ['GET', `/v1/admin/users/${id}`, undefined],
      ['PUT', `/v1/admin/users/${id}`, { role: 'admin' }],
      ['DELETE', `/v1/admin/users/${id}`, undefined],
      ['POST', `/v1/admin/users/${id}/password`, { new_password: 'secret-888' }],
    ] as const;
    for (const [method, url, payload] of routes) {
      const response = await t.app.inject({
        method,
        url,
        headers: client.headers,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error).toBe('forbidden');
      expect(
        (await t.app.inject({ method, url, ...(payload ? { payload } : {}) })).statusCode,
      ).toBe(401);
    }
    const stored = await t.db
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.role).toBe('client');
    expect((await me(client.headers)).statusCode).toBe(200);
  });
});
