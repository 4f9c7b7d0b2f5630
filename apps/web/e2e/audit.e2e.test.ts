import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALOG_SCOPE, expectAccessible } from './axe';
import { LANGUAGES, tr } from './i18n';
import { adminToken, createTenant, grantAccess, type Tenant } from './seed';
import {
  adminLogin,
  apiCall,
  baseUrl,
  launchBrowser,
  newPage,
  screenshot,
  settled,
  signIn,
  uniqueName,
  VIEWPORTS,
  type Language,
} from './support';

/**
 * The audit log as its readers use it: a change made in the console is there, opens to its
 * before and after, and is exported; its filters live in the URL; staff read their own
 * organisation's events only; an admin narrows to one organisation and verifies the chains; on
 * a phone the events are cards and the page never scrolls sideways.
 */

let browser: Browser;
let admin: string;
let plant: Tenant;
let rival: Tenant;
const trainee = { id: '', name: uniqueName('Ivan Petrof') };
const renamed = `${trainee.name} Petrov`;
const rivalTrainee = uniqueName('Rival trainee');

beforeAll(async () => {
  admin = await adminToken();
  [browser, plant, rival] = await Promise.all([
    launchBrowser(),
    createTenant(admin, 'Audit Plant'),
    createTenant(admin, 'Audit Rival'),
  ]);
  const created = await apiCall<{ id: string }>('POST', '/v1/vr-users', plant.token, {
    name: trainee.name,
    notes: 'Night shift',
  });
  trainee.id = created.id;
  await apiCall('POST', '/v1/vr-users', rival.token, { name: rivalTrainee });
});

afterAll(async () => {
  await browser?.close();
});

const eventRow = (page: Page, text: string) =>
  page.getByRole('row').filter({ hasText: text }).first();

async function openAuditLog(page: Page, language: Language) {
  await page.getByRole('link', { name: tr(language, 'layout:nav.audit'), exact: true }).click();
  await page.waitForURL('**/audit');
  await page
    .getByRole('heading', { level: 2, name: tr(language, 'audit:title'), exact: true })
    .waitFor();
}

/** Chooses one action (or a whole group) in the action filter, by the words a user reads. */
async function chooseAction(page: Page, language: Language, label: string) {
  const box = page.getByRole('combobox', { name: tr(language, 'audit:filter.action') });
  await box.click();
  await box.fill(label);
  await page.getByRole('option', { name: label, exact: true }).click();
}

/**
 * The dialog's changed fields as field → [before, after]: table rows on a laptop, a block per
 * field on a phone.
 */
async function changesOf(page: Page) {
  const fields = page.getByRole('dialog').getByTestId('audit-changes').locator('[data-field]');
  await fields.first().waitFor();
  const entries = await fields.evaluateAll((elements) =>
    elements.map((element) => {
      const values =
        element.tagName === 'TR'
          ? [...element.querySelectorAll('td')].slice(1)
          : [...element.querySelectorAll('dd')];
      return [
        (element as HTMLElement).dataset.field ?? '',
        values.map((value) => (value.textContent ?? '').trim()),
      ] as const;
    }),
  );
  return Object.fromEntries(entries);
}

