import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeOrganization, makeTenant } from '../../test/factories.ts';
import { DISCOVER_MAX_PER_MINUTE } from './sso-discover.ts';

/**
 * The sign-in page asks with the email whether to offer single sign-on (issue 38): it learns
 * `sso` and `enforced` and nothing else, and a scan of domains is limited per address.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

const configure = async (domain: string, enforced: boolean) => {
  const organization = await makeOrganization(t.db, { name: `Discover ${domain}` });
  const saved = await t.app.inject({
    method: 'PUT',
    url: `/v1/admin/organizations/${organization.id}/sso`,
    headers: admin.headers,
    payload: {
      protocol: 'oidc',
      issuer: 'https://login.example.com/tenant',
      client_id: 'vr-console',
      client_secret: 'the-provider-client-secret-7f3a',
      email_domains: [domain],
      enforced,
      jit: false,
      default_role: 'client',
    },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return organization;
};
const discover = (email: string, address = '198.51.100.7') =>
  t.app.inject({
    url: `/v1/auth/sso/discover?email=${encodeURIComponent(email)}`,
    remoteAddress: address,
  });

describe('GET /v1/auth/sso/discover', () => {
  it('says whether the domain signs in by single sign-on, and whether only by it', async () => {
    const optional = await configure('optional-sso.example', false);
    const enforced = await configure('enforced-sso.example', true);

    const offered = await discover('Someone@Optional-SSO.example');
    expect(offered.statusCode, offered.body).toBe(200);
    expect(offered.json()).toEqual({ sso: true, enforced: false });
    expect(offered.body).not.toContain(optional.id);
    expect(offered.body).not.toContain('Discover');

    const only = await discover('someone@enforced-sso.example');
    expect(only.json()).toEqual({ sso: true, enforced: true });
    expect(only.body).not.toContain(enforced.id);

    const none = await discover('someone@no-sso.example');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ sso: false, enforced: false });
  });

  it('refuses what is not an email', async () => {
    expect((await discover('not-an-email')).statusCode).toBe(400);
    const missing = await t.app.inject({ url: '/v1/auth/sso/discover' });
    expect(missing.statusCode).toBe(400);
  });

  it('limits lookups per address (429 with Retry-After past the limit)', async () => {
    const address = '203.0.113.44';
    for (let index = 0; index < DISCOVER_MAX_PER_MINUTE; index += 1) {
      expect((await discover(`p${index}@scan-${index}.example`, address)).statusCode).toBe(200);
    }
    const refused = await discover('one-more@scan.example', address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('rate_limited');
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await discover('other@scan.example', '203.0.113.45')).statusCode).toBe(200);
  });
});
