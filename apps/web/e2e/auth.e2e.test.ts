import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe';
import { LANGUAGES, tr } from './i18n';
import {
  adminLogin,
  apiCall,
  apiLogin,
  baseUrl,
  launchBrowser,
  newPage,
  screenshot,
  sessionCookie,
  signInWithForm,
  uniqueName,
  VIEWPORTS,
} from './support';

let browser: Browser;
let clientEmail: string;
const clientPassword = 'client-password';

beforeAll(async () => {
  browser = await launchBrowser();
  const admin = adminLogin();
  const token = await apiLogin(admin.email, admin.password);
  const organization = await apiCall<{ id: string }>('POST', '/v1/admin/organizations', token, {
    name: uniqueName('Auth Org'),
  });
  clientEmail = `client-${Date.now()}@e2e.test`;
  await apiCall('POST', '/v1/admin/users', token, {
    email: clientEmail,
    password: clientPassword,
    role: 'client',
    organization_id: organization.id,
  });
});
afterAll(() => browser?.close());

describe('signing in', () => {
  it('signs in in Russian, shows the profile in the sidebar, and signs out after confirmation', async () => {
    const page = await newPage(browser, 'ru');
    await page.goto(`${baseUrl()}/`);
    await page.waitForURL('**/login');
    await expect.poll(() => page.locator('button[type="submit"]').textContent()).toBe('Войти');
    await screenshot(page, 'ru', 'login');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'ru', 'login');
    await page.setViewportSize(VIEWPORTS.laptop);

    const admin = adminLogin();
    await signInWithForm(page, admin.email, admin.password);
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(admin.email);
    // The role in capitals, in the console's language (as /admin/users names it).
    expect(await page.getByTestId('user-role').innerText()).toBe('АДМИНИСТРАТОР');
    expect(await page.getByText('Функции администратора').count()).toBe(1);

    await page.getByRole('button', { name: 'Выйти' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Выйти' }).click();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('vr_user'))).toBeNull();
    await page.context().close();
  });

  it('signs in in English and switches language on the login page', async () => {
    const page = await newPage(browser, 'ru');
    await page.goto(`${baseUrl()}/login`);
    await page.getByText('EN', { exact: true }).click();
    await expect.poll(() => page.locator('button[type="submit"]').textContent()).toBe('Sign in');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('en');
    await screenshot(page, 'en', 'login');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'en', 'login');
    await page.setViewportSize(VIEWPORTS.laptop);

    await signInWithForm(page, clientEmail, clientPassword);
    await expect.poll(() => page.getByTestId('user-role').innerText()).toBe('STAFF');
    expect(await page.getByText('Training center').count()).toBe(1);
    expect(await page.getByText('Admin Features').count()).toBe(0);
    await page.context().close();
  });

  it.each(LANGUAGES)(
    'words wrong credentials in the console language (%s), and empty fields beside each field',
    async (language) => {
      const page = await newPage(browser, language);
      await page.goto(`${baseUrl()}/login`);
      await page.locator('button[type="submit"]').waitFor();
      // The one route outside the layout passes axe too, before and after a failure.
      await expectAccessible(page, `${language} login`);
      const signIns: string[] = [];
      page.on('request', (request) => {
        if (request.url().endsWith('/v1/auth/login')) signIns.push(request.url());
      });
      await page.locator('button[type="submit"]').click();
      // Empty fields are said beside the fields, in the form: nothing goes to the server.
      await page.getByText(tr(language, 'auth:emailRequired')).waitFor();
      await page.getByText(tr(language, 'auth:passwordRequired')).waitFor();
      await expectAccessible(page, `${language} login with empty fields`);
      expect(signIns).toEqual([]);
      await page.locator('input[name="email"]').fill(clientEmail);
      await page.locator('input[name="password"]').fill('wrong-password');
      await page.locator('button[type="submit"]').click();
      // The server's code (invalid_credentials) in the console's words, never its English text.
      await expect
        .poll(() => page.getByRole('alert').textContent())
        .toBe(tr(language, 'errors:codes.invalid_credentials'));
      if (language === 'ru') {
        expect(await page.getByRole('alert').textContent()).toBe(
          'Неверная электронная почта или пароль.',
        );
      }
      await expectAccessible(page, `${language} login refused`);
      expect(await page.getByText('Invalid email or password', { exact: true }).count()).toBe(0);
      expect(page.url()).toMatch(/\/login$/);
      await page.context().close();
    },
  );

  it.each(LANGUAGES)(
    'redirects / to /vr-users and /login when signed in; says "not found" and "not allowed" (%s)',
    async (language) => {
      const page = await newPage(browser, language);
      await page.goto(`${baseUrl()}/admin/organizations`);
      await page.waitForURL('**/login?next=%2Fadmin%2Forganizations');
      await signInWithForm(page, clientEmail, clientPassword);
      await page.goto(`${baseUrl()}/`);
      await page.waitForURL('**/vr-users');
      await page.goto(`${baseUrl()}/no/such/page`);
      await page.getByText(tr(language, 'common:notFound.title')).waitFor();
      expect(new URL(page.url()).pathname).toBe('/no/such/page');
      await expectAccessible(page, `${language} page not found`);
      await page.getByRole('link', { name: tr(language, 'common:notFound.home') }).click();
      await page.waitForURL('**/vr-users');
      await page.goto(`${baseUrl()}/login`);
      await page.waitForURL('**/vr-users');
      for (const path of ['/admin/organizations', '/admin/users', '/admin/global-stats']) {
        await page.goto(`${baseUrl()}${path}`);
        await page.getByText(tr(language, 'common:notFound.notAllowedTitle')).waitFor();
        expect(new URL(page.url()).pathname).toBe(path);
      }
      await screenshot(page, language, 'not-allowed');
      await page.context().close();
    },
  );

  it('returns after sign-in to the page that was asked for, its filters included', async () => {
    const page = await newPage(browser, 'en');
    const asked = '/sessions?tab=history&status=completed&from=2026-05-01&to=2026-05-31';
    await page.goto(`${baseUrl()}${asked}`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe(asked);
    await page.locator('input[name="email"]').fill(clientEmail);
    await page.locator('input[name="password"]').fill(clientPassword);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => `${url.pathname}${url.search}` === asked);
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Status', exact: true }).inputValue())
      .toBe('Completed');
    await page.context().close();
  });

  it.each(['//example.com/vr-users', 'https://example.com/', '/\\example.com'])(
    'refuses to return to anything but a path of the console after sign-in (%s)',
    async (next) => {
      const page = await newPage(browser, 'en');
      await page.goto(`${baseUrl()}/login?next=${encodeURIComponent(next)}`);
      await page.locator('input[name="email"]').fill(clientEmail);
      await page.locator('input[name="password"]').fill(clientPassword);
      await page.locator('button[type="submit"]').click();
      await page.waitForURL((url) => url.pathname === '/vr-users');
      expect(new URL(page.url()).origin).toBe(new URL(baseUrl()).origin);
      await page.context().close();
    },
  );

  it('clears the stored login and returns to /login when the sign-in stops working', async () => {
    const page = await newPage(browser, 'en');
    const token = await signInWithForm(page, clientEmail, clientPassword);
    // Ended elsewhere (the cookie's value is the sign-in's token): the browser still holds it.
    await apiCall('POST', '/v1/auth/logout', token);
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('vr_user'))).toBeNull();
    // The 401 cleared the cookie that no longer signs anyone in.
    expect(await sessionCookie(page)).toBeUndefined();
    await page.context().close();
  });

  it('keeps the sign-in in an httpOnly cookie that no script reads, across a reload, until sign-out', async () => {
    const page = await newPage(browser, 'en');
    const token = await signInWithForm(page, clientEmail, clientPassword);
    expect(await sessionCookie(page)).toMatchObject({
      value: token,
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      // The e2e server is plain http; over https it is __Host-vrtc_session with Secure.
      secure: false,
    });
    const scriptSees = await page.evaluate(() => ({
      cookies: document.cookie,
      storage: Object.keys(localStorage).map((key) => localStorage.getItem(key) ?? ''),
      stored: JSON.parse(localStorage.getItem('vr_user') ?? '{}') as Record<string, unknown>,
    }));
    expect(scriptSees.cookies).not.toContain(token);
    expect(scriptSees.storage.join('\n')).not.toContain(token);
    expect(Object.keys(scriptSees.stored)).toEqual(['user']);
    expect(scriptSees.stored.user).toMatchObject({ email: clientEmail });

    await page.reload();
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(clientEmail);
    expect(page.url()).toMatch(/\/vr-users$/);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    expect(await sessionCookie(page)).toBeUndefined();
    expect(await page.evaluate(() => localStorage.getItem('vr_user'))).toBeNull();
    // The sign-in itself ended, not only the browser's copy.
    await expect(apiCall('GET', '/v1/me', token)).rejects.toThrow(/401/);
    await page.reload();
    await page.waitForURL('**/login');
    await page.context().close();
  });
});

