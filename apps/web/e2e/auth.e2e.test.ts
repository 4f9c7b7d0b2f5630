import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminLogin,
  apiCall,
  apiLogin,
  baseUrl,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  uniqueName,
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

    const admin = adminLogin();
    await signIn(page, admin.email, admin.password);
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(admin.email);
    expect(await page.getByTestId('user-role').textContent()).toBe('ADMIN');
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

    await signIn(page, clientEmail, clientPassword);
    await expect.poll(() => page.getByTestId('user-role').textContent()).toBe('CLIENT');
    expect(await page.getByText('Client Features').count()).toBe(1);
    expect(await page.getByText('Admin Features').count()).toBe(0);
    await page.context().close();
  });

  it('shows the server message for wrong credentials and the spec message for empty fields', async () => {
    const page = await newPage(browser, 'en');
    await page.goto(`${baseUrl()}/login`);
    await page.locator('button[type="submit"]').click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Login failed. Please check your credentials.');
    await page.locator('input[name="email"]').fill(clientEmail);
    await page.locator('input[name="password"]').fill('wrong-password');
    await page.locator('button[type="submit"]').click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Invalid email or password');
    expect(page.url()).toMatch(/\/login$/);
    await page.context().close();
  });

  it('redirects: / and unknown paths to /vr-users, /login when signed in, admin routes for clients', async () => {
    const page = await newPage(browser, 'en');
    await page.goto(`${baseUrl()}/admin/organizations`);
    await page.waitForURL('**/login');
    await signIn(page, clientEmail, clientPassword);
    await page.goto(`${baseUrl()}/`);
    await page.waitForURL('**/vr-users');
    await page.goto(`${baseUrl()}/no/such/page`);
    await page.waitForURL('**/vr-users');
    await page.goto(`${baseUrl()}/login`);
    await page.waitForURL('**/vr-users');
    for (const path of ['/admin/organizations', '/admin/users', '/admin/global-stats']) {
      await page.goto(`${baseUrl()}${path}`);
      await page.waitForURL('**/vr-users');
    }
    await page.context().close();
  });

  it('clears the stored login and returns to /login when the token stops working', async () => {
    const page = await newPage(browser, 'en');
    await signIn(page, clientEmail, clientPassword);
    const token = await page.evaluate(
      () => JSON.parse(localStorage.getItem('vr_user') ?? '{}').token as string,
    );
    await apiCall('POST', '/v1/auth/logout', token);
    await page.reload();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('vr_user'))).toBeNull();
    await page.context().close();
  });
});
