import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import { makeAccount, makeTenant, TEST_PASSWORD } from './factories.ts';

/**
 * Every new password (an account made by an admin, an admin's reset, the account's own change)
 * follows ASVS 5.0 V6: at least 8 characters, up to 200 (64 and more accepted), none from the
 * list of common and breached passwords shipped with the server, and no composition rules.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

let n = 0;
/** Each way of setting a password, with `password` as the new one. */
const setters: Record<string, (password: string) => Promise<{ statusCode: number; body: string }>> =
  {
    'an admin creating an account': (password) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/admin/users',
        headers: admin.headers,
        payload: {
          email: `rules-${n++}@example.com`,
          password,
          role: 'client',
          organization_id: admin.organization.id,
        },
      }),
    'an admin resetting a password': async (password) => {
      const account = await makeAccount(t.db, { organization_id: admin.organization.id });
      return t.app.inject({
        method: 'POST',
        url: `/v1/admin/users/${account.id}/password`,
        headers: admin.headers,
        payload: { new_password: password },
      });
    },
    'an account changing its own': async (password) => {
      const own = await makeTenant(t);
      return t.app.inject({
        method: 'POST',
        url: '/v1/auth/password',
        headers: own.headers,
        payload: { current_password: TEST_PASSWORD, new_password: password },
      });
    },
  };

describe('new passwords', () => {
  it('are at least 8 characters and at most 200', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(8);
    expect(PASSWORD_MAX_LENGTH).toBeGreaterThanOrEqual(64);
  });

  for (const [way, set] of Object.entries(setters)) {
    it(`${way}: length 8 to 200 and no composition rule; common ones refused`, async () => {
      const accepted = [
        'violet-lantern',
        'correct horse battery staple',
        'ÆØÅ-日本語-пароль',
        'x'.repeat(64),
        'y'.repeat(PASSWORD_MAX_LENGTH),
      ];
      for (const password of accepted) {
        const response = await set(password);
        expect(response.statusCode, `${password}: ${response.body}`).toBeLessThan(300);
      }
      const short = await set('seven77');
      expect(short.statusCode).toBe(400);
      expect(JSON.parse(short.body)).toMatchObject({ error: 'validation_error' });
      expect((await set('z'.repeat(PASSWORD_MAX_LENGTH + 1))).statusCode).toBe(400);
      for (const common of ['12345678', 'password123', 'Password1', 'qwertyuiop', 'iloveyou']) {
        const response = await set(common);
        expect(response.statusCode, common).toBe(400);
        expect(JSON.parse(response.body)).toMatchObject({ error: 'password_too_common' });
      }
    });
  }
});