describe('the audit log, in English on a laptop', () => {
  it('finds a change made in the console, opens it to before and after, and exports it', async () => {
    const language = 'en';
    const page = await newPage(browser, language);
    await signIn(page, plant.email, plant.password);

    // The change: a VR user renamed through its dialog.
    const row = page.getByRole('row').filter({ hasText: trainee.name }).first();
    await row.getByRole('button', { name: tr(language, 'common:edit') }).click();
    const edit = page.getByRole('dialog', { name: tr(language, 'vrUsers:editTitle') });
    await edit.getByLabel(tr(language, 'vrUsers:name')).fill(renamed);
    await edit.getByRole('button', { name: tr(language, 'common:save') }).click();
    await page.getByText(tr(language, 'vrUsers:updated')).first().waitFor();
    // The toast's × is named (axe ran on the audit log below while it may still show).
    await page
      .getByRole('button', { name: tr(language, 'common:closeNotification') })
      .first()
      .waitFor();

    await openAuditLog(page, language);
    await chooseAction(page, language, tr(language, 'audit:action.vr_user.updated'));
    await page.waitForURL((url) => url.searchParams.get('action') === 'vr_user.updated');
    const event = eventRow(page, renamed);
    await event.getByText('vr_user.updated', { exact: true }).waitFor();
    await event.getByText(plant.email, { exact: true }).waitFor();
    await event.getByText(tr(language, 'common:role.client'), { exact: true }).waitFor();
    await event.getByText(tr(language, 'audit:outcome.success'), { exact: true }).waitFor();
    await expectAccessible(page, 'en audit');

    await event.click();
    const dialog = page.getByRole('dialog', {
      name: tr(language, 'audit:action.vr_user.updated'),
    });
    await dialog.waitFor();
    expect(await changesOf(page)).toMatchObject({ name: [trainee.name, renamed] });
    // Where the change came from: this browser.
    const userAgent = await page.evaluate(() => navigator.userAgent);
    await dialog.getByText(userAgent, { exact: true }).waitFor();
    await dialog.getByText('127.0.0.1', { exact: true }).waitFor();
    await expectAccessible(page, 'en audit event', DIALOG_SCOPE);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // The export: the same filters, the same event.
    const link = page.getByRole('link', { name: tr(language, 'audit:export') });
    const href = new URL((await link.getAttribute('href'))!, baseUrl());
    expect(href.pathname).toBe('/v1/audit-events/export');
    expect(href.searchParams.get('action')).toBe('vr_user.updated');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const csv = await fs.readFile((await download.path())!, 'utf8');
    expect(csv).toContain('vr_user.updated');
    expect(csv).toContain(renamed);
    expect(csv).not.toContain(rivalTrainee);
    await page.context().close();
  });

  it('keeps its filters through a reload, and shows staff their own organisation only', async () => {
    const language = 'en';
    const page = await newPage(browser, language);
    await signIn(page, plant.email, plant.password);
    await openAuditLog(page, language);
    await chooseAction(
      page,
      language,
      tr(language, 'audit:filter.allOfGroup', { group: tr(language, 'audit:group.vr_user') }),
    );
    await page.getByRole('textbox', { name: tr(language, 'audit:filter.target') }).fill(trainee.id);
    await page.waitForURL(
      (url) =>
        url.searchParams.get('action') === 'vr_user.' &&
        url.searchParams.get('target_id') === trainee.id,
    );
    await eventRow(page, tr(language, 'audit:action.vr_user.created')).waitFor();
    const before = page.url();

    await page.reload();
    await eventRow(page, tr(language, 'audit:action.vr_user.created')).waitFor();
    expect(page.url()).toBe(before);
    expect(
      await page.getByRole('textbox', { name: tr(language, 'audit:filter.target') }).inputValue(),
    ).toBe(trainee.id);
    expect(
      await page.getByRole('combobox', { name: tr(language, 'audit:filter.action') }).inputValue(),
    ).toBe(tr(language, 'audit:filter.allOfGroup', { group: tr(language, 'audit:group.vr_user') }));

    // Every VR user event this client may read: its own organisation's, none of the rival's,
    // even when a link names the rival organisation.
    await page.goto(`${baseUrl()}/audit?action=vr_user.&organization_id=${rival.organization.id}`);
    await eventRow(page, trainee.name).waitFor();
    await settled(page);
    expect(await page.getByRole('row').filter({ hasText: rivalTrainee }).count()).toBe(0);
    expect(
      await page.getByRole('combobox', { name: tr(language, 'audit:filter.organization') }).count(),
    ).toBe(0);
    // The server refuses the rival's events to this client outright.
    await expect(
      apiCall('GET', `/v1/audit-events?organization_id=${rival.organization.id}`, plant.token),
    ).rejects.toThrow(/404/);
    await page.context().close();
  });
});

