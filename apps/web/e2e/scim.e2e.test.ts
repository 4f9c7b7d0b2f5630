import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALOG_SCOPE, expectAccessible } from './axe';
import { LANGUAGES, tr } from './i18n';
import { adminToken } from './seed';
import {
  adminLogin,
  apiCall,
  baseUrl,
  launchBrowser,
  newPage,
  searchList,
  settled,
  signIn,
  uniqueName,
  type Language,
} from './support';

/**
 * A platform admin gives an organisation's directory its SCIM token (issue 38): on the
 * organisation's dialog, section "Directory provisioning (SCIM)", the tenant URL to copy, the token
 * shown once, then its state; the directory provisions with it. In both languages, on a laptop
 * and on the narrowest phone, accessible and never scrolling sideways.
 */
const PHONE_360 = { width: 360, height: 780 };
const LAPTOP = { width: 1440, height: 900 };
const SHOTS = process.env.SCIM_SHOTS_DIR;

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  await settled(page);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function openDialog(page: Page, language: Language, organizationName: string) {
  const t = (key: string) => tr(language, key);
  await page.goto(`${baseUrl()}/admin/organizations`);
  await searchList(page, t('adminOrganizations:search'), organizationName);
  const row = page.getByRole('row').filter({ hasText: organizationName });
  await row.getByRole('button', { name: t('common:edit') }).click();
  const dialog = page.getByRole('dialog', { name: t('adminOrganizations:editTitle') });
  await dialog.getByRole('heading', { name: t('adminOrganizations:scim.title') }).waitFor();
  return dialog;
}

describe('the SCIM token panel', () => {
  for (const language of LANGUAGES) {
    for (const [size, viewport] of [
      ['laptop', LAPTOP],
      ['phone', PHONE_360],
    ] as const) {
      it(`issues a token shown once, which the directory then uses (${language}, ${size})`, async () => {
        const t = (key: string) => tr(language, key);
        const admin = await adminToken();
        const organizationName = uniqueName('Directory plant');
        const organization = await apiCall<{ id: string }>(
          'POST',
          '/v1/admin/organizations',
          admin,
          {
            name: organizationName,
          },
        );
        const page = await newPage(browser, language, { viewport });
        try {
          const { email, password } = adminLogin();
          await signIn(page, email, password);
          const dialog = await openDialog(page, language, organizationName);
          await expect
            .poll(() => dialog.getByTestId('scim-state').textContent())
            .toBe(t('adminOrganizations:scim.none'));
          await expect(dialog.getByTestId('scim-url').textContent()).resolves.toMatch(
            /\/scim\/v2$/,
          );
          await shot(page, `${language}-${size}-none`);

          await dialog.getByLabel(t('adminOrganizations:scim.name')).fill('Entra ID');
          await dialog.getByRole('button', { name: t('adminOrganizations:scim.issue') }).click();
          const token = (await dialog.getByTestId('scim-token').textContent()) ?? '';
          expect(token.length).toBeGreaterThan(20);
          await dialog.getByTestId('scim-state').filter({ hasText: 'Entra ID' }).waitFor();
          await expectAccessible(page, `scim panel ${language} ${size}`, DIALOG_SCOPE);
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(viewport.width);
          await shot(page, `${language}-${size}-issued`);

          const answer = await fetch(`${baseUrl()}/scim/v2/Users`, {
            headers: { authorization: `Bearer ${token}` },
          });
          expect(answer.status).toBe(200);
          expect(answer.headers.get('content-type')).toMatch(/^application\/scim\+json/);
        } finally {
          await page.context().close();
          await apiCall('DELETE', `/v1/admin/organizations/${organization.id}`, admin);
        }
      });
    }
  }
});
