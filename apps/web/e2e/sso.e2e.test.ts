import net from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOidcIdp, type OidcIdp } from '../../server/test/oidc-idp';
import { startSamlIdp, type SamlIdp } from '../../server/test/saml-idp';
import { tr } from './i18n';
import { OWN_SERVER_START_MS, OwnServer } from './own-server';
import {
  adminLogin,
  apiCall,
  apiLogin,
  launchBrowser,
  newPage,
  screenshot,
  searchList,
  sessionCookie,
  signIn,
  uniqueName,
  useOwnServer,
  VIEWPORTS,
  type Language,
} from './support';

/**
 * Single sign-on in the browser (docs/sso.md), end to end: the sign-in page, the organisation's
 * real identity provider on 127.0.0.1 (oidc-provider's login and consent pages; samlify's page
 * that posts its signed response back, as a provider does), and the console signed in on the
 * page asked for.
 *
 * The console is served as `localhost` and the providers as `127.0.0.1`: two sites, so the
 * provider's way back (a redirect, or SAML's POST) is cross-site, as it is in production, and
 * the session cookie it sets must still sign the person in. The file runs its own server: the
 * redirect URI and the ACS come from PUBLIC_URL, which must be known before it starts, and
 * plain-http providers need SSO_ALLOW_HTTP.
 */
const FLOW_TIMEOUT = 240_000;
const PASSWORD = 'sso-break-glass-password';
/** What a poll of something the server answers waits for on a loaded machine. */
const WAIT = { timeout: 30_000 };

let server: OwnServer;
let url: string;
let browser: Browser;
let adminToken: string;
let oidc: OidcIdp;
let saml: SamlIdp;
const stamp = Date.now().toString(36);
const oidcDomain = `oidc-${stamp}.example`;
const samlDomain = `saml-${stamp}.example`;
let oidcOrg: { id: string; name: string };
let samlOrg: { id: string; name: string };
const keeper = `keeper@${oidcDomain}`;
const staff = `staff@${oidcDomain}`;
const known = `known@${samlDomain}`;

/** A port nothing listens on now, so PUBLIC_URL can name the server before it starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function makeOrganization(prefix: string) {
  const name = uniqueName(prefix);
  const organization = await apiCall<{ id: string }>(
    'POST',
    '/v1/admin/organizations',
    adminToken,
    {
      name,
    },
  );
  return { id: organization.id, name };
}

const makeAccount = (email: string, organizationId: string) =>
  apiCall('POST', '/v1/admin/users', adminToken, {
    email,
    password: PASSWORD,
    role: 'client',
    organization_id: organizationId,
  });

async function accountOf(email: string) {
  const list = await apiCall<{
    users: Array<{ email: string; role: string; sso_exempt?: boolean }>;
  }>('GET', `/v1/admin/users?q=${encodeURIComponent(email)}`, adminToken);
  return list.users.find((account) => account.email === email);
}

beforeAll(async () => {
  const port = await freePort();
  url = `http://localhost:${port}`;
  server = new OwnServer({ PORT: String(port), PUBLIC_URL: url, SSO_ALLOW_HTTP: 'true' });
  await server.start();
  useOwnServer(url);
  const admin = adminLogin();
  adminToken = await apiLogin(admin.email, admin.password);
  [oidcOrg, samlOrg, browser, oidc] = await Promise.all([
    makeOrganization('OIDC Org'),
    makeOrganization('SAML Org'),
    launchBrowser(),
    startOidcIdp({ publicUrl: url, consent: true }),
  ]);
  await makeAccount(keeper, oidcOrg.id);
  await makeAccount(staff, oidcOrg.id);
  await makeAccount(known, samlOrg.id);
  saml = await startSamlIdp(() =>
    fetch(`${url}/v1/auth/sso/saml/${samlOrg.id}/metadata`).then((response) => response.text()),
  );
  await apiCall('PUT', `/v1/admin/organizations/${samlOrg.id}/sso`, adminToken, {
    protocol: 'saml',
    idp_metadata_xml: saml.metadata,
    email_domains: [samlDomain],
    enforced: false,
    jit: false,
    default_role: 'client',
  });
}, OWN_SERVER_START_MS + FLOW_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await Promise.all([oidc?.close(), saml?.close()]);
  useOwnServer(undefined);
  await server?.close();
});

/** The sign-in page, reached by asking for `path` while signed out. */
async function signInPage(language: Language, path: string): Promise<Page> {
  const page = await newPage(browser, language);
  await page.goto(`${url}${path}`);
  await page.waitForURL((at) => at.pathname === '/login');
  return page;
}

