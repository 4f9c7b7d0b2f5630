import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { startOidcIdp, type OidcIdp } from '../../test/oidc-idp.ts';
import { TEST_PASSWORD, makeAccount, makeOrganization, makeTenant } from '../../test/factories.ts';

/**
 * Single sign-on against a real OpenID provider (oidc-provider) on 127.0.0.1: the browser's way
 * is walked with fetch (its login form, its cookies), the console's side with app.inject.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
let idp: OidcIdp;
let issuer: string;
const PUBLIC_URL = 'http://console.test';

beforeAll(async () => {
  t = await createTestApp({ config: { ssoAllowHttp: 'true', publicUrl: PUBLIC_URL } });
  admin = await makeTenant(t, { role: 'admin' });
  idp = await startOidcIdp({ publicUrl: PUBLIC_URL });
  issuer = idp.issuer;
}, 120_000);
afterAll(async () => {
  await idp.close();
  await t.close();
});

/** Walks the provider's pages as a browser: follows redirects, carries cookies, signs in as `email`. */
async function signInAtProvider(authorizeUrl: string, email: string): Promise<string> {
  const jar = new Map<string, string>();
  const send = async (url: string, body?: URLSearchParams) => {
    const response = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`${url} answered ${response.status} without a redirect`);
    return new URL(location, url).href;
  };
  let next = await send(authorizeUrl);
  for (let step = 0; step < 5 && !next.startsWith(PUBLIC_URL); step++) {
    next = next.includes('/interaction/')
      ? await send(next, new URLSearchParams({ prompt: 'login', login: email, password: 'x' }))
      : await send(next);
  }
  return next;
}

