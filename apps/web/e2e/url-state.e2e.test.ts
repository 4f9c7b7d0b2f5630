import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, tr } from './i18n';
import { adminToken, createTenant, type Tenant } from './seed';
import { adminLogin, launchBrowser, newPage, signIn } from './support';

/**
 * What a screen shows lives in its URL: a reload, back and a shared link show the same History
 * days (set by a preset) and the same statistics period.
 */

let browser: Browser;
let tenant: Tenant;

beforeAll(async () => {
  [browser, tenant] = await Promise.all([
    launchBrowser(),
    adminToken().then((admin) => createTenant(admin, 'Url State Org')),
  ]);
});
afterAll(() => browser?.close());

const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const search = (page: Page) => new URL(page.url()).searchParams;

describe.each(LANGUAGES)('the URL keeps what a screen shows (%s)', (language) => {
  const t = (key: string, values?: Record<string, string | number>) => tr(language, key, values);

  it('History: a preset sets the days in the URL; reload and back keep them', async () => {
    const page = await newPage(browser, language);
    await signIn(page, tenant.email, tenant.password, '/sessions?tab=history');
    const presets = page.getByRole('group', { name: t('sessions:history.filter.presets.label') });
    const week = presets.getByRole('button', { name: t('sessions:history.filter.presets.7d') });
    await week.click();
    const today = new Date();
    const from = utcDay(new Date(today.getTime() - 6 * 86_400_000));
    await page.waitForURL((url) => url.searchParams.get('from') === from);
    expect(search(page).get('to')).toBe(utcDay(today));
    await expect.poll(() => week.getAttribute('aria-pressed')).toBe('true');

    await page.reload();
    await expect.poll(() => week.getAttribute('aria-pressed')).toBe('true');
    expect(search(page).get('from')).toBe(from);

    const todayButton = presets.getByRole('button', {
      name: t('sessions:history.filter.presets.today'),
    });
    await todayButton.click();
    await page.waitForURL((url) => url.searchParams.get('from') === utcDay(today));
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('from') === from);
    await expect.poll(() => week.getAttribute('aria-pressed')).toBe('true');
    expect(await todayButton.getAttribute('aria-pressed')).toBe('false');
    await page.context().close();
  });

  it('Statistics: the period is in the URL; reload and back keep it', async () => {
    const page = await newPage(browser, language);
    const admin = adminLogin();
    await signIn(page, admin.email, admin.password, '/admin/global-stats');
    const period = (days: number) =>
      page.getByRole('radio', { name: t('adminStats:days', { count: days }) });
    // A segmented control's radio hides behind its label: the label is what is clicked.
    const choose = (days: number) =>
      page.getByText(t('adminStats:days', { count: days }), { exact: true }).click();
    await expect.poll(() => period(30).isChecked()).toBe(true);
    await choose(90);
    await page.waitForURL((url) => url.searchParams.get('period') === '90');
    await page.reload();
    await expect.poll(() => period(90).isChecked()).toBe(true);
    await choose(7);
    await page.waitForURL((url) => url.searchParams.get('period') === '7');
    await page.goBack();
    await page.waitForURL((url) => url.searchParams.get('period') === '90');
    await expect.poll(() => period(90).isChecked()).toBe(true);
    await page.context().close();
  });
});
