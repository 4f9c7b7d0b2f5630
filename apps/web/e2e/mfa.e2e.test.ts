import * as OTPAuth from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEventPage } from '@vrtc/contract';
import { expectAccessible } from './axe';
import { tr } from './i18n';
import { OWN_SERVER_START_MS, OwnServer } from './own-server';
import { adminToken, createTenant, type Tenant } from './seed';
import {
  adminLogin,
  apiCall,
  baseUrl,
  launchBrowser,
  newPage,
  searchList,
  settled,
  useOwnServer,
  type Language,
} from './support';

/**
 * Two-factor authentication (decision 031) as a person sets it up: an authenticator app from the
 * account menu (the code computed here from the key the dialog shows), and a passkey made by
 * Chromium's virtual authenticator; each then asked for after the password. A platform admin
 * resets an account's factors and requires them of platform admins: that setting holds for the
 * whole platform, so this file runs a server of its own (the other files' admin signs in by
 * password alone).
 */
const server = new OwnServer({});
let browser: Browser;
let admin: string;
beforeAll(async () => {
  useOwnServer(await server.start());
  [browser, admin] = await Promise.all([launchBrowser(), adminToken()]);
}, OWN_SERVER_START_MS + 60_000);
afterAll(async () => {
  await browser?.close();
  useOwnServer(undefined);
  await server.close();
});

/** WebAuthn refuses an IP address as relying party: the console is opened as localhost. */
const origin = () => baseUrl().replace('127.0.0.1', 'localhost');
const SHOTS = process.env.MFA_SHOTS_DIR ?? '/tmp/shots-mfa';