/** Every API answer of 400 or more the page receives from now on, as "status METHOD path". */
function refusedResponses(page: Page): string[] {
  const refused: string[] = [];
  page.on('response', (response) => {
    if (response.status() < 400) return;
    const url = new URL(response.url());
    refused.push(`${response.status()} ${response.request().method()} ${url.pathname}`);
  });
  return refused;
}

/** The paths the page asked of the API from now on. */
function apiPaths(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) paths.push(url.pathname);
  });
  return paths;
}

/** How many refusals of GET /v1/me the audit log holds (an admin reads every chain). */
async function auditedMeRefusals(adminToken: string) {
  const page = await apiCall<{ audit_events: unknown[] }>(
    'GET',
    `/v1/audit-events?action=auth.access_denied&target_id=${encodeURIComponent('GET /v1/me')}&limit=500`,
    adminToken,
  );
  return page.audit_events.length;
}

describe('a signed-out visit of the sign-in page (issue 42)', () => {
  it.each(LANGUAGES)(
    'is told so without a refused request or an audit event, before and after a sign-in (%s)',
    async (language) => {
      const admin = adminLogin();
      const adminToken = await apiLogin(admin.email, admin.password);
      const audited = await auditedMeRefusals(adminToken);
      const page = await newPage(browser, language);
      const refused = refusedResponses(page);
      const asked = apiPaths(page);
      const probed = page.waitForResponse(
        (response) => new URL(response.url()).pathname === '/v1/auth/session',
      );
      await page.goto(`${baseUrl()}/login`);
      expect((await probed).status()).toBe(200);
      await page
        .locator('button[type="submit"]')
        .filter({ hasText: tr(language, 'auth:signIn') })
        .waitFor();
      expect(asked).not.toContain('/v1/me');
      expect(refused).toEqual([]);

      // Signed in, the console works as before; signed out again, the sign-in page is quiet.
      await signInWithForm(page, clientEmail, clientPassword);
      await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(clientEmail);
      const logout = tr(language, 'layout:logout');
      await page.getByRole('button', { name: logout }).click();
      await page.getByRole('dialog').getByRole('button', { name: logout }).click();
      await page.waitForURL('**/login');
      await page.goto(`${baseUrl()}/login`);
      await page.locator('input[name="email"]').waitFor();
      await page.reload();
      await page.locator('input[name="email"]').waitFor();
      expect(refused).toEqual([]);
      expect(asked.filter((path) => path === '/v1/me')).toEqual([]);
      expect(await auditedMeRefusals(adminToken)).toBe(audited);
      await page.context().close();
    },
  );
});
