import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import { makeAccount, makeOrganization, makeTenant, TEST_PASSWORD } from '../../test/factories.ts';
import {
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT,
  LOGIN_SLOW_AFTER_ACCOUNT_FAILURES,
} from './auth.service.ts';

let t: TestApp;
beforeAll(async () => {
  // Sign-ins past an account's threshold wait this long (sign-in-limits.test.ts tests the wait).
  t = await createTestApp({ config: { loginSlowDelayMs: 20 } });
});
afterAll(() => t.close());

const login = (email: string, password: string, remoteAddress = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    payload: { email, password },
    remoteAddress,
  });

describe('POST /v1/auth/login', () => {
  it('returns a token and the profile, and the token opens /v1/me', async () => {
    const organization = await makeOrganization(t.db, { name: 'Acme Training' });
    const account = await makeAccount(t.db, {
      email: 'Staff@Acme.test',
      organization_id: organization.id,
    });

    const response = await login('staff@acme.test', TEST_PASSWORD);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      email: 'Staff@Acme.test',
      role: 'client',
      organization_id: organization.id,
      organization_name: 'Acme Training',
    });
    expect(body.token).toMatch(/^[\w-]{40,}$/);

    const me = await t.app.inject({ url: '/v1/me', headers: bearer(body.token) });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      id: account.id,
      email: 'Staff@Acme.test',
      role: 'client',
      organization_id: organization.id,
      organization_name: 'Acme Training',
    });
  });

  it('stores only a hash of the token', async () => {
    const account = await makeAccount(t.db);
    const { token } = (await login(account.email, TEST_PASSWORD)).json();
    const stored = await t.db.selectFrom('auth_tokens').select('token_hash').execute();
    expect(stored.some((row) => row.token_hash === token)).toBe(false);
  });

  it('answers the same for an unknown email and a wrong password', async () => {
    const account = await makeAccount(t.db);
    const unknown = await login('nobody@example.com', 'whatever1', '10.0.0.2');
    const wrong = await login(account.email, 'wrong-password', '10.0.0.2');
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.json()).toEqual({
      error: 'invalid_credentials',
      message: 'Invalid email or password',
    });
  });

  it('validates the body', async () => {
    const missing = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'a@b.c' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'validation_error',
      message: 'body.password is required',
      details: { field: 'body.password', rule: 'required' },
    });
    const empty = await login('', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('body.email');
  });

  /** `count` wrong passwords at once, each from the address `addressOf(i)` gives. */
  const guesses = (email: string, count: number, addressOf: (i: number) => string) =>
    Promise.all(
      Array.from({ length: count }, (_, i) => login(email, `guess-${i}`, addressOf(i))),
    ).then((answers) => answers.map((answer) => answer.statusCode));
  const countOf = (statuses: number[], status: number) =>
    statuses.filter((s) => s === status).length;

  it('limits one address guessing one account strictly, without locking the account elsewhere', async () => {
    const account = await makeAccount(t.db);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT; i++) {
      expect((await login(account.email, 'bad-password', '10.1.0.1')).statusCode).toBe(401);
    }
    const limited = await login(account.email, TEST_PASSWORD, '10.1.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    // The window opened with the first failure, at this same instant of the test clock.
    expect(limited.headers['retry-after']).toBe(String(15 * 60));

    // A flood from that address, well past the loose per-account limit, is refused by the strict
    // one and so never counts against the account: its owner signs in from elsewhere.
    const flood = await guesses(
      account.email,
      LOGIN_SLOW_AFTER_ACCOUNT_FAILURES * 2,
      () => '10.1.0.1',
    );
    expect(countOf(flood, 429)).toBe(flood.length);
    expect((await login(account.email, TEST_PASSWORD, '10.1.0.2')).statusCode).toBe(200);

    t.clock.advance(16 * 60 * 1000);
    expect((await login(account.email, TEST_PASSWORD, '10.1.0.1')).statusCode).toBe(200);
  });

  it('never refuses the right password for failures on the account from many addresses', async () => {
    const account = await makeAccount(t.db);
    // Each address stays under its strict limit; together they pass the account's threshold.
    const spread = await guesses(
      account.email,
      LOGIN_SLOW_AFTER_ACCOUNT_FAILURES + 5,
      (i) => `10.6.0.${i}`,
    );
    expect(countOf(spread, 401)).toBe(LOGIN_SLOW_AFTER_ACCOUNT_FAILURES + 5);
    expect((await login(account.email, TEST_PASSWORD, '10.6.9.9')).statusCode).toBe(200);
  });

  it('rate-limits failed logins per client address across accounts, loosely', async () => {
    const answers = await Promise.all(
      Array.from({ length: LOGIN_MAX_FAILURES_PER_ADDRESS }, (_, i) =>
        login(`guess-${i}@example.com`, 'bad-password', '10.9.9.9'),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 401)).toBe(true);
    const account = await makeAccount(t.db);
    expect((await login(account.email, TEST_PASSWORD, '10.9.9.9')).statusCode).toBe(429);
    expect((await login(account.email, TEST_PASSWORD, '10.9.9.8')).statusCode).toBe(200);
  });

  it('evaluates at most the strict limit of a burst of parallel guesses from one address on one account', async () => {
    const account = await makeAccount(t.db);
    const statuses = await guesses(account.email, 30, () => '10.3.3.3');
    expect(countOf(statuses, 401)).toBe(LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT);
    expect(countOf(statuses, 429)).toBe(30 - LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT);
  });

  it('slows, never refuses, a burst of parallel guesses for one account from many addresses', async () => {
    const account = await makeAccount(t.db);
    const burst = LOGIN_SLOW_AFTER_ACCOUNT_FAILURES + 10;
    const statuses = await guesses(
      account.email,
      burst,
      (i) => `10.3.${Math.floor(i / 200)}.${i % 200}`,
    );
    expect(countOf(statuses, 401)).toBe(burst);
  });

  it('evaluates at most the limit of a burst of parallel guesses from one address', async () => {
    const burst = LOGIN_MAX_FAILURES_PER_ADDRESS + 20;
    const answers = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        login(`burst-${i}@example.com`, 'bad-password', '10.4.4.4'),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(countOf(statuses, 401)).toBe(LOGIN_MAX_FAILURES_PER_ADDRESS);
    expect(countOf(statuses, 429)).toBe(burst - LOGIN_MAX_FAILURES_PER_ADDRESS);
    for (const answer of answers.filter((a) => a.statusCode === 429)) {
      expect(answer.headers['retry-after']).toBe(String(15 * 60));
    }
  });

  it('does not count successful sign-ins against the address', async () => {
    const account = await makeAccount(t.db);
    // In fours (under the strict limit: a sign-in is counted before it is known to be right).
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS + 5; i += 4) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => login(account.email, TEST_PASSWORD, '10.5.5.5')),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    }
  });

  it('refuses deactivated accounts and accounts of deactivated organisations', async () => {
    const inactive = await makeAccount(t.db, { active: false });
    expect((await login(inactive.email, TEST_PASSWORD, '10.2.0.1')).statusCode).toBe(403);
    const organization = await makeOrganization(t.db, { active: false });
    const member = await makeAccount(t.db, { organization_id: organization.id });
    expect((await login(member.email, TEST_PASSWORD, '10.2.0.1')).statusCode).toBe(403);
  });
});