async function shoot(page: Page, language: Language, name: string) {
  await settled(page);
  for (const [size, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 360, height: 780 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await settled(page);
    await page.screenshot({ path: `${SHOTS}/${language}-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

async function passwordStep(page: Page, tenant: Tenant) {
  await page.goto(`${origin()}/login`);
  await page.locator('input[name="email"]').fill(tenant.email);
  await page.locator('input[name="password"]').fill(tenant.password);
  await page.locator('button[type="submit"]').click();
}

async function openSecurity(page: Page, language: Language) {
  await page.getByRole('button', { name: tr(language, 'layout:account.menu') }).click();
  await page.getByRole('menuitem', { name: tr(language, 'layout:account.security') }).click();
  return page.getByRole('dialog', { name: tr(language, 'mfa:title') });
}

async function signedOut(page: Page) {
  await page.context().clearCookies();
}

const auditOf = async (action: string, tenant: Tenant) =>
  (
    await apiCall<AuditEventPage>(
      'GET',
      `/v1/audit-events?action=${action}&organization_id=${tenant.organization.id}`,
      admin,
    )
  ).audit_events;

describe('two-factor authentication', () => {
  it('sets up an authenticator app in English and signs in with a code of it', async () => {
    const t = (key: string) => tr('en', key);
    const tenant = await createTenant(admin, 'Mfa Totp Org');
    const page = await newPage(browser, 'en');
    await passwordStep(page, tenant);
    await page.waitForURL('**/vr-users');

    const dialog = await openSecurity(page, 'en');
    await dialog.getByRole('button', { name: t('mfa:totp.start') }).click();
    const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    await shoot(page, 'en', 'totp-enrolment');
    await expectAccessible(page, 'mfa: authenticator app enrolment');
    await dialog.getByLabel(t('mfa:totp.code')).fill(totp.generate());
    await dialog.getByRole('button', { name: t('mfa:totp.confirm') }).click();
    await dialog.getByTestId('recovery-codes').waitFor();
    await shoot(page, 'en', 'recovery-codes');
    await dialog.getByRole('button', { name: t('mfa:recovery.done') }).click();

    await signedOut(page);
    await passwordStep(page, tenant);
    await page.getByText(t('mfa:step.title')).waitFor();
    await shoot(page, 'en', 'second-step');
    await expectAccessible(page, 'mfa: the sign-in’s second step');
    // The enrolment took this step's code: the next step's is taken (one step of drift allowed).
    const next = totp.generate({ timestamp: Date.now() + 30_000 });
    await page.getByLabel(t('mfa:step.code')).fill(next);
    await page.getByRole('button', { name: t('mfa:step.verify') }).click();
    await page.waitForURL('**/vr-users');
    expect((await auditOf('mfa.totp_enrolled', tenant)).length).toBe(1);
  });

  it('adds a passkey in Russian (virtual authenticator) and signs in with it', async () => {
    const t = (key: string) => tr('ru', key);
    const tenant = await createTenant(admin, 'Mfa Passkey Org');
    const page = await newPage(browser, 'ru');
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await passwordStep(page, tenant);
    await page.waitForURL('**/vr-users');

    const dialog = await openSecurity(page, 'ru');
    await dialog.getByLabel(t('mfa:passkeys.name')).fill('Ноутбук');
    await dialog.getByRole('button', { name: t('mfa:passkeys.add') }).click();
    await dialog.getByTestId('recovery-codes').waitFor();
    await dialog.getByRole('button', { name: t('mfa:recovery.done') }).click();
    await dialog.getByTestId('passkey-row').getByText('Ноутбук').waitFor();
    await shoot(page, 'ru', 'passkeys');
    await expectAccessible(page, 'mfa: passkeys');

    await signedOut(page);
    await passwordStep(page, tenant);
    await page.getByText(t('mfa:step.title')).waitFor();
    await shoot(page, 'ru', 'second-step');
    await page.getByRole('button', { name: t('mfa:step.passkey') }).click();
    await page.waitForURL('**/vr-users');
    const added = await auditOf('mfa.passkey_added', tenant);
    expect(added[0]).toMatchObject({ changes: { passkey: [null, 'Ноутбук'] } });
    const logins = await auditOf('auth.login', tenant);
    expect(logins.some((event) => event.changes.second_factor?.[1] === 'passkey')).toBe(true);
  });

  it('lets a platform admin reset an account’s factors and require them of platform admins', async () => {
    const tenant = await createTenant(admin, 'Mfa Reset Org');
    const { secret } = await apiCall<{ secret: string }>('POST', '/v1/me/mfa/totp', tenant.token);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    await apiCall('POST', '/v1/me/mfa/totp/confirm', tenant.token, { code: totp.generate() });

    const page = await newPage(browser, 'ru');
    const { email, password } = adminLogin();
    await passwordStep(page, { ...tenant, email, password });
    await page.waitForURL('**/vr-users');
    // English looks and cancels; Russian resets.
    for (const language of ['en', 'ru'] as const) {
      const t = (key: string, values?: Record<string, string>) => tr(language, key, values);
      await page.evaluate((lang) => localStorage.setItem('language', lang), language);
      await page.goto(`${origin()}/admin/users`);
      await searchList(page, t('adminUsers:search'), tenant.email);
      await shoot(page, language, 'admin-users');
      const row = page.getByRole('row').filter({ hasText: tenant.email });
      await row.getByRole('button', { name: t('adminUsers:mfaReset.action') }).click();
      const dialog = page.getByRole('dialog', { name: t('adminUsers:mfaReset.title') });
      await dialog
        .getByLabel(new RegExp(`^${t('adminUsers:mfaReset.reason')}`))
        .fill('Телефон утерян, личность проверена по видеосвязи');
      await shoot(page, language, 'admin-mfa-reset');
      await expectAccessible(page, `mfa: a platform admin's reset (${language})`);
      if (language === 'ru') {
        await dialog.getByRole('button', { name: t('adminUsers:mfaReset.submit') }).click();
        await page.getByText(t('adminUsers:mfaReset.done', { email: tenant.email })).waitFor();
        // The account has nothing left to reset: the row offers it no more.
        await row.getByRole('button', { name: t('adminUsers:mfaReset.action') }).waitFor({
          state: 'detached',
        });
      } else {
        await dialog.getByRole('button', { name: t('common:cancel') }).click();
      }
      await dialog.waitFor({ state: 'detached' });
    }
    const reset = await auditOf('mfa.reset', tenant);
    expect(reset[0]).toMatchObject({
      changes: { reason: [null, 'Телефон утерян, личность проверена по видеосвязи'] },
    });
    const signIn = await apiCall<object>('POST', '/v1/auth/login', undefined, {
      email: tenant.email,
      password: tenant.password,
    });
    expect(signIn).toHaveProperty('token');

    // The admins' requirement, turned on then off from the Russian console.
    const t = (key: string) => tr('ru', key);
    const adminSignIn = () =>
      apiCall<object>('POST', '/v1/auth/login', undefined, { email, password });
    const toggle = page.getByRole('switch', { name: t('adminUsers:mfaPolicy.label') });
    // The switch's track lies over its transparent input: a click there is a person's click.
    const flip = () => toggle.click({ force: true });
    await flip();
    const require = page.getByRole('dialog', { name: t('adminUsers:mfaPolicy.onTitle') });
    await require.waitFor();
    await shoot(page, 'ru', 'admin-mfa-policy-confirm');
    await require.getByRole('button', { name: t('adminUsers:mfaPolicy.turnOn') }).click();
    await page.getByText(t('adminUsers:mfaPolicy.turnedOn')).waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await shoot(page, 'ru', 'admin-mfa-policy-on');
    expect(await adminSignIn()).toMatchObject({ mfa_enrolment_required: true });

    await flip();
    const stop = page.getByRole('dialog', { name: t('adminUsers:mfaPolicy.offTitle') });
    await stop.getByRole('button', { name: t('adminUsers:mfaPolicy.turnOff') }).click();
    await page.getByText(t('adminUsers:mfaPolicy.turnedOff')).waitFor();
    expect(await toggle.isChecked()).toBe(false);
    expect(await adminSignIn()).not.toHaveProperty('mfa_enrolment_required');
    const policy = await apiCall<{ audit_events: unknown[] }>(
      'GET',
      '/v1/audit-events?action=mfa.policy_updated',
      admin,
    );
    expect(policy.audit_events).toHaveLength(2);
  });
});
