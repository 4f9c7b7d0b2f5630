import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeAccount, TEST_PASSWORD } from '../../test/factories.ts';
import {
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT,
  LOGIN_SLOW_AFTER_ACCOUNT_FAILURES,
} from './auth.service.ts';

/**
 * Nobody can lock an account by failing to sign in to it: failures are throttled per address
 * (IPv4 /32, IPv6 /64) and account, and per address; past the account-wide threshold an attempt
 * from an address the account was not used from is slowed, never refused, so the owner with the
 * right password gets in; a browser the account signed in from before (its known-device cookie)
 * is neither slowed nor refused for others' failures.
 */
const SLOW_MS = 300;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { loginSlowDelayMs: SLOW_MS } });
});
afterAll(() => t.close());

const HOST = 'console.example:8080';
const login = (
  email: string,
  password: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    payload: { email, password },
    remoteAddress,
    headers: { host: HOST, ...headers },
  });

/** Wrong passwords from each address, as many as its strict limit takes. */
async function failFrom(email: string, addresses: string[]) {
  for (const address of addresses) {
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT; i++) {
      expect((await login(email, `guess-${i}`, address)).statusCode).toBe(401);
    }
  }
}

const addressesFor = (failures: number, prefix: string) =>
  Array.from(
    { length: Math.ceil(failures / LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT) + 1 },
    (_, i) => `${prefix}${i + 1}`,
  );

describe('sign-in limits cannot lock an account', () => {
  it('lets the right password in from a new address after the account-wide threshold, slowed', async () => {
    const account = await makeAccount(t.db);
    await failFrom(account.email, addressesFor(LOGIN_SLOW_AFTER_ACCOUNT_FAILURES, '10.20.0.'));
    const started = performance.now();
    const owner = await login(account.email, TEST_PASSWORD, '10.20.9.9');
    expect(owner.statusCode, owner.body).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(SLOW_MS - 20);
    // Guesses past the threshold are slowed as well, not refused.
    const guess = await login(account.email, 'still-guessing', '10.20.9.8');
    expect(guess.statusCode).toBe(401);
  });

  it('counts an IPv6 /64 as one address, and an IPv4 address written as IPv6 as itself', async () => {
    const account = await makeAccount(t.db);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT; i++) {
      expect((await login(account.email, 'wrong', `2001:db8:5:6::${i + 1}`)).statusCode).toBe(401);
    }
    expect((await login(account.email, 'wrong', '2001:db8:5:6:ffff::1')).statusCode).toBe(429);
    expect((await login(account.email, TEST_PASSWORD, '2001:db8:5:7::1')).statusCode).toBe(200);

    const other = await makeAccount(t.db);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT; i++) {
      expect((await login(other.email, 'wrong', '192.0.2.77')).statusCode).toBe(401);
    }
    expect((await login(other.email, 'wrong', '::ffff:192.0.2.77')).statusCode).toBe(429);
  });

  it('counts failures across accounts per IPv6 /64', async () => {
    const answers = await Promise.all(
      Array.from({ length: LOGIN_MAX_FAILURES_PER_ADDRESS }, (_, i) =>
        login(`nobody-${i}@example.com`, 'wrong', `2001:db8:9:9::${(i + 1).toString(16)}`),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 401)).toBe(true);
    const account = await makeAccount(t.db);
    expect((await login(account.email, TEST_PASSWORD, '2001:db8:9:9::beef')).statusCode).toBe(429);
  });

  it('keeps a browser the account signed in from before working, unslowed, on a flooded address', async () => {
    const account = await makeAccount(t.db);
    const origin = { origin: `http://${HOST}` };
    const first = await login(account.email, TEST_PASSWORD, '10.30.0.1', origin);
    expect(first.statusCode).toBe(200);
    const known = first.cookies.find((cookie) => cookie.name === 'vrtc_known_device');
    expect(known).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/v1/auth' });
    const device = { ...origin, cookie: `vrtc_known_device=${known!.value}` };

    // Others fail from the browser's own address (its strict limit and the address's) and from
    // enough others to pass the account-wide threshold.
    await failFrom(account.email, ['10.30.0.1']);
    await Promise.all(
      Array.from({ length: LOGIN_MAX_FAILURES_PER_ADDRESS }, (_, i) =>
        login(`flood-${i}@example.com`, 'wrong', '10.30.0.1'),
      ),
    );
    await failFrom(account.email, addressesFor(LOGIN_SLOW_AFTER_ACCOUNT_FAILURES, '10.31.0.'));
    expect((await login(account.email, TEST_PASSWORD, '10.30.0.1')).statusCode).toBe(429);

    const started = performance.now();
    const again = await login(account.email, TEST_PASSWORD, '10.30.0.1', device);
    expect(again.statusCode, again.body).toBe(200);
    expect(performance.now() - started).toBeLessThan(SLOW_MS);
    // The cookie is the account's: for another account the flooded address is what counts.
    const other = await makeAccount(t.db);
    expect((await login(other.email, TEST_PASSWORD, '10.30.0.1', device)).statusCode).toBe(429);
  });
});