const configure = async (organizationId: string, domain: string, extra: object = {}) => {
  const response = await t.app.inject({
    method: 'PUT',
    url: `/v1/admin/organizations/${organizationId}/sso`,
    headers: admin.headers,
    payload: {
      protocol: 'oidc',
      issuer,
      client_id: 'console',
      client_secret: 'console-secret',
      email_domains: [domain],
      enforced: false,
      jit: false,
      default_role: 'client',
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
};

const start = (query: string) => t.app.inject({ url: `/v1/auth/sso/start?${query}` });

/** The whole way: start, the provider, the callback; answers the callback's answer. */
async function signIn(email: string, returnTo = '/sessions') {
  const started = await start(
    `email=${encodeURIComponent(email)}&return_to=${encodeURIComponent(returnTo)}`,
  );
  expect(started.statusCode, started.body).toBe(302);
  const authorize = new URL(started.headers.location as string);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  const back = await signInAtProvider(authorize.href, email);
  const callback = await t.app.inject({ url: back.slice(PUBLIC_URL.length) });
  return { callback, back };
}

const sessionCookie = (response: { cookies: { name: string; value: string }[] }) =>
  response.cookies.find((cookie) => cookie.name === 'vrtc_session');

describe('OIDC sign-in', () => {
  it('signs a known account in with the console’s cookie and returns to the page asked for', async () => {
    const organization = await makeOrganization(t.db);
    await configure(organization.id, 'happy.example');
    const account = await makeAccount(t.db, {
      organization_id: organization.id,
      email: 'ann@happy.example',
    });
    const { callback } = await signIn('ann@happy.example', '/sessions?tab=history');
    expect(callback.statusCode, callback.body).toBe(302);
    expect(callback.headers.location).toBe('/sessions?tab=history');
    const cookie = sessionCookie(callback);
    expect(cookie).toBeDefined();
    // A cookie is taken only on a request made to the console's own address (PUBLIC_URL).
    const me = await t.app.inject({
      url: '/v1/me',
      headers: { host: new URL(PUBLIC_URL).host },
      cookies: { vrtc_session: cookie!.value },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ id: account.id, organization_id: organization.id });
  });

  it('creates a missing account with jit, and refuses it without', async () => {
    const organization = await makeOrganization(t.db);
    await configure(organization.id, 'jit.example');
    const refused = await signIn('new@jit.example');
    expect(refused.callback.headers.location).toBe('/login?sso_error=no_account');
    expect(sessionCookie(refused.callback)).toBeUndefined();

    await configure(organization.id, 'jit.example', { jit: true });
    const { callback } = await signIn('new@jit.example');
    expect(callback.headers.location).toBe('/sessions');
    const created = await t.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', 'new@jit.example')
      .executeTakeFirstOrThrow();
    expect(created).toMatchObject({ organization_id: organization.id, role: 'client' });
  });

  it('refuses an email of another organisation and of a platform admin', async () => {
    const mine = await makeOrganization(t.db);
    await configure(mine.id, 'mine.example', { jit: true });
    const other = await makeOrganization(t.db);
    await makeAccount(t.db, { organization_id: other.id, email: 'bob@elsewhere.example' });
    await makeAccount(t.db, {
      organization_id: mine.id,
      email: 'root@mine.example',
      role: 'admin',
    });
    // The provider of "mine" vouches for people it has no business with.
    const started = await start(`organization_id=${mine.id}`);
    const back = await signInAtProvider(
      started.headers.location as string,
      'bob@elsewhere.example',
    );
    const callback = await t.app.inject({ url: back.slice(PUBLIC_URL.length) });
    expect(callback.headers.location).toBe('/login?sso_error=email_not_allowed');
    const asAdmin = await signIn('root@mine.example');
    expect(asAdmin.callback.headers.location).toBe('/login?sso_error=email_not_allowed');
    expect(sessionCookie(asAdmin.callback)).toBeUndefined();
  });

  it('refuses a replayed state', async () => {
    const organization = await makeOrganization(t.db);
    await configure(organization.id, 'replay.example');
    await makeAccount(t.db, { organization_id: organization.id, email: 'eve@replay.example' });
    const { callback, back } = await signIn('eve@replay.example');
    expect(callback.headers.location).toBe('/sessions');
    const replayed = await t.app.inject({ url: back.slice(PUBLIC_URL.length) });
    expect(replayed.headers.location).toBe('/login?sso_error=invalid_state');
    expect(sessionCookie(replayed)).toBeUndefined();
  });

  it('refuses an ID token made for another client (wrong audience) and a tampered code', async () => {
    const organization = await makeOrganization(t.db);
    await configure(organization.id, 'audience.example');
    await makeAccount(t.db, { organization_id: organization.id, email: 'max@audience.example' });
    // The browser is sent to the provider as another application: its tokens are not ours.
    const started = await start('email=max@audience.example');
    const authorize = new URL(started.headers.location as string);
    authorize.searchParams.set('client_id', 'other-app');
    const back = await signInAtProvider(authorize.href, 'max@audience.example');
    const callback = await t.app.inject({ url: back.slice(PUBLIC_URL.length) });
    expect(callback.headers.location).toBe('/login?sso_error=invalid_response');

    const again = await start('email=max@audience.example');
    const returned = new URL(
      await signInAtProvider(again.headers.location as string, 'max@audience.example'),
    );
    returned.searchParams.set('code', `${returned.searchParams.get('code')}x`);
    const tampered = await t.app.inject({ url: returned.pathname + returned.search });
    expect(tampered.headers.location).toBe('/login?sso_error=invalid_response');
  });

  it('when enforced, refuses the password but signs in by the provider', async () => {
    const organization = await makeOrganization(t.db);
    await configure(organization.id, 'strict.example', { enforced: true });
    await makeAccount(t.db, { organization_id: organization.id, email: 'kim@strict.example' });
    const password = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'kim@strict.example', password: TEST_PASSWORD },
    });
    expect(password.statusCode).toBe(403);
    expect(password.json()).toMatchObject({ error: 'sso_required' });
    const { callback } = await signIn('kim@strict.example');
    expect(sessionCookie(callback)).toBeDefined();
  });

  it('sends an unknown domain back to the sign-in page', async () => {
    const started = await start('email=someone@nowhere.example');
    expect(started.headers.location).toBe('/login?sso_error=not_configured');
  });

  it('re-authenticates at the provider for a signature: prompt=login, max_age=0, used once', async () => {
    const organization = await makeOrganization(t.db);
    await configure(organization.id, 'fresh.example');
    await makeAccount(t.db, { organization_id: organization.id, email: 'sig@fresh.example' });
    const { callback } = await signIn('sig@fresh.example');
    const cookie = { vrtc_session: sessionCookie(callback)!.value };
    const headers = { host: new URL(PUBLIC_URL).host };
    const reauth = (returnTo: string) =>
      t.app.inject({
        url: `/v1/auth/sso/reauth?return_to=${encodeURIComponent(returnTo)}`,
        headers,
        cookies: cookie,
      });
    const asked = await reauth('/vr-users/x?sign=1');
    expect(asked.statusCode, asked.body).toBe(302);
    const authorize = new URL(asked.headers.location as string);
    expect(authorize.searchParams.get('prompt')).toBe('login');
    expect(authorize.searchParams.get('max_age')).toBe('0');
    const back = await signInAtProvider(authorize.href, 'sig@fresh.example');
    const returned = await t.app.inject({ url: back.slice(PUBLIC_URL.length) });
    expect(returned.headers.location).toBe('/vr-users/x?sign=1');
    // The session holds the proof; nobody else's sign-in at the provider gives one.
    const token = await t.db
      .selectFrom('auth_tokens')
      .innerJoin('accounts', 'accounts.id', 'auth_tokens.account_id')
      .select(['auth_tokens.sso_fresh_until', 'auth_tokens.sso_protocol'])
      .where('accounts.email', '=', 'sig@fresh.example')
      .executeTakeFirstOrThrow();
    expect(token.sso_protocol).toBe('oidc');
    expect(token.sso_fresh_until!.getTime()).toBeGreaterThan(t.clock.now().getTime());
    await makeAccount(t.db, { organization_id: organization.id, email: 'other@fresh.example' });
    const wrong = await signInAtProvider(
      (await reauth('/')).headers.location as string,
      'other@fresh.example',
    );
    const refused = await t.app.inject({ url: wrong.slice(PUBLIC_URL.length) });
    expect(refused.headers.location).toBe('/login?sso_error=reauth_mismatch');
  });

  it('offers the provider’s sign-out to a session of OIDC, and not to a password’s', async () => {
    const organization = await makeOrganization(t.db);
    await configure(organization.id, 'bye.example');
    await makeAccount(t.db, { organization_id: organization.id, email: 'bye@bye.example' });
    const { callback } = await signIn('bye@bye.example');
    const out = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { host: new URL(PUBLIC_URL).host, origin: PUBLIC_URL },
      cookies: { vrtc_session: sessionCookie(callback)!.value },
    });
    expect(out.statusCode, out.body).toBe(200);
    const offered = out.json<{ provider_logout_url?: string }>().provider_logout_url;
    expect(offered).toBe(`/v1/auth/sso/end-session?organization_id=${organization.id}`);
    const endSession = await t.app.inject({ url: offered! });
    const atProvider = new URL(endSession.headers.location as string);
    expect(atProvider.origin).toBe(issuer);
    expect(atProvider.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    expect((await fetch(atProvider)).status).toBe(200);
    const byPassword = await makeTenant(t);
    const plain = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: byPassword.headers,
    });
    expect(plain.json()).toEqual({ ok: true });
  });

  it('runs a platform admin’s test sign-in: the claims, or the exact failure, nobody signed in', async () => {
    const organization = await makeOrganization(t.db);
    await configure(organization.id, 'trial.example', { jit: true });
    const test = () =>
      t.app.inject({
        url: `/v1/admin/organizations/${organization.id}/sso/test`,
        headers: admin.headers,
      });
    const started = await test();
    expect(started.statusCode, started.body).toBe(302);
    const back = await signInAtProvider(started.headers.location as string, 'tia@trial.example');
    const returned = await t.app.inject({ url: back.slice(PUBLIC_URL.length) });
    expect(sessionCookie(returned)).toBeUndefined();
    const location = new URL(returned.headers.location as string, PUBLIC_URL);
    expect(location.pathname).toBe(`/admin/organizations/${organization.id}`);
    const result = await t.app.inject({
      url: `/v1/admin/organizations/${organization.id}/sso/tests/${location.searchParams.get('sso_test')}`,
      headers: admin.headers,
    });
    expect(result.statusCode, result.body).toBe(200);
    expect(result.json()).toMatchObject({
      ok: true,
      protocol: 'oidc',
      claims: { email: 'tia@trial.example', iss: issuer },
      outcome: 'would_create',
      email: 'tia@trial.example',
      role: 'client',
      code: null,
      detail: null,
    });
    expect(
      await t.db
        .selectFrom('accounts')
        .select('id')
        .where('email', '=', 'tia@trial.example')
        .execute(),
    ).toEqual([]);
    // An email of another organisation's account: the provider's answer passed, the person would
    // be refused, and the result says why as a code the console words.
    await makeAccount(t.db, { email: 'otto@trial.example' });
    const other = await test();
    const otherBack = await signInAtProvider(
      other.headers.location as string,
      'otto@trial.example',
    );
    const otherAt = new URL(
      (await t.app.inject({ url: otherBack.slice(PUBLIC_URL.length) })).headers.location as string,
      PUBLIC_URL,
    );
    const otherResult = await t.app.inject({
      url: `/v1/admin/organizations/${organization.id}/sso/tests/${otherAt.searchParams.get('sso_test')}`,
      headers: admin.headers,
    });
    expect(otherResult.json()).toMatchObject({
      ok: true,
      outcome: 'other_organization',
      email: 'otto@trial.example',
      role: null,
    });
    // A wrong client secret: the reason the provider gave comes back.
    await configure(organization.id, 'trial.example', { client_secret: 'not-the-secret' });
    const again = await test();
    const failed = await signInAtProvider(again.headers.location as string, 'tia@trial.example');
    const failedAt = new URL(
      (await t.app.inject({ url: failed.slice(PUBLIC_URL.length) })).headers.location as string,
      PUBLIC_URL,
    );
    const reason = await t.app.inject({
      url: `/v1/admin/organizations/${organization.id}/sso/tests/${failedAt.searchParams.get('sso_test')}`,
      headers: admin.headers,
    });
    expect(reason.json()).toMatchObject({ ok: false, code: 'invalid_response', outcome: null });
    expect(reason.json().detail).toMatch(/invalid_client|client/i);
  });
});