describe('tokens', () => {
  it('are required, and unknown ones are refused', async () => {
    expect((await t.app.inject({ url: '/v1/me' })).statusCode).toBe(401);
    const bad = await t.app.inject({ url: '/v1/me', headers: bearer('not-a-token') });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error).toBe('unauthorized');
  });

  it('stop working after logout', async () => {
    const tenant = await makeTenant(t);
    const out = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: tenant.headers,
    });
    expect(out.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/v1/me', headers: tenant.headers })).statusCode).toBe(401);
  });

  it('expire', async () => {
    const tenant = await makeTenant(t);
    t.clock.advance(t.config.tokenTtlMs + 1000);
    expect((await t.app.inject({ url: '/v1/me', headers: tenant.headers })).statusCode).toBe(401);
  });

  it('stop working at once when the account or its organisation is deactivated', async () => {
    const a = await makeTenant(t);
    await t.db
      .updateTable('accounts')
      .set({ active: false })
      .where('id', '=', a.account.id)
      .execute();
    expect((await t.app.inject({ url: '/v1/me', headers: a.headers })).statusCode).toBe(401);

    const b = await makeTenant(t);
    await t.db
      .updateTable('organizations')
      .set({ active: false })
      .where('id', '=', b.organization.id)
      .execute();
    expect((await t.app.inject({ url: '/v1/vr-users', headers: b.headers })).statusCode).toBe(401);
  });
});

describe('behind a reverse proxy', () => {
  const proxied = (app: TestApp, email: string, client: string) =>
    app.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email, password: 'bad-password' },
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': client },
    });

  // Built in a hook (its own timeout), not in the test: on a loaded machine the app's start alone
  // took half the test's 30 s.
  let behindNginx: TestApp;
  beforeAll(async () => {
    behindNginx = await createTestApp({ config: { trustProxy: ['127.0.0.1'] } });
  });
  afterAll(() => behindNginx.close());

  it('keys the address limit on the client named by a trusted proxy (TRUST_PROXY)', async () => {
    const failures = await Promise.all(
      Array.from({ length: LOGIN_MAX_FAILURES_PER_ADDRESS }, (_, i) =>
        proxied(behindNginx, `p-${i}@example.com`, '203.0.113.7'),
      ),
    );
    expect(failures.every((answer) => answer.statusCode === 401)).toBe(true);
    expect((await proxied(behindNginx, 'p-x@example.com', '203.0.113.7')).statusCode).toBe(429);
    // Another client behind the same proxy is not punished for the first one.
    expect((await proxied(behindNginx, 'p-y@example.com', '203.0.113.8')).statusCode).toBe(401);
  });

  it('ignores X-Forwarded-For by default, so a client cannot pick a fresh address per guess', async () => {
    await Promise.all(
      Array.from({ length: LOGIN_MAX_FAILURES_PER_ADDRESS }, (_, i) =>
        proxied(t, `spoof-${i}@example.com`, `198.51.${Math.floor(i / 200)}.${i % 200}`),
      ),
    );
    expect((await proxied(t, 'spoof-x@example.com', '198.51.100.250')).statusCode).toBe(429);
  });
});

describe('caching', () => {
  it('forbids caches to keep API answers, the sign-in above all', async () => {
    const account = await makeAccount(t.db);
    const signedIn = await login(account.email, TEST_PASSWORD, '10.6.6.6');
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    const me = await t.app.inject({ url: '/v1/me', headers: bearer(signedIn.json().token) });
    expect(me.headers['cache-control']).toBe('no-store');
    const refused = await t.app.inject({ url: '/v1/me' });
    expect(refused.headers['cache-control']).toBe('no-store');
    const headset = await t.app.inject({ method: 'POST', url: '/v1/headset/heartbeat' });
    expect(headset.statusCode).toBe(401);
    expect(headset.headers['cache-control']).toBe('no-store');
  });
});
