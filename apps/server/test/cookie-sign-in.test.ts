import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, makeTenant, TEST_PASSWORD } from './factories.ts';
import { bearer, createTestApp, type TestApp } from './harness.ts';
import { openStream } from './live-stream.ts';

/**
 * The console signs in with a cookie script cannot read (decision 025): POST /v1/auth/login sets
 * it beside the token JSON, every account route takes it when no bearer token is sent, a change
 * made with it must come from the console's own origin, and sign-out clears it.
 */

const HOST = 'console.example:8080';
let t: TestApp;
/** Behind a trusted proxy that says the browser spoke https, with the address users reach. */
let proxied: TestApp;
beforeAll(async () => {
  [t, proxied] = await Promise.all([
    createTestApp(),
    createTestApp({
      config: { trustProxy: true, publicUrl: `https://${HOST}` },
    }),
  ]);
});
afterAll(() => Promise.all([t.close(), proxied.close()]));

const OWN_ORIGIN = `http://${HOST}`;

interface Call {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: object;
}
const call = (app: TestApp, { method = 'GET', url, headers = {}, payload }: Call) =>
  app.app.inject({ method, url, headers: { host: HOST, ...headers }, payload });

async function signIn(app: TestApp = t, headers: Record<string, string> = {}) {
  const account = await makeAccount(app.db);
  const response = await call(app, {
    method: 'POST',
    url: '/v1/auth/login',
    headers,
    payload: { email: account.email, password: TEST_PASSWORD },
  });
  return { account, response };
}

/** The sign-in cookie a login answered, as the browser would send it back. */
async function cookieSignIn(app: TestApp = t) {
  const { account, response } = await signIn(app);
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'vrtc_session');
  expect(cookie).toBeDefined();
  return {
    account,
    token: response.json().token as string,
    cookie: `vrtc_session=${cookie!.value}`,
  };
}

const createVrUser = (headers: Record<string, string>) =>
  call(t, { method: 'POST', url: '/v1/vr-users', headers, payload: { name: 'Cookie Trainee' } });

describe('POST /v1/auth/login sets the sign-in cookie', () => {
  it('over http: vrtc_session, HttpOnly, SameSite=Strict, Path=/, for the token lifetime, beside the same JSON', async () => {
    const { response } = await signIn();
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.token).toMatch(/^[\w-]{40,}$/);
    expect(response.cookies).toEqual([
      {
        name: 'vrtc_session',
        value: body.token,
        httpOnly: true,
        sameSite: 'Strict',
        path: '/',
        maxAge: t.config.tokenTtlMs / 1000,
      },
    ]);
    const header = String(response.headers['set-cookie']);
    expect(header).not.toMatch(/secure/i);
    expect(header).not.toMatch(/domain/i);
  });

  it('over https behind a trusted proxy: __Host-vrtc_session with Secure', async () => {
    const { response } = await signIn(proxied, { 'x-forwarded-proto': 'https' });
    expect(response.statusCode).toBe(200);
    expect(response.cookies).toEqual([
      {
        name: '__Host-vrtc_session',
        value: response.json().token,
        httpOnly: true,
        secure: true,
        sameSite: 'Strict',
        path: '/',
        maxAge: proxied.config.tokenTtlMs / 1000,
      },
    ]);
  });

  it('does not take X-Forwarded-Proto from a proxy it does not trust', async () => {
    const { response } = await signIn(t, { 'x-forwarded-proto': 'https' });
    expect(response.cookies.map((c) => [c.name, c.secure])).toEqual([['vrtc_session', undefined]]);
  });

  it('gives a page (a request with Origin) the cookie and no token in the body; a script the token as before', async () => {
    const page = await signIn(t, { origin: OWN_ORIGIN });
    expect(page.response.statusCode).toBe(200);
    const body = page.response.json();
    expect(body).not.toHaveProperty('token');
    expect(body).toMatchObject({ id: page.account.id, email: page.account.email });
    const cookie = page.response.cookies.find((c) => c.name === 'vrtc_session');
    expect(cookie?.value).toMatch(/^[\w-]{40,}$/);
    expect(page.response.body).not.toContain(cookie!.value);
    const me = await call(t, {
      url: '/v1/me',
      headers: { cookie: `vrtc_session=${cookie!.value}` },
    });
    expect(me.json()).toMatchObject({ id: page.account.id });

    const script = await signIn(t);
    expect(script.response.json().token).toBe(
      script.response.cookies.find((c) => c.name === 'vrtc_session')?.value,
    );
  });

  it("refuses a sign-in from another site's page, and takes one from its own or from a script", async () => {
    const foreign = await signIn(t, { origin: 'https://evil.example' });
    expect(foreign.response.statusCode).toBe(403);
    expect(foreign.response.json()).toMatchObject({ error: 'cross_site_request' });
    expect(foreign.response.headers['set-cookie']).toBeUndefined();

    expect((await signIn(t, { origin: OWN_ORIGIN })).response.statusCode).toBe(200);
    expect((await signIn(t)).response.statusCode).toBe(200);
  });
});

