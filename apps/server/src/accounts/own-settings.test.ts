import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeTenant } from '../../test/factories.ts';

/** Without SMTP_URL the server sends no mail, and the account's settings say so. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('own settings', () => {
  it('keeps the digest switch and the language, and says no mail is configured', async () => {
    const staff = await makeTenant(t);
    const read = await t.app.inject({
      method: 'GET',
      url: '/v1/me/settings',
      headers: staff.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({
      qualification_digest: true,
      language: null,
      mail_configured: false,
    });
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/settings',
      headers: staff.headers,
      payload: { qualification_digest: false, language: 'en' },
    });
    expect(changed.json()).toEqual({
      qualification_digest: false,
      language: 'en',
      mail_configured: false,
    });
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/v1/me/settings',
      headers: staff.headers,
      payload: { language: 'de' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
