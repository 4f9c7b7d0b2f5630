import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALOG_SCOPE, expectAccessible } from './axe';
import { tr } from './i18n';
import { browserAndTenants, type Tenant } from './seed';
import { baseUrl, newPage, screenshot, settled, signIn, type Language } from './support';

/**
 * An account makes an API token from the header's account menu, uses its secret from a script,
 * and revokes it: the script is refused at once. In English on a desktop, in Russian on a phone.
 */

let browser: Browser;
let english: Tenant;
let russian: Tenant;

beforeAll(async () => {
  ({ browser, english, russian } = await browserAndTenants('Api Tokens Org'));
});
afterAll(() => browser?.close());

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 360, height: 780 };

async function openTokensDialog(page: Page, language: Language) {
  await page.getByRole('button', { name: tr(language, 'layout:account.menu') }).click();
  await page.getByRole('menuitem', { name: tr(language, 'layout:account.apiTokens') }).click();
  const dialog = page.getByRole('dialog', { name: tr(language, 'apiTokens:title') });
  await dialog.waitFor();
  return dialog;
}

const meStatus = async (token: string) =>
  (await fetch(`${baseUrl()}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status;

async function makeToken(page: Page, language: Language, name: string) {
  const t = (key: string) => tr(language, key);
  const dialog = await openTokensDialog(page, language);
  await dialog.getByLabel(new RegExp(`^${t('apiTokens:name')}`)).fill(name);
  await dialog.getByRole('button', { name: t('apiTokens:create') }).click();
  const secret = (await dialog.getByTestId('api-token-secret').textContent())!.trim();
  await dialog.getByText(t('apiTokens:shownOnce')).waitFor();
  return { dialog, secret };
}

describe('API tokens in the account menu', () => {
  it('makes a token whose secret works once copied, and revokes it at once (English, desktop)', async () => {
    const t = (key: string, values?: Record<string, string | number>) => tr('en', key, values);
    const page = await newPage(browser, 'en', { viewport: DESKTOP });
    await signIn(page, english.email, english.password);
    const { dialog, secret } = await makeToken(page, 'en', 'Nightly export');
    expect(await meStatus(secret)).toBe(200);
    await settled(page);
    await expectAccessible(page, 'API tokens dialog (en, desktop)', DIALOG_SCOPE);
    await screenshot(page, 'en', 'api-tokens-created');

    await dialog.getByRole('button', { name: t('apiTokens:done') }).click();
    await dialog.getByTestId('api-token-secret').waitFor({ state: 'detached' });
    await dialog
      .getByRole('button', { name: t('apiTokens:revokeNamed', { name: 'Nightly export' }) })
      .click();
    const confirm = page.getByRole('dialog', { name: t('apiTokens:revokeTitle') });
    await confirm.getByRole('button', { name: t('apiTokens:revoke') }).click();
    await page.getByText(t('apiTokens:revoked', { name: 'Nightly export' })).waitFor();
    expect(await meStatus(secret)).toBe(401);
    await dialog.getByText(t('apiTokens:none')).waitFor();
    await page.context().close();
  });

  it('speaks Russian and fits a 360 px phone', async () => {
    const page = await newPage(browser, 'ru', { viewport: PHONE });
    await signIn(page, russian.email, russian.password);
    const { dialog, secret } = await makeToken(page, 'ru', 'Ночная выгрузка');
    expect(await meStatus(secret)).toBe(200);
    await settled(page);
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page, 'API tokens dialog (ru, phone)', DIALOG_SCOPE);
    await screenshot(page, 'ru', 'api-tokens-created');
    await page.context().close();
  });
});