describe('the cookie signs requests in', () => {
  it('a GET with only the cookie', async () => {
    const { account, cookie } = await cookieSignIn();
    const me = await call(t, { url: '/v1/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: account.id, email: account.email });
  });

  it('over https only under its __Host- name', async () => {
    const { response } = await signIn(proxied, { 'x-forwarded-proto': 'https' });
    const token = response.json().token as string;
    const me = (cookie: string) =>
      call(proxied, { url: '/v1/me', headers: { cookie, 'x-forwarded-proto': 'https' } });
    expect((await me(`__Host-vrtc_session=${token}`)).statusCode).toBe(200);
    // A plain-named cookie could have been planted by a plain-http page or another host.
    expect((await me(`vrtc_session=${token}`)).statusCode).toBe(401);
  });

  it('the live stream with only the cookie', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { cookie } = await cookieSignIn();
    const stream = await openStream(base, { cookie });
    expect(stream.events[0]?.event).toBe('ready');
    stream.close();
  });
});

describe('a change signed in by the cookie must come from the console', () => {
  it("refuses another site's Origin with 403 cross_site_request, and changes nothing", async () => {
    const { cookie, account } = await cookieSignIn();
    const response = await createVrUser({ cookie, origin: 'https://evil.example' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'cross_site_request' });
    const stored = await t.db
      .selectFrom('vr_users')
      .select('id')
      .where('organization_id', '=', account.organization_id)
      .execute();
    expect(stored).toEqual([]);
  });

  it('refuses a change without Origin, and a sign-out from another site', async () => {
    const { cookie } = await cookieSignIn();
    const response = await createVrUser({ cookie });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'cross_site_request' });

    const logout = await call(t, {
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { cookie, origin: 'null' },
    });
    expect(logout.statusCode).toBe(403);
    expect((await call(t, { url: '/v1/me', headers: { cookie } })).statusCode).toBe(200);
  });

  it('takes a change whose Origin is the console’s own', async () => {
    const { cookie } = await cookieSignIn();
    const response = await createVrUser({ cookie, origin: OWN_ORIGIN });
    expect(response.statusCode).toBe(201);
    // The default port is the same origin however it is written.
    const defaultPort = await call(t, {
      method: 'POST',
      url: '/v1/vr-users',
      headers: { cookie, host: 'console.example:80', origin: 'http://console.example' },
      payload: { name: 'Cookie Trainee 2' },
    });
    expect(defaultPort.statusCode).toBe(201);
  });

  it("with PUBLIC_URL set, takes only requests to PUBLIC_URL's host and from its origin", async () => {
    const { response } = await signIn(proxied, { 'x-forwarded-proto': 'https' });
    const cookie = `__Host-vrtc_session=${response.json().token}`;
    const create = (headers: Record<string, string>) =>
      call(proxied, {
        method: 'POST',
        url: '/v1/vr-users',
        headers: { cookie, 'x-forwarded-proto': 'https', ...headers },
        payload: { name: 'Proxied Trainee' },
      });
    // nginx passes the Host the browser asked for (deploy/nginx.conf).
    expect((await create({ origin: `https://${HOST}` })).statusCode).toBe(201);
    // Another name for the server (an address, a rebound name): the cookie opens nothing there,
    // a read included, whatever Origin comes with it.
    const elsewhere: Array<Record<string, string>> = [
      { host: '127.0.0.1:3000', origin: 'https://127.0.0.1:3000' },
      { 'x-forwarded-host': 'other.example.org', origin: 'https://other.example.org' },
    ];
    for (const headers of elsewhere) {
      const refused = await create(headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'cross_site_request' });
      const read = await call(proxied, {
        url: '/v1/me',
        headers: { cookie, 'x-forwarded-proto': 'https', ...headers },
      });
      expect(read.statusCode).toBe(403);
    }
    const signInElsewhere = await signIn(proxied, {
      'x-forwarded-proto': 'https',
      host: '127.0.0.1:3000',
      origin: 'https://127.0.0.1:3000',
    });
    expect(signInElsewhere.response.statusCode).toBe(403);
    const plainHttp = await create({ origin: `http://${HOST}` });
    expect(plainHttp.statusCode).toBe(403);
    expect(plainHttp.json()).toMatchObject({ error: 'cross_site_request' });
  });

  it('a bearer token needs no Origin, and wins over a cookie', async () => {
    const tenant = await makeTenant(t);
    expect((await createVrUser(tenant.headers)).statusCode).toBe(201);
    const withStaleCookie = await createVrUser({
      ...tenant.headers,
      cookie: 'vrtc_session=not-a-token',
    });
    expect(withStaleCookie.statusCode).toBe(201);
  });

  it('a GET signed in by the cookie needs no Origin', async () => {
    const { cookie } = await cookieSignIn();
    const response = await call(t, {
      url: '/v1/vr-users',
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('the cookie ends with the sign-in', () => {
  /** The cookies an answer clears: both names, Max-Age=0. */
  const cleared = (response: {
    cookies: Array<{ name: string; value: string; maxAge?: number }>;
  }) =>
    response.cookies
      .filter((c) => c.value === '' && c.maxAge === 0)
      .map((c) => c.name)
      .sort();

  it('sign-out clears it under both names, and the old cookie then gets 401 (which clears it)', async () => {
    const { cookie } = await cookieSignIn();
    const logout = await call(t, {
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { cookie, origin: OWN_ORIGIN },
    });
    expect(logout.statusCode).toBe(200);
    expect(cleared(logout)).toEqual(['__Host-vrtc_session', 'vrtc_session']);
    const secureClear = logout.cookies.find((c) => c.name === '__Host-vrtc_session');
    expect(secureClear).toMatchObject({ secure: true, path: '/' });

    const after = await call(t, { url: '/v1/me', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ error: 'unauthorized' });
    expect(cleared(after)).toEqual(['__Host-vrtc_session', 'vrtc_session']);
  });

  it('an admin changing the password ends the cookie sign-in', async () => {
    const admin = await makeTenant(t, { role: 'admin' });
    const { cookie, account } = await cookieSignIn();
    const reset = await call(t, {
      method: 'POST',
      url: `/v1/admin/users/${account.id}/password`,
      headers: admin.headers,
      payload: { new_password: 'a-new-password-1' },
    });
    expect(reset.statusCode).toBe(200);
    const after = await call(t, { url: '/v1/me', headers: { cookie } });
    expect(after.statusCode).toBe(401);
    expect(cleared(after)).toEqual(['__Host-vrtc_session', 'vrtc_session']);
  });

  it('an expired cookie sign-in gets 401 like an expired bearer token', async () => {
    const { cookie, token } = await cookieSignIn();
    t.clock.advance(t.config.tokenTtlMs + 1000);
    try {
      const viaCookie = await call(t, { url: '/v1/me', headers: { cookie } });
      const viaBearer = await call(t, { url: '/v1/me', headers: bearer(token) });
      expect([viaCookie.statusCode, viaBearer.statusCode]).toEqual([401, 401]);
      expect(cleared(viaCookie)).toEqual(['__Host-vrtc_session', 'vrtc_session']);
      // A bearer client has no cookie to clear.
      expect(viaBearer.headers['set-cookie']).toBeUndefined();
    } finally {
      t.clock.advance(-(t.config.tokenTtlMs + 1000));
    }
  });
});