describe('the audit log, in Russian', () => {
  it('lets an admin narrow it to one organisation and verify the chains', async () => {
    const language = 'ru';
    const page = await newPage(browser, language);
    const { email, password } = adminLogin();
    await signIn(
      page,
      email,
      password,
      `/audit?action=vr_user.&organization_id=${rival.organization.id}`,
    );
    await page
      .getByRole('heading', { level: 2, name: tr(language, 'audit:title'), exact: true })
      .waitFor();
    await eventRow(page, rivalTrainee).waitFor();
    expect(await page.getByRole('row').filter({ hasText: trainee.name }).count()).toBe(0);
    await expect
      .poll(() =>
        page
          .getByRole('combobox', { name: tr(language, 'audit:filter.organization') })
          .inputValue(),
      )
      .toBe(rival.organization.name);
    await expectAccessible(page, 'ru audit admin');

    await page.getByRole('button', { name: tr(language, 'audit:verify.button') }).click();
    const result = page.getByTestId('audit-verify-result');
    await result.waitFor();
    expect(await result.textContent()).toContain(tr(language, 'audit:verify.ok').split(':')[0]);
    await expectAccessible(page, 'ru audit verified');
    await page.context().close();
  });

  it('shows events as cards on a phone, the page never wider than the phone, each opening', async () => {
    const language = 'ru';
    const page = await newPage(browser, language, { viewport: VIEWPORTS.phone });
    await signIn(page, plant.email, plant.password, '/audit?action=vr_user.created');
    const card = page.getByTestId('list-card').filter({ hasText: trainee.name }).first();
    await card.waitFor();
    // Each value under its column's name.
    for (const column of ['time', 'actor', 'target'] as const) {
      await card.getByText(tr(language, `audit:col.${column}`), { exact: true }).waitFor();
    }
    expect(await page.locator('main table').count()).toBe(0);
    await settled(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );
    await expectAccessible(page, 'ru audit phone');

    await card.click();
    const dialog = page.getByRole('dialog', {
      name: tr(language, 'audit:action.vr_user.created'),
    });
    await dialog.waitFor();
    expect(await changesOf(page)).toMatchObject({ name: ['—', trainee.name] });
    await expectAccessible(page, 'ru audit event phone', DIALOG_SCOPE);
    await page.context().close();
  });
});

describe('content named in both languages (issue 42)', () => {
  const scenario = {
    id: '',
    name: uniqueName('Пожарная безопасность'),
    nameEn: uniqueName('Fire safety'),
  };
  beforeAll(async () => {
    const created = await apiCall<{ id: string }>('POST', '/v1/admin/scenarios', admin, {
      name: scenario.name,
      name_en: scenario.nameEn,
    });
    scenario.id = created.id;
    await grantAccess(admin, scenario.id, [plant.organization.id]);
  });

  it.each(LANGUAGES)(
    'names a scenario in the log by its name in the console’s language (%s)',
    async (language) => {
      const [shown, hidden] =
        language === 'en' ? [scenario.nameEn, scenario.name] : [scenario.name, scenario.nameEn];
      // Staff read the licence their organisation was given.
      const page = await newPage(browser, language, { viewport: { width: 1440, height: 900 } });
      await signIn(page, plant.email, plant.password, `/audit?target_id=${scenario.id}`);
      const licence = eventRow(page, tr(language, 'audit:action.license.granted'));
      await licence.getByText(shown, { exact: true }).waitFor();
      expect(await page.getByText(hidden).count()).toBe(0);
      await licence.click();
      const dialog = page.getByRole('dialog', {
        name: tr(language, 'audit:action.license.granted'),
      });
      await dialog.getByText(new RegExp(`: ${shown}$`)).waitFor();
      expect(await dialog.getByText(hidden).count()).toBe(0);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await screenshot(page, language, 'audit-english-names');
      await page.setViewportSize({ width: 360, height: 780 });
      await page.getByText(shown, { exact: true }).first().waitFor();
      expect(await page.getByText(hidden).count()).toBe(0);
      await screenshot(page, language, 'audit-english-names');
      await page.context().close();

      // The admin reads the scenario's creation in the platform's log the same way.
      const adminPage = await newPage(browser, language);
      const { email, password } = adminLogin();
      await signIn(adminPage, email, password, `/audit?target_id=${scenario.id}`);
      const created = eventRow(adminPage, tr(language, 'audit:action.scenario.created'));
      await created.getByText(shown, { exact: true }).waitFor();
      expect(await adminPage.getByText(hidden).count()).toBe(0);
      await adminPage.context().close();
    },
  );
});
