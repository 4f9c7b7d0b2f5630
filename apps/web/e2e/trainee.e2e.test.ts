import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe';
import { LANGUAGES, tr } from './i18n';
import {
  adminToken,
  createScenarioTree,
  createTenant,
  grantAccess,
  Headsets,
  startSession,
  waitForDeviceStatus,
  waitForSessionStatus,
  type SeededTree,
  type Tenant,
} from './seed';
import {
  baseUrl,
  launchBrowser,
  newPage,
  searchList,
  settled,
  signIn,
  uniqueName,
} from './support';

/**
 * A trainee's page: opened from the VR users list, it shows the training record, downloads the
 * server's CSV and prints as a page without the console's navigation; in both languages, on a
 * laptop and a phone. Screenshots go to /tmp/record-shots.
 */
const SHOTS = '/tmp/record-shots';
let browser: Browser;
let tenant: Tenant;
let tree: SeededTree;
const headsets = new Headsets();
const trainee = uniqueName('Иван Петров');

beforeAll(async () => {
  const admin = await adminToken();
  [browser, tenant, tree] = await Promise.all([
    launchBrowser(),
    createTenant(admin, 'Record Org'),
    createScenarioTree(admin, {
      scenario: uniqueName('Пожарная безопасность'),
      scenarioEn: uniqueName('Fire safety'),
      module: 'Эвакуация',
      moduleEn: 'Evacuation',
      levels: [{ name: 'Склад', nameEn: 'Depot', maxTasks: 2, options: [], optionsEn: [] }],
    }),
  ]);
  await grantAccess(admin, tree.scenario.id, [tenant.organization.id]);
  const { headset } = await headsets.enroll(tenant.token, {
    name: uniqueName('Quest'),
    type: 'quest',
    paceMs: 50,
    successRate: 1,
  });
  const done = await startSession(tenant.token, {
    device_id: headset.deviceId!,
    level_id: tree.levels[0]!.id,
    vr_user_name: trainee,
  });
  await waitForSessionStatus(tenant.token, done.id, 'completed');
  await waitForDeviceStatus(tenant.token, headset.deviceId!, 'waiting');
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

async function openTrainee(page: Page, language: 'ru' | 'en') {
  const t = (key: string, values?: Record<string, string>) => tr(language, key, values);
  await signIn(page, tenant.email, tenant.password);
  await searchList(page, t('vrUsers:search'), trainee);
  await page.getByRole('link', { name: t('vrUsers:record.open', { name: trainee }) }).click();
  await page.waitForURL('**/vr-users/*');
  await page.getByTestId('training-record').waitFor();
  await page.getByRole('heading', { level: 2, name: trainee }).waitFor();
}

describe.each(LANGUAGES)("a trainee's page in %s", (language) => {
  const t = (key: string, values?: Record<string, string | number>) => tr(language, key, values);

  it('shows the record, exports the CSV and prints without the navigation', async () => {
    const page = await newPage(browser, language, { viewport: { width: 1280, height: 900 } });
    await openTrainee(page, language);
    const record = page.getByTestId('training-record');
    const row = record.getByRole('row').nth(1);
    await expect(row.textContent()).resolves.toContain(language === 'en' ? 'Depot' : 'Склад');
    await expect(row.textContent()).resolves.toContain('2/2');
    // The session below, with the level's revision it ran.
    await page
      .getByRole('cell', { name: t('common:levelRevision', { number: 1, revision: 1 }) })
      .first()
      .waitFor();
    await settled(page);
    await expectAccessible(page, `${language} trainee page`);
    await page.screenshot({ path: `${SHOTS}/${language}-desktop.png`, fullPage: true });

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: t('vrUsers:record.export') }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^training-record_.*\.csv$/);
    const bytes = fs.readFileSync((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]!.startsWith('No,Scenario,Module,Level')).toBe(true);
    expect(lines).toHaveLength(3);

    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.mantine-AppShell-navbar').isVisible()).resolves.toBe(false);
    await expect(
      page.getByRole('button', { name: t('vrUsers:record.print') }).isVisible(),
    ).resolves.toBe(false);
    await expect(page.getByTestId('print-header').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('print-header').textContent()).resolves.toContain(trainee);
    await expect(page.getByText(t('vrUsers:record.signature.inspector')).isVisible()).resolves.toBe(
      true,
    );
    await page.screenshot({ path: `${SHOTS}/${language}-print.png`, fullPage: true });
    await page.context().close();
  });

  it('works on a phone', async () => {
    const page = await newPage(browser, language, { viewport: { width: 390, height: 844 } });
    await signIn(page, tenant.email, tenant.password);
    const vrUser = (
      await (
        await fetch(`${baseUrl()}/v1/vr-users?q=${encodeURIComponent(trainee)}`, {
          headers: { authorization: `Bearer ${tenant.token}` },
        })
      ).json()
    ).vr_users[0];
    await page.goto(`${baseUrl()}/vr-users/${vrUser.id}`);
    await page.getByTestId('training-record').waitFor();
    await settled(page);
    // Nothing wider than the screen but the tables' own scroll areas.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(390);
    await expectAccessible(page, `${language} trainee page phone`);
    await page.screenshot({ path: `${SHOTS}/${language}-phone.png`, fullPage: true });
    await page.context().close();
  });
});
