import * as OTPAuth from 'otpauth';
import { sql } from 'kysely';
import type { AuditEventPage, LoginAnswer, MfaChallenge, RecoveryCodes } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import { makeAccount, makeTenant, TEST_PASSWORD } from '../../test/factories.ts';
import { LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT } from './auth.service.ts';

/**
 * Multi-factor sign-in (issue 40 item 12, decision 031): an account with an authenticator app
 * signs in in two steps; codes are computed here from the secret the enrolment showed, on the
 * test's clock. Recovery codes work once, wrong codes are throttled as failed sign-ins, an
 * organisation can require a factor, and a platform admin's reset is audited with its reason.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

const codeOf = (secret: string, at = t.clock.now()) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: at.getTime(),
  });

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  headers: Record<string, string> = {},
  payload?: object,
  remoteAddress = '127.0.0.1',
) => t.app.inject({ method, url, headers, remoteAddress, ...(payload ? { payload } : {}) });

const login = (email: string, remoteAddress?: string) =>
  call('POST', '/v1/auth/login', {}, { email, password: TEST_PASSWORD }, remoteAddress);

/** An account signed in by bearer token, with its authenticator app enrolled and confirmed. */
async function enrolledAccount() {
  const tenant = await makeTenant(t);
  const started = await call('POST', '/v1/me/mfa/totp', tenant.headers);
  expect(started.statusCode, started.body).toBe(200);
  const { secret, otpauth_uri, qr_svg } = started.json<{
    secret: string;
    otpauth_uri: string;
    qr_svg: string;
  }>();
  expect(otpauth_uri).toContain(`secret=${secret}`);
  expect(qr_svg).toMatch(/^<svg/);
  const confirmed = await call('POST', '/v1/me/mfa/totp/confirm', tenant.headers, {
    code: codeOf(secret),
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  const { recovery_codes } = confirmed.json<RecoveryCodes>();
  return { ...tenant, secret, recoveryCodes: recovery_codes };
}

async function challengeOf(email: string, remoteAddress?: string) {
  const response = await login(email, remoteAddress);
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['set-cookie']).toBeUndefined();
  const answer = response.json<LoginAnswer>();
  expect(answer).toMatchObject({ mfa_required: true });
  expect(answer).not.toHaveProperty('token');
  return answer as MfaChallenge;
}

const verify = (body: object, remoteAddress?: string) =>
  call('POST', '/v1/auth/mfa/verify', {}, body, remoteAddress);

describe('the authenticator app (TOTP)', () => {
  it('is enrolled with a code, then asked for after the password; the secret is sealed at rest', async () => {
    const account = await enrolledAccount();
    expect(account.recoveryCodes).toHaveLength(10);
    const stored = await t.db
      .selectFrom('mfa_totp')
      .select('secret_sealed')
      .where('account_id', '=', account.account.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_sealed).toMatch(/^enc:v1:/);
    expect(stored.secret_sealed).not.toContain(account.secret);

    const challenge = await challengeOf(account.account.email);
    expect(challenge.methods).toEqual(['totp', 'recovery_code']);
    // The code just used for the enrolment is not taken twice.
    const replayed = await verify({ mfa_token: challenge.mfa_token, code: codeOf(account.secret) });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ error: 'mfa_invalid' });

    t.clock.advance(30_000);
    const signedIn = await verify({ mfa_token: challenge.mfa_token, code: codeOf(account.secret) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const { token } = signedIn.json<{ token: string }>();
    expect((await call('GET', '/v1/me', bearer(token))).statusCode).toBe(200);
    // The sign-in step worked once.
    t.clock.advance(30_000);
    const again = await verify({ mfa_token: challenge.mfa_token, code: codeOf(account.secret) });
    expect(again.statusCode).toBe(401);

    // Nothing the audit log holds shows the secret.
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM audit_events a WHERE a::text LIKE ${`%${account.secret}%`}`.execute(
      t.db,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('takes each recovery code once, and records its use', async () => {
    const account = await enrolledAccount();
    const [code] = account.recoveryCodes;
    const first = await verify({
      mfa_token: (await challengeOf(account.account.email)).mfa_token,
      recovery_code: code!.toUpperCase(),
    });
    expect(first.statusCode, first.body).toBe(200);
    const second = await verify({
      mfa_token: (await challengeOf(account.account.email)).mfa_token,
      recovery_code: code,
    });
    expect(second.statusCode).toBe(401);
    const status = await call('GET', '/v1/me/mfa', account.headers);
    expect(status.json()).toMatchObject({ totp: true, recovery_codes_left: 9, passkeys: [] });
    const events = await call(
      'GET',
      `/v1/audit-events?action=mfa.recovery_code_used&target_id=${account.account.id}`,
      admin.headers,
    );
    expect(events.json<AuditEventPage>().audit_events[0]).toMatchObject({
      changes: { recovery_codes_left: [10, 9] },
    });
  });

  it('throttles wrong codes as failed sign-ins (429 past the limit), then takes the right one elsewhere', async () => {
    const account = await enrolledAccount();
    const address = '198.51.100.23';
    const { mfa_token } = await challengeOf(account.account.email, address);
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT + 2; i++) {
      statuses.push((await verify({ mfa_token, code: '000000' }, address)).statusCode);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(
      LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT,
    );
    expect(statuses.slice(-2)).toEqual([429, 429]);
    t.clock.advance(30_000);
    const right = await verify({ mfa_token, code: codeOf(account.secret) }, address);
    expect(right.statusCode).toBe(429);
    // Other addresses are not refused for these failures.
    const elsewhere = await verify({ mfa_token, code: codeOf(account.secret) }, '203.0.113.9');
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });

  it('is removed only with the password or a code', async () => {
    const account = await enrolledAccount();
    const wrong = await call('POST', '/v1/me/mfa/totp/remove', account.headers, {
      password: 'not-the-password',
    });
    expect(wrong.statusCode).toBe(401);
    const removed = await call('POST', '/v1/me/mfa/totp/remove', account.headers, {
      password: TEST_PASSWORD,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const signIn = await login(account.account.email);
    expect(signIn.json()).toHaveProperty('token');
    expect((await call('GET', '/v1/me/mfa', account.headers)).json()).toMatchObject({
      totp: false,
      recovery_codes_left: 0,
    });
  });
});

describe('the policy', () => {
  it('sends an account of an organisation that requires a factor to enrol, and nowhere else', async () => {
    const tenant = await makeTenant(t);
    const required = await call(
      'PUT',
      `/v1/admin/organizations/${tenant.organization.id}`,
      admin.headers,
      { mfa_required: true },
    );
    expect(required.statusCode, required.body).toBe(200);
    expect(required.json()).toMatchObject({ mfa_required: true });

    const signIn = await login(tenant.account.email);
    expect(signIn.json()).toMatchObject({ mfa_enrolment_required: true });
    const limited = bearer(signIn.json<{ token: string }>().token);
    expect((await call('GET', '/v1/me', limited)).json()).toMatchObject({
      mfa_enrolment_required: true,
    });
    const refused = await call('GET', '/v1/vr-users', limited);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'mfa_enrolment_required' });

    const { secret } = (await call('POST', '/v1/me/mfa/totp', limited)).json<{ secret: string }>();
    const confirmed = await call('POST', '/v1/me/mfa/totp/confirm', limited, {
      code: codeOf(secret),
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await call('GET', '/v1/vr-users', limited)).statusCode).toBe(200);
    // Its last factor cannot go while the organisation requires one.
    t.clock.advance(30_000);
    const removal = await call('POST', '/v1/me/mfa/totp/remove', limited, {
      code: codeOf(secret),
    });
    expect(removal.statusCode).toBe(403);
  });

  it('lets a platform admin require a factor of platform admins', async () => {
    const other = await makeAccount(t.db, {
      role: 'admin',
      organization_id: admin.organization.id,
    });
    const set = await call('PUT', '/v1/admin/mfa-policy', admin.headers, { admins_required: true });
    expect(set.statusCode, set.body).toBe(200);
    expect((await login(other.email)).json()).toMatchObject({ mfa_enrolment_required: true });
    await call('PUT', '/v1/admin/mfa-policy', admin.headers, { admins_required: false });
    expect((await login(other.email)).json()).not.toHaveProperty('mfa_enrolment_required');
  });
});

describe('a platform admin’s reset', () => {
  it('removes every factor, ends the sign-ins and is audited with the reason', async () => {
    const account = await enrolledAccount();
    const shown = () => call('GET', `/v1/admin/users/${account.account.id}`, admin.headers);
    // The accounts list tells the admin which accounts have a factor to reset.
    expect((await shown()).json()).toMatchObject({ mfa_enabled: true });
    const reason = 'Phone lost; identity checked by video call';
    const reset = await call(
      'POST',
      `/v1/admin/users/${account.account.id}/mfa/reset`,
      admin.headers,
      { reason },
    );
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await shown()).json()).toMatchObject({ mfa_enabled: false });
    expect((await call('GET', '/v1/me', account.headers)).statusCode).toBe(401);
    expect((await login(account.account.email)).json()).toHaveProperty('token');
    const events = await call(
      'GET',
      `/v1/audit-events?action=mfa.reset&target_id=${account.account.id}`,
      admin.headers,
    );
    expect(events.json<AuditEventPage>().audit_events[0]).toMatchObject({
      actor: { id: admin.account.id },
      organization_id: account.organization.id,
      changes: { reason: [null, reason], totp: [true, false] },
    });
  });

  it('is for platform admins only', async () => {
    const staff = await makeTenant(t);
    const refused = await call(
      'POST',
      `/v1/admin/users/${staff.account.id}/mfa/reset`,
      staff.headers,
      {
        reason: 'mine',
      },
    );
    expect(refused.statusCode).toBe(403);
  });
});
