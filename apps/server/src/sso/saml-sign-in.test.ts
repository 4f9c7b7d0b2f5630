import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeAccount, makeOrganization, makeTenant } from '../../test/factories.ts';
import { samlResponseOf, startSamlIdp, type SamlIdp } from '../../test/saml-idp.ts';

/**
 * SAML sign-in against a real identity provider (samlify, test/saml-idp.ts) on 127.0.0.1: the
 * console's AuthnRequest goes to it by redirect, its signed response comes back to the ACS. Then
 * the attacks: a wrapped signature, an unsigned assertion, another audience, another key, a
 * replayed response, a reused assertion ID, an expired assertion.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
let idp: SamlIdp;
/** The organisation whose SP metadata the provider reads (the one under test). */
let current = '';
const PUBLIC_URL = 'http://console.test';
const ACS = `${PUBLIC_URL}/v1/auth/sso/saml/acs`;

beforeAll(async () => {
  t = await createTestApp({ config: { ssoAllowHttp: 'true', publicUrl: PUBLIC_URL } });
  admin = await makeTenant(t, { role: 'admin' });
  idp = await startSamlIdp(async () => {
    const response = await t.app.inject({ url: `/v1/auth/sso/saml/${current}/metadata` });
    return response.body;
  });
}, 120_000);
afterAll(async () => {
  await idp.close();
  await t.close();
});

async function configure(domain: string, extra: object = {}) {
  const organization = await makeOrganization(t.db);
  await reconfigure(organization.id, domain, extra);
  return organization;
}

