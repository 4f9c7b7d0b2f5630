import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  issueToken,
  LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT,
} from '../src/auth/auth.service.ts';
import { makeTenant, TEST_PASSWORD } from './factories.ts';
import { bearer, createTestApp, type TestApp } from './harness.ts';
import { openStream, type Stream } from './live-stream.ts';

/**
 * POST /v1/auth/password: a signed-in account (staff or admin) changes its own password. Its
 * other sign-ins end, live streams included; the one it used stays. A wrong current password is a
 * failed sign-in, limited exactly as the sign-in is.
 */

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const ADDRESS = '10.7.0.1';

const changeOwnPassword = (
  headers: Record<string, string>,
  payload: object,
  remoteAddress = ADDRESS,
) => t.app.inject({ method: 'POST', url: '/v1/auth/password', headers, payload, remoteAddress });

const login = (email: string, password: string, remoteAddress = ADDRESS) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    payload: { email, password },
    remoteAddress,
  });

const me = (headers: Record<string, string>) => t.app.inject({ url: '/v1/me', headers });

/** A stream that stays open: it still hears its organisation's next event. */
async function expectStillOpen(stream: Stream, organizationId: string) {
  const deviceId = crypto.randomUUID();
  t.app.live.publish({
    type: 'device',
    change: 'updated',
    device_id: deviceId,
    organization_id: organizationId,
  });
  await stream.next((e) => (e.data as { device_id?: string }).device_id === deviceId);
}

