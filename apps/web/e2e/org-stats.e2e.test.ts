import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALOG_SCOPE, expectAccessible } from './axe';
import { LANGUAGES, tr } from './i18n';
import {
  adminToken,
  completeSession,
  grantedTenant,
  Headsets,
  inLanguageOf,
  type SeededTree,
  type Tenant,
} from './seed';
import {
  adminLogin,
  apiCall,
  launchBrowser,
  newPage,
  settled,
  signIn,
  uniqueName,
  type Language,
} from './support';

/**
 * Staff see their own figures (issue #42): the organisation's statistics at /statistics show what
 * the admin's analytics of that organisation show, over the same days, in both languages; the
 * Russian run signs in as staff, the English one as the organisation's auditor (who reads it
 * too). At 360 px the page never scrolls sideways; axe clean. Screenshots at 1440×900 and
 * 360×780 go to /tmp/shots-org-stats.
 */
const SHOTS = '/tmp/shots-org-stats';
const DESKTOP = { width: 1440, height: 900 } as const;
const PHONE = { width: 360, height: 780 } as const;
const SESSIONS = 2;

let browser: Browser;
let tenant: Tenant;
let tree: SeededTree;
const auditor = { email: '', password: 'auditor reads the figures' };
const headsets = new Headsets();

beforeAll(async () => {
  const admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'Stats Org', {
      scenario: uniqueName('Первая помощь'),
      scenarioEn: uniqueName('First Aid'),
      module: 'Кровотечение',
      moduleEn: 'Bleeding',
      levels: [{ name: 'Жгут', nameEn: 'Tourniquet', maxTasks: 1, options: [], optionsEn: [] }],
    }),
  ]);
  auditor.email = `stats-auditor-${Date.now().toString(36)}@e2e.test`;
  await apiCall('POST', '/v1/admin/users', admin, {
    email: auditor.email,
    password: auditor.password,
    role: 'auditor',
    organization_id: tenant.organization.id,
  });
  const { headset } = await headsets.enrollQuick(tenant.token);
  for (let n = 0; n < SESSIONS; n++) {
    await completeSession(tenant.token, headset, tree.levels[0]!.id, uniqueName('Стажёр'));
  }
}, 180_000);

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A translated "N sessions · R success", its rate left open: the rate as the page writes it. */
const figuresPattern = (language: Language, key: string, count: number) =>
  new RegExp(`^${escape(tr(language, key, { count, rate: '\u0000' })).replace('\u0000', '(.+)')}$`);

async function figuresOf(row: Locator, language: Language, key: string) {
  const pattern = figuresPattern(language, key, SESSIONS);
  const text = row.getByText(pattern);
  await text.waitFor();
  return pattern.exec((await text.textContent()) ?? '')![1]!;
}

async function shot(page: Page, language: Language, name: string) {
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/${language}-${name}.png`, fullPage: true });
}

/** The admin's analytics dialog of the organisation: its scenario's sessions and success. */
async function adminFigures(language: Language) {
  const page = await newPage(browser, language, { viewport: DESKTOP });
  const { email, password } = adminLogin();
  await signIn(
    page,
    email,
    password,
    `/admin/organizations?q=${encodeURIComponent(tenant.organization.name)}`,
  );
  await page.getByRole('row').filter({ hasText: tenant.organization.name }).click();
  const dialog = page.getByRole('dialog');
  const row = dialog
    .locator('div')
    .filter({ has: page.getByText(inLanguageOf(language, tree.scenario), { exact: true }) })
    .filter({
      has: page.getByText(
        figuresPattern(language, 'adminOrganizations:analytics.scenarioFigures', SESSIONS),
      ),
    })
    .last();
  const rate = await figuresOf(row, language, 'adminOrganizations:analytics.scenarioFigures');
  const range = (await dialog.getByTestId('analytics-range').textContent()) ?? '';
  await expectAccessible(page, `${language} admin analytics`, DIALOG_SCOPE);
  await shot(page, language, 'admin-analytics');
  await page.context().close();
  return { rate, range };
}

describe.each(LANGUAGES)('the organisation’s statistics (%s)', (language) => {
  const who = language === 'ru' ? () => tenant : () => auditor;

  it('shows the figures the admin sees for the organisation, over the same days', async () => {
    const admin = await adminFigures(language);

    const page = await newPage(browser, language, { viewport: DESKTOP });
    await signIn(page, who().email, who().password);
    // Reached from the navigation, as a person does.
    await page
      .getByRole('link', { name: tr(language, 'layout:nav.statistics') })
      .first()
      .click();
    await page.waitForURL('**/statistics');
    await page.getByRole('heading', { name: tr(language, 'orgStats:title') }).waitFor();
    const total = page
      .locator('.mantine-Card-root')
      .filter({ hasText: tr(language, 'adminStats:metric.total') })
      .getByTestId('stat-value');
    await expect(total.textContent()).resolves.toBe(String(SESSIONS));
    const row = page
      .getByTestId('scenario-stat')
      .filter({ hasText: inLanguageOf(language, tree.scenario) });
    await expect(figuresOf(row, language, 'adminStats:scenarios.figures')).resolves.toBe(
      admin.rate,
    );
    // The same days, said on both screens: the analytics' dates are in the subtitle.
    const days = admin.range.split(',')[0]!;
    await page.getByText(tenant.organization.name, { exact: false }).first().waitFor();
    await expect(page.locator('main').textContent()).resolves.toContain(days);
    await expectAccessible(page, `${language} organisation statistics`);
    await shot(page, language, 'statistics');
    await page.context().close();
  });

  it('fits a phone: nothing scrolls sideways', async () => {
    const page = await newPage(browser, language, { viewport: PHONE });
    await signIn(page, who().email, who().password, '/statistics');
    await page.getByTestId('daily-summary').waitFor();
    await page.getByTestId('scenario-stat').first().waitFor();
    await settled(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await expectAccessible(page, `${language} organisation statistics phone`);
    await shot(page, language, 'statistics-phone');
    await page.context().close();
  });
});