async function reconfigure(organizationId: string, domain: string, extra: object = {}) {
  current = organizationId;
  const response = await t.app.inject({
    method: 'PUT',
    url: `/v1/admin/organizations/${organizationId}/sso`,
    headers: admin.headers,
    payload: {
      protocol: 'saml',
      idp_metadata_xml: idp.metadata,
      email_domains: [domain],
      enforced: false,
      jit: false,
      default_role: 'client',
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Start at the console, sign in at the provider as `login`: the response it would post. */
async function responseFor(start: string, login: string) {
  const started = await t.app.inject({ url: start });
  expect(started.statusCode, started.body).toBe(302);
  const signOn = new URL(started.headers.location as string);
  signOn.searchParams.set('login', login);
  const page = await fetch(signOn);
  expect(page.status, await page.clone().text()).toBe(200);
  return samlResponseOf(await page.text());
}

const post = (samlResponse: string) =>
  t.app.inject({
    method: 'POST',
    url: '/v1/auth/sso/saml/acs',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
  });

const sessionCookie = (response: { cookies: { name: string; value: string }[] }) =>
  response.cookies.find((cookie) => cookie.name === 'vrtc_session');

async function signIn(email: string, returnTo = '/sessions') {
  const query = `email=${encodeURIComponent(email)}&return_to=${encodeURIComponent(returnTo)}`;
  return post(await responseFor(`/v1/auth/sso/start?${query}`, email));
}

/** The response's XML, changed by `edit`, encoded again. */
function tamper(samlResponse: string, edit: (document: Document) => void) {
  const document = new DOMParser().parseFromString(
    Buffer.from(samlResponse, 'base64').toString('utf8'),
    'text/xml',
  ) as unknown as Document;
  edit(document);
  const xml = new XMLSerializer().serializeToString(document as never);
  return Buffer.from(xml).toString('base64');
}

const byName = (node: Document | Element, name: string) =>
  Array.from(node.getElementsByTagNameNS('*', name));

describe('SAML settings and metadata', () => {
  it('reads the provider’s metadata and serves the console’s SP metadata', async () => {
    const organization = await configure('meta.example');
    const config = await t.app.inject({
      url: `/v1/admin/organizations/${organization.id}/sso`,
      headers: admin.headers,
    });
    expect(config.json()).toMatchObject({
      protocol: 'saml',
      idp_entity_id: idp.entityId,
      entry_point: `${new URL(idp.entityId).origin}/sso`,
      acs_url: ACS,
      sp_entity_id: `${PUBLIC_URL}/v1/auth/sso/saml/${organization.id}/metadata`,
      client_secret_set: false,
    });
    const metadata = await t.app.inject({
      url: `/v1/auth/sso/saml/${organization.id}/metadata`,
    });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['content-type']).toContain('application/samlmetadata+xml');
    expect(metadata.body).toContain(`Location="${ACS}"`);
    expect(metadata.body).toContain('WantAssertionsSigned="true"');
    const none = await t.app.inject({ url: `/v1/auth/sso/saml/${admin.organization.id}/metadata` });
    expect(none.statusCode).toBe(404);
  });

  it('takes a sign-on URL and certificate by hand, and refuses what is not one', async () => {
    const organization = await makeOrganization(t.db);
    const put = (extra: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/admin/organizations/${organization.id}/sso`,
        headers: admin.headers,
        payload: {
          protocol: 'saml',
          email_domains: ['hand.example'],
          enforced: false,
          jit: false,
          default_role: 'client',
          ...extra,
        },
      });
    const cert = idp.metadata.match(/<(?:ds:)?X509Certificate>([^<]+)</)![1]!;
    const good = await put({ entry_point: 'https://idp.hand.example/sso', idp_certificate: cert });
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json().idp_certificate).toContain('BEGIN CERTIFICATE');
    const bad = await put({ entry_point: 'https://idp.hand.example/sso', idp_certificate: 'abc' });
    expect(bad.statusCode).toBe(400);
    const missing = await put({ entry_point: 'https://idp.hand.example/sso' });
    expect(missing.statusCode).toBe(400);
    const doctype = await put({ idp_metadata_xml: '<!DOCTYPE x [<!ENTITY a "b">]><x/>' });
    expect(doctype.statusCode).toBe(400);
  });
});

describe('SAML sign-in', () => {
  it('signs a known account in with the console’s cookie, by redirect and ACS', async () => {
    const organization = await configure('happy-saml.example');
    const account = await makeAccount(t.db, {
      organization_id: organization.id,
      email: 'ann@happy-saml.example',
    });
    const started = await t.app.inject({ url: '/v1/auth/sso/start?email=ann@happy-saml.example' });
    expect(
      new URL(started.headers.location as string).searchParams.get('SAMLRequest'),
    ).toBeTruthy();
    const acs = await signIn('ann@happy-saml.example', '/sessions?tab=history');
    expect(acs.statusCode, acs.body).toBe(302);
    expect(acs.headers.location).toBe('/sessions?tab=history');
    expect(idp.lastRequest?.forceAuthn).toBe(false);
    const cookie = sessionCookie(acs);
    expect(cookie).toBeDefined();
    const me = await t.app.inject({
      url: '/v1/me',
      headers: { host: new URL(PUBLIC_URL).host },
      cookies: { vrtc_session: cookie!.value },
    });
    expect(me.json()).toMatchObject({ id: account.id, organization_id: organization.id });
    const event = await t.db
      .selectFrom('audit_events')
      .select(['action', 'changes'])
      .where('action', '=', 'auth.login')
      .where('target_id', '=', account.id)
      .executeTakeFirst();
    expect(event?.changes).toMatchObject({ method: [null, 'single sign-on (saml)'] });
  });

  it('creates a missing account with jit, and refuses it without', async () => {
    const organization = await configure('jit-saml.example');
    const refused = await signIn('new@jit-saml.example');
    expect(refused.headers.location).toBe('/login?sso_error=no_account');
    expect(sessionCookie(refused)).toBeUndefined();
    await reconfigure(organization.id, 'jit-saml.example', { jit: true, default_role: 'auditor' });
    const created = await signIn('new@jit-saml.example');
    expect(created.headers.location).toBe('/sessions');
    const account = await t.db
      .selectFrom('accounts')
      .selectAll()
      .where('email', '=', 'new@jit-saml.example')
      .executeTakeFirstOrThrow();
    expect(account).toMatchObject({ organization_id: organization.id, role: 'auditor' });
  });

  it('refuses an email of another organisation and of a platform admin', async () => {
    const mine = await configure('mine-saml.example', { jit: true });
    const other = await makeOrganization(t.db);
    await makeAccount(t.db, { organization_id: other.id, email: 'bob@other-saml.example' });
    await makeAccount(t.db, {
      organization_id: mine.id,
      email: 'root@mine-saml.example',
      role: 'admin',
    });
    const foreign = await post(
      await responseFor(`/v1/auth/sso/start?organization_id=${mine.id}`, 'bob@other-saml.example'),
    );
    expect(foreign.headers.location).toBe('/login?sso_error=email_not_allowed');
    const asAdmin = await signIn('root@mine-saml.example');
    expect(asAdmin.headers.location).toBe('/login?sso_error=email_not_allowed');
    expect(sessionCookie(asAdmin)).toBeUndefined();
  });
});

describe('SAML attacks', () => {
  let organizationId = '';
  const victim = 'vic@attack-saml.example';
  const fresh = () => responseFor(`/v1/auth/sso/start?organization_id=${organizationId}`, victim);
  beforeAll(async () => {
    const organization = await configure('attack-saml.example');
    organizationId = organization.id;
    await makeAccount(t.db, { organization_id: organization.id, email: victim });
    await makeAccount(t.db, {
      organization_id: organization.id,
      email: 'boss@attack-saml.example',
    });
  });
  const refusedAs = async (samlResponse: string, code = 'invalid_response') => {
    current = organizationId;
    const answer = await post(samlResponse);
    expect(answer.headers.location).toBe(`/login?sso_error=${code}`);
    expect(sessionCookie(answer)).toBeUndefined();
  };

  it('refuses a wrapped signature: the signed assertion hidden, another one in its place', async () => {
    current = organizationId;
    const wrapped = tamper(await fresh(), (document) => {
      const response = document.documentElement!;
      const [signed] = byName(document, 'Assertion');
      const evil = signed!.cloneNode(true) as Element;
      evil.setAttribute('ID', '_evil');
      byName(evil, 'NameID')[0]!.textContent = 'boss@attack-saml.example';
      // The genuine assertion moves out of sight, inside the evil one's signature.
      const signature = byName(evil, 'Signature')[0]!;
      signature.appendChild(signed!);
      response.appendChild(evil);
    });
    await refusedAs(wrapped);
    // And a second assertion beside the signed one.
    const beside = tamper(await fresh(), (document) => {
      const [signed] = byName(document, 'Assertion');
      const evil = signed!.cloneNode(true) as Element;
      evil.setAttribute('ID', '_evil2');
      byName(evil, 'NameID')[0]!.textContent = 'boss@attack-saml.example';
      document.documentElement!.insertBefore(evil, signed!);
    });
    await refusedAs(beside);
  });

  it('refuses an unsigned assertion and a changed signed one', async () => {
    current = organizationId;
    const unsigned = tamper(await fresh(), (document) => {
      for (const signature of byName(document, 'Signature'))
        signature.parentNode!.removeChild(signature);
    });
    await refusedAs(unsigned);
    const changed = tamper(await fresh(), (document) => {
      byName(document, 'NameID')[0]!.textContent = 'boss@attack-saml.example';
    });
    await refusedAs(changed);
  });

  it('refuses an assertion for another audience and one signed by another key', async () => {
    current = organizationId;
    idp.answer = { audience: 'https://another-app.example/saml' };
    await refusedAs(await fresh());
    idp.answer = { attacker: true };
    await refusedAs(await fresh());
  });

  it('refuses a replayed response and a reused assertion', async () => {
    current = organizationId;
    const once = await fresh();
    expect((await post(once)).headers.location).toBe('/');
    await refusedAs(once, 'invalid_state');
    idp.answer = { assertionId: '_same-assertion' };
    expect((await post(await fresh())).headers.location).toBe('/');
    idp.answer = { assertionId: '_same-assertion' };
    await refusedAs(await fresh());
  });

  it('refuses an expired assertion beyond two minutes of skew, and takes one within', async () => {
    current = organizationId;
    idp.answer = { expiresInMs: -3 * 60 * 1000 };
    await refusedAs(await fresh());
    idp.answer = { expiresInMs: -60 * 1000 };
    expect((await post(await fresh())).headers.location).toBe('/');
  });

  it('refuses a response to no request of the console', async () => {
    current = organizationId;
    const response = tamper(await fresh(), (document) => {
      document.documentElement!.setAttribute('InResponseTo', '_never-asked');
    });
    await refusedAs(response, 'invalid_state');
  });
});

describe('SAML test sign-in and re-authentication', () => {
  it('reports the assertion or the exact failure to the admin, with ForceAuthn, nobody signed in', async () => {
    const organization = await configure('trial-saml.example');
    const result = async (answer: { headers: Record<string, unknown> }) => {
      const at = new URL(answer.headers.location as string, PUBLIC_URL);
      expect(at.pathname).toBe(`/admin/organizations/${organization.id}`);
      const testId = at.searchParams.get('sso_test');
      const read = await t.app.inject({
        url: `/v1/admin/organizations/${organization.id}/sso/tests/${testId}`,
        headers: admin.headers,
      });
      expect(read.statusCode, read.body).toBe(200);
      return read.json();
    };
    const start = `/v1/admin/organizations/${organization.id}/sso/test`;
    const started = await t.app.inject({ url: start, headers: admin.headers });
    const signOn = new URL(started.headers.location as string);
    signOn.searchParams.set('login', 'tess@trial-saml.example');
    const page = await (await fetch(signOn)).text();
    expect(idp.lastRequest?.forceAuthn).toBe(true);
    const ok = await post(samlResponseOf(page));
    expect(sessionCookie(ok)).toBeUndefined();
    expect(await result(ok)).toMatchObject({
      ok: true,
      protocol: 'saml',
      claims: { nameID: 'tess@trial-saml.example', issuer: idp.entityId },
      outcome: 'no_account',
      email: 'tess@trial-saml.example',
      role: null,
      code: null,
    });
    idp.answer = { audience: 'https://another-app.example/saml' };
    const again = await t.app.inject({ url: start, headers: admin.headers });
    const next = new URL(again.headers.location as string);
    next.searchParams.set('login', 'tess@trial-saml.example');
    const failed = await post(samlResponseOf(await (await fetch(next)).text()));
    expect(await result(failed)).toMatchObject({
      ok: false,
      outcome: null,
      code: 'invalid_response',
      detail: expect.stringContaining('audience mismatch'),
    });
  });
});