/** oidc-provider's development pages: its login (any password), then its consent. */
async function atOidcProvider(page: Page, login: string) {
  await page.waitForURL((at) => at.href.startsWith(oidc.issuer));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password at the provider');
  await page.locator('button[type="submit"]').click();
  // The consent page (its one button), unless the provider already sent the browser back.
  await page.waitForURL(
    (at) => !at.href.startsWith(oidc.issuer) || /consent|interaction/.test(at.href),
  );
  if (page.url().startsWith(oidc.issuer)) await page.locator('button[type="submit"]').click();
}

/** samlify's sign-on page: the person's email, then its page that posts the response back. */
async function atSamlProvider(page: Page, login: string) {
  await page.waitForURL((at) => at.href.startsWith(saml.entityId.replace(/\/idp$/, '')));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('button').click();
}

/** Whoever the console says is signed in (the sidebar's email). */
const signedInAs = (page: Page) => page.getByTestId('user-email').textContent();

describe('single sign-on in the browser', () => {
  it(
    'is set up in the admin’s section (English): an exempt account, and a test sign-in that shows the claims',
    async () => {
      const en = (key: string) => tr('en', key);
      const page = await newPage(browser, 'en', { viewport: { width: 1440, height: 900 } });
      await signIn(page, adminLogin().email, adminLogin().password, '/admin/organizations');
      await searchList(page, en('adminOrganizations:search'), oidcOrg.name);
      await page.getByRole('button', { name: en('adminOrganizations:sso.title') }).click();
      const dialog = page.getByRole('dialog', {
        name: `${en('adminOrganizations:sso.title')}: ${oidcOrg.name}`,
      });
      await dialog.getByLabel(en('adminOrganizations:sso.issuer')).fill(oidc.issuer);
      await dialog.getByLabel(en('adminOrganizations:sso.clientId')).fill('console');
      await dialog.getByLabel(en('adminOrganizations:sso.clientSecret')).fill('console-secret');
      await dialog.getByLabel(en('adminOrganizations:sso.domains')).fill(oidcDomain);
      await dialog.getByRole('switch', { name: en('adminOrganizations:sso.enforced') }).check();
      await dialog.getByRole('switch', { name: en('adminOrganizations:sso.jit') }).check();
      await dialog
        .getByRole('combobox', { name: en('adminOrganizations:sso.defaultRole') })
        .click();
      await page.getByRole('option', { name: en('adminOrganizations:sso.roleAuditor') }).click();
      await dialog.getByRole('button', { name: en('adminOrganizations:sso.save') }).click();
      await expect
        .poll(() => dialog.getByText(`${url}/v1/auth/sso/callback`).count(), WAIT)
        .toBe(1);

      // The break-glass account: its switch in the section's list of the organisation's accounts.
      await dialog.getByRole('switch', { name: keeper }).check();
      await expect.poll(async () => (await accountOf(keeper))?.sso_exempt, WAIT).toBe(true);
      await screenshot(page, 'en', 'sso-section');

      // The test sign-in: the provider, then back to this organisation's section with what it saw.
      await dialog.getByRole('link', { name: en('adminOrganizations:sso.test') }).click();
      await atOidcProvider(page, `tester@${oidcDomain}`);
      await page.waitForURL((at) => at.pathname === `/admin/organizations/${oidcOrg.id}`);
      const result = page.getByRole('status').filter({
        hasText: en('adminOrganizations:sso.testPassed'),
      });
      await expect.poll(() => result.textContent()).toContain(`tester@${oidcDomain}`);
      // What would happen, worded by the console from the server's code: a jit account, auditor.
      expect(await result.textContent()).toContain(
        tr('en', 'adminOrganizations:sso.outcomes.would_create', {
          email: `tester@${oidcDomain}`,
          role: en('adminOrganizations:sso.roleAuditor'),
        }),
      );
      await screenshot(page, 'en', 'sso-test-result');
      // Nobody was signed in by it, and no account was made.
      expect(await signedInAs(page)).toBe(adminLogin().email);
      expect(await accountOf(`tester@${oidcDomain}`)).toBeUndefined();
      await page.context().close();
    },
    FLOW_TIMEOUT,
  );

  it(
    'OIDC, enforced (English): a new person goes straight to the provider, gets an account with the default role (JIT), and lands on the page asked for',
    async () => {
      const newcomer = `newcomer@${oidcDomain}`;
      const page = await signInPage('en', '/sessions');
      await page.locator('input[name="email"]').fill(newcomer);
      // Enforced: no password is asked, the one button goes to the provider.
      const go = page.getByRole('button', { name: tr('en', 'auth:continueWithSso') });
      await go.click();
      await atOidcProvider(page, newcomer);
      await page.waitForURL(`${url}/sessions`);
      await expect.poll(() => signedInAs(page)).toBe(newcomer);
      expect((await sessionCookie(page))?.httpOnly).toBe(true);
      expect(await accountOf(newcomer)).toMatchObject({ role: 'auditor' });
      await page.context().close();
    },
    FLOW_TIMEOUT,
  );

  it(
    'enforced: a password is refused with sso_required and the console sends the person to the provider; the exempt account signs in by password, in both languages',
    async () => {
      const refused = await fetch(`${url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: staff, password: PASSWORD }),
      });
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe('sso_required');

      // A page that has not learnt of single sign-on yet sends the password: the refusal
      // sends the person to the provider all the same.
      const page = await signInPage('en', '/sessions');
      await page.route('**/v1/auth/sso/discover**', (route) => route.abort());
      await page.locator('input[name="email"]').fill(staff);
      await page.locator('input[name="password"]').fill(PASSWORD);
      await page.locator('button[type="submit"]').click();
      await atOidcProvider(page, staff);
      await page.waitForURL(`${url}/sessions`);
      await expect.poll(() => signedInAs(page)).toBe(staff);
      await page.context().close();

      // The break-glass account types as a person does: the page has learnt that the
      // organisation enforces single sign-on before the password is typed.
      for (const language of ['en', 'ru'] as const) {
        const breakGlass = await signInPage(language, '/sessions');
        await breakGlass.locator('input[name="email"]').fill(keeper);
        await breakGlass.getByText(tr(language, 'auth:ssoEnforced')).waitFor();
        await screenshot(breakGlass, language, 'sso-enforced-sign-in');
        await breakGlass.setViewportSize(VIEWPORTS.phone);
        await screenshot(breakGlass, language, 'sso-enforced-sign-in');
        await breakGlass.getByRole('button', { name: tr(language, 'auth:passwordAnyway') }).click();
        await breakGlass.locator('input[name="password"]').fill(PASSWORD);
        await breakGlass
          .getByRole('button', { name: tr(language, 'auth:signIn'), exact: true })
          .click();
        await breakGlass.waitForURL(`${url}/sessions`);
        await expect.poll(() => signedInAs(breakGlass)).toBe(keeper);
        await breakGlass.context().close();
      }
    },
    FLOW_TIMEOUT,
  );

  it(
    'SAML in Russian: without JIT a stranger is told to ask the administrator; a known person’s cross-site POST leaves a working session on the page asked for',
    async () => {
      const stranger = await signInPage('ru', '/sessions');
      await stranger.locator('input[name="email"]').fill(`stranger@${samlDomain}`);
      await stranger.getByRole('button', { name: tr('ru', 'auth:continueWithSso') }).click();
      await atSamlProvider(stranger, `stranger@${samlDomain}`);
      await stranger.waitForURL((at) => at.pathname === '/login');
      await expect
        .poll(() => stranger.getByRole('alert').textContent())
        .toBe(tr('ru', 'auth:ssoError.no_account'));
      await screenshot(stranger, 'ru', 'sso-no-account');
      await stranger.context().close();

      const page = await signInPage('ru', '/sessions');
      await page.locator('input[name="email"]').fill(known);
      await page.getByRole('button', { name: tr('ru', 'auth:continueWithSso') }).click();
      await atSamlProvider(page, known);
      await page.waitForURL(`${url}/sessions`);
      await expect.poll(() => signedInAs(page)).toBe(known);
      // Set on the answer to the provider's cross-site POST, and sent from then on.
      const cookie = await sessionCookie(page);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      await page.reload();
      await expect.poll(() => signedInAs(page)).toBe(known);
      await page.context().close();
    },
    FLOW_TIMEOUT,
  );

  it(
    'the single sign-on section fits a 360 px phone, in both languages',
    async () => {
      for (const language of ['ru', 'en'] as const) {
        const page = await newPage(browser, language, { viewport: { width: 360, height: 780 } });
        await signIn(
          page,
          adminLogin().email,
          adminLogin().password,
          `/admin/organizations/${samlOrg.id}`,
        );
        const dialog = page.getByRole('dialog', {
          name: `${tr(language, 'adminOrganizations:sso.title')}: ${samlOrg.name}`,
        });
        await expect.poll(() => dialog.getByRole('switch', { name: known }).count(), WAIT).toBe(1);
        const overflowing = await page.evaluate(() =>
          [...document.querySelectorAll('[role="dialog"] *')]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
            .map((element) => element.outerHTML.slice(0, 120)),
        );
        expect(overflowing).toEqual([]);
        await screenshot(page, language, 'sso-section-saml');
        // The dialog scrolls on its own: its end, with the exempt accounts and the buttons.
        await dialog
          .getByRole('button', { name: tr(language, 'adminOrganizations:sso.save') })
          .scrollIntoViewIfNeeded();
        await screenshot(page, language, 'sso-section-saml-end');
        await page.setViewportSize({ width: 1440, height: 900 });
        await screenshot(page, language, 'sso-section-saml');
        await page.context().close();
      }
    },
    FLOW_TIMEOUT,
  );
});
