import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH, PASSWORD_RECOMMENDED_LENGTH } from '@vrtc/contract';
import { expectAccessible } from './axe';
import { tr } from './i18n';
import { browserAndTenants, type Tenant } from './seed';
import {
  apiLogin,
  baseUrl,
  newPage,
  screenshot,
  settled,
  signIn,
  signInWithForm,
  type Language,
} from './support';

/**
 * An account changes its own password from the header's account menu: its other sign-ins end,
 * the one it used goes on, and the new password is the one that signs in.
 */

let browser: Browser;
let english: Tenant;
let russian: Tenant;

beforeAll(async () => {
  ({ browser, english, russian } = await browserAndTenants('Own Password Org'));
});
afterAll(() => browser?.close());

/** Opens the account menu and its "Change password" item; answers the dialog. */
async function openPasswordDialog(page: Page, language: Language) {
  await page.getByRole('button', { name: tr(language, 'layout:account.menu') }).click();
  await page.getByRole('menuitem', { name: tr(language, 'layout:account.changePassword') }).click();
  return page.getByRole('dialog', { name: tr(language, 'password:title') });
}

/** A field of the dialog by the start of its label (a required field's label ends in an asterisk). */
const field = (dialog: Locator, label: string) => dialog.getByLabel(new RegExp(`^${label}`));

/** The narrowest phone the console promises to work on. */
const PHONE = { width: 360, height: 740 };

const meStatus = async (token: string) =>
  (await fetch(`${baseUrl()}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status;

describe('changing one’s own password', () => {
  it('changes it in English: a wrong current one is said at its field, other sign-ins end, the new one signs in', async () => {
    const t = (key: string, values?: Record<string, string | number>) => tr('en', key, values);
    const otherSignIn = await apiLogin(english.email, english.password);
    const page = await newPage(browser, 'en');
    await signIn(page, english.email, english.password);

    const dialog = await openPasswordDialog(page, 'en');
    await field(dialog, t('password:current')).fill('not-my-password');
    await field(dialog, t('password:new')).fill('my-new-password');
    await field(dialog, t('password:repeat')).fill('my-new-password');
    await dialog.getByRole('button', { name: t('password:submit') }).click();
    await dialog.getByText(t('password:wrongCurrent')).waitFor();

    await field(dialog, t('password:current')).fill(english.password);
    await dialog.getByRole('button', { name: t('password:submit') }).click();
    await page.getByText(t('password:changed')).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    // The API sign-in made beforehand has ended; the console's own goes on.
    expect(await meStatus(otherSignIn)).toBe(401);
    await page.reload();
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(english.email);

    await page.getByRole('button', { name: t('layout:logout') }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('layout:logout') })
      .click();
    await page.waitForURL('**/login');

    // The old password no longer signs in; the new one does.
    await page.locator('input[name="email"]').fill(english.email);
    await page.locator('input[name="password"]').fill(english.password);
    const refused = page.waitForResponse((response) => response.url().endsWith('/v1/auth/login'));
    await page.locator('button[type="submit"]').click();
    expect((await refused).status()).toBe(401);
    expect(page.url()).toContain('/login');
    await signInWithForm(page, english.email, 'my-new-password');
    await page.context().close();
  });

  it('speaks Russian, is reached by keyboard and fits a phone', async () => {
    const t = (key: string, values?: Record<string, string | number>) => tr('ru', key, values);
    const page = await newPage(browser, 'ru', { viewport: PHONE });
    await signIn(page, russian.email, russian.password);

    // The menu's button stays on screen beside the longest (Russian) title.
    const menuButton = page.getByRole('button', { name: t('layout:account.menu') });
    const buttonBox = (await menuButton.boundingBox())!;
    expect(buttonBox.x + buttonBox.width).toBeLessThanOrEqual(PHONE.width);

    // By keyboard: Enter opens the menu, an arrow reaches its item, Enter takes it.
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('ArrowDown');
    const item = page.getByRole('menuitem', { name: t('layout:account.changePassword') });
    await expect.poll(() => item.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: t('password:title') });
    await dialog.waitFor();

    // The current password's field has the focus; every label is in Russian.
    const current = field(dialog, t('password:current'));
    await expect.poll(() => current.evaluate((node) => node === document.activeElement)).toBe(true);
    await field(dialog, t('password:new')).waitFor();
    await field(dialog, t('password:repeat')).waitFor();
    await dialog
      .getByText(
        t('password:hint', {
          count: PASSWORD_MIN_LENGTH,
          recommended: PASSWORD_RECOMMENDED_LENGTH,
        }),
      )
      .waitFor();

    // The rules are checked in the browser, in Russian.
    await page.keyboard.type('что-то');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12345');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12346');
    await page.keyboard.press('Enter');
    await dialog.getByText(t('password:tooShort', { count: PASSWORD_MIN_LENGTH })).waitFor();
    await dialog.getByText(t('password:mismatch')).waitFor();

    // Within the phone's width, and accessible.
    await settled(page);
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page, 'own password dialog (ru, phone)');
    await screenshot(page, 'ru', 'own-password');

    // Escape closes it, nothing changed: the password still signs in.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await meStatus(await apiLogin(russian.email, russian.password))).toBe(200);
    await page.context().close();
  });
});