describe('POST /v1/auth/password', () => {
  for (const role of ['client', 'admin'] as const) {
    it(`lets a${role === 'admin' ? 'n admin' : ' staff account'} change its own password; its other sign-ins end, the one it used stays`, async () => {
      const self = await makeTenant(t, { role });
      const other = bearer((await issueToken(t, self.account.id)).token);
      const kept = await openStream(base, self.headers);
      const ended = await openStream(base, other);
      try {
        const answer = await changeOwnPassword(self.headers, {
          current_password: TEST_PASSWORD,
          new_password: 'my-new-password',
        });
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual({ ok: true });
        const changedAt = Date.now();

        // The other sign-in's stream is closed by the server, within 2 s of the change.
        await ended.ended;
        expect(Date.now() - changedAt).toBeLessThan(2000);
        expect((await me(other)).statusCode).toBe(401);
        const reconnect = await fetch(`${base}/v1/events`, { headers: other });
        expect(reconnect.status).toBe(401);

        // The sign-in used for the change goes on, its stream too.
        expect((await me(self.headers)).statusCode).toBe(200);
        await expectStillOpen(kept, self.organization.id);

        // The new password signs in, the old one no longer does.
        expect((await login(self.account.email, TEST_PASSWORD)).json()).toMatchObject({
          error: 'invalid_credentials',
        });
        const fresh = await login(self.account.email, 'my-new-password');
        expect(fresh.statusCode).toBe(200);
        expect(fresh.json().role).toBe(role);
      } finally {
        kept.close();
        ended.close();
      }
    });
  }

  it('refuses a wrong current password with 403, and changes nothing', async () => {
    const self = await makeTenant(t);
    const other = bearer((await issueToken(t, self.account.id)).token);
    const answer = await changeOwnPassword(self.headers, {
      current_password: 'not-my-password',
      new_password: 'my-new-password',
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({
      error: 'wrong_current_password',
      message: 'The current password is wrong',
    });
    expect((await me(other)).statusCode).toBe(200);
    expect((await me(self.headers)).statusCode).toBe(200);
    expect((await login(self.account.email, TEST_PASSWORD, '10.7.0.2')).statusCode).toBe(200);
    expect((await login(self.account.email, 'my-new-password', '10.7.0.3')).statusCode).toBe(401);
  });

  it('limits guessing the current password exactly as guessing at the sign-in: one count, then 429', async () => {
    const self = await makeTenant(t);
    const wrong = { current_password: 'guess', new_password: 'my-new-password' };
    // Failures through either route count against the same (address, account) limit.
    expect((await login(self.account.email, 'guess-at-sign-in')).statusCode).toBe(401);
    for (let i = 1; i < LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT; i++) {
      expect((await changeOwnPassword(self.headers, wrong)).statusCode).toBe(403);
    }
    const limited = await changeOwnPassword(self.headers, {
      current_password: TEST_PASSWORD,
      new_password: 'my-new-password',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe(String(15 * 60));
    // The sign-in from that address is locked alike, and the password was not changed.
    const signIn = await login(self.account.email, TEST_PASSWORD);
    expect(signIn.statusCode).toBe(429);
    expect(signIn.json().error).toBe('rate_limited');
    expect((await login(self.account.email, TEST_PASSWORD, '10.7.0.9')).statusCode).toBe(200);
    // Only that address: from another one the account still changes its password.
    const elsewhere = await changeOwnPassword(
      self.headers,
      { current_password: TEST_PASSWORD, new_password: 'my-new-password' },
      '10.7.0.10',
    );
    expect(elsewhere.statusCode).toBe(200);

    // The window passes: the address may try again.
    t.clock.advance(16 * 60 * 1000);
    expect(
      (
        await changeOwnPassword(self.headers, {
          current_password: 'my-new-password',
          new_password: 'another-password',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('forgives the address its failures once the right current password is given', async () => {
    const self = await makeTenant(t);
    const wrong = { current_password: 'guess', new_password: 'my-new-password' };
    for (let i = 1; i < LOGIN_MAX_FAILURES_PER_ADDRESS_AND_ACCOUNT; i++) {
      expect((await changeOwnPassword(self.headers, wrong)).statusCode).toBe(403);
    }
    const right = await changeOwnPassword(self.headers, {
      current_password: TEST_PASSWORD,
      new_password: 'my-new-password',
    });
    expect(right.statusCode).toBe(200);
    // Had the failures stayed, the second of these would be the sixth and refused.
    expect((await login(self.account.email, 'a-typo')).statusCode).toBe(401);
    expect((await login(self.account.email, 'my-new-password')).statusCode).toBe(200);
  });

  it('holds the new password to the rule of every password (6 to 200 characters)', async () => {
    const self = await makeTenant(t);
    const other = bearer((await issueToken(t, self.account.id)).token);
    const weak = await changeOwnPassword(self.headers, {
      current_password: TEST_PASSWORD,
      new_password: '12345',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({
      error: 'validation_error',
      details: { field: 'body.new_password', rule: 'minLength' },
    });
    const long = await changeOwnPassword(self.headers, {
      current_password: TEST_PASSWORD,
      new_password: 'x'.repeat(201),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().details).toMatchObject({ field: 'body.new_password', rule: 'maxLength' });
    const missing = await changeOwnPassword(self.headers, { new_password: 'my-new-password' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toMatchObject({ field: 'body.current_password' });
    // Nothing changed: the old password and the other sign-in still work.
    expect((await me(other)).statusCode).toBe(200);
    expect((await login(self.account.email, TEST_PASSWORD, '10.7.1.1')).statusCode).toBe(200);
  });

  it('refuses a caller without a valid sign-in with 401', async () => {
    const body = { current_password: TEST_PASSWORD, new_password: 'my-new-password' };
    const none = await t.app.inject({ method: 'POST', url: '/v1/auth/password', payload: body });
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('unauthorized');
    const unknown = await changeOwnPassword(bearer('not-a-token'), body);
    expect(unknown.statusCode).toBe(401);
    // A sign-in that has ended (signed out) cannot change the password either.
    const self = await makeTenant(t);
    await t.app.inject({ method: 'POST', url: '/v1/auth/logout', headers: self.headers });
    expect((await changeOwnPassword(self.headers, body)).statusCode).toBe(401);
    expect((await login(self.account.email, TEST_PASSWORD, '10.7.2.1')).statusCode).toBe(200);
  });
});
