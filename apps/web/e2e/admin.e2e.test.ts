import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayText, tr } from './i18n';
import { Headsets, startSession, waitForSessionStatus } from './seed';
import {
  adminLogin,
  apiCall,
  apiLogin,
  launchBrowser,
  newPage,
  openInApp,
  screenshot,
  searchList,
  signIn,
  uniqueName,
  type Language,
} from './support';

/**
 * An admin sets up a new customer in the console (English): the organisation, its client account,
 * a scenario with a module, level and option, and access to it; the client then finds the
 * scenario in Russian. Global statistics show figures and a chart once sessions exist.
 */

const en = (key: string, values?: Record<string, string | number>) => tr('en', key, values);

let browser: Browser;
let page: Page;
const headsets = new Headsets();
const organizationName = uniqueName('Acme Training');
const clientEmail = `acme-${Date.now().toString(36)}@e2e.test`;
const clientPassword = 'acme-password';
const content = {
  scenario: uniqueName('Разлив химикатов'),
  scenarioEn: uniqueName('Chemical spill'),
  description: 'Containment and first aid',
  module: 'Containment',
  level: 'First response',
  option: 'Heavy rain',
};

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, 'en');
  const { email, password } = adminLogin();
  await signIn(page, email, password);
});

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

async function open(path: string, title: string) {
  await openInApp(page, path);
  await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
}

const row = (scope: Page | Locator, text: string) =>
  scope.getByRole('row').filter({ hasText: text });

/** Fills and submits one of the content dialogs, and waits for the new row. */
async function addContent(
  kind: 'scenario' | 'module' | 'level' | 'option',
  name: string,
  fill?: (dialog: Locator) => Promise<void>,
) {
  await page
    .getByRole('button', { name: en(`adminContent:add.${kind}`) })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: en(`adminContent:addTitle.${kind}`) });
  await dialog.getByRole('textbox', { name: en('adminContent:name'), exact: true }).fill(name);
  await fill?.(dialog);
  await dialog.getByRole('button', { name: en('common:create') }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page
    .getByText(en(`adminContent:created.${kind}`))
    .last()
    .waitFor();
  // Found as in a long list: the scenarios are every test file's.
  await searchList(page, en('common:search'), name);
  await row(page, name).waitFor();
}

/** The date picker's text for the day one year from today ("22/11/2027"). */
function oneYearAheadText(language: Language) {
  const today = new Date();
  const day = new Date(today.getFullYear() + 1, today.getMonth(), today.getDate());
  // 29 February has no twin next year: the last day of February instead.
  if (day.getMonth() !== today.getMonth()) day.setDate(0);
  return dayText(language, day);
}

describe('admin screens', () => {
  it('creates an organisation and a client account in it', async () => {
    await open('/admin/organizations', en('adminOrganizations:title'));
    await page
      .getByRole('button', { name: en('adminOrganizations:add') })
      .first()
      .click();
    const orgDialog = page.getByRole('dialog', { name: en('adminOrganizations:addTitle') });
    await orgDialog.getByLabel(en('adminOrganizations:name')).fill(organizationName);
    await orgDialog.getByRole('button', { name: en('common:create') }).click();
    await page.getByText(en('adminOrganizations:createdToast')).waitFor();
    // The organisations (and the accounts below) are every test file's: the new one is searched.
    await searchList(page, en('adminOrganizations:search'), organizationName);
    await row(page, organizationName).waitFor();
    expect(
      await row(page, organizationName)
        .getByText(en('adminOrganizations:active'), { exact: true })
        .count(),
    ).toBe(1);

    await open('/admin/users', en('adminUsers:title'));
    await page
      .getByRole('button', { name: en('adminUsers:add') })
      .first()
      .click();
    const userDialog = page.getByRole('dialog', { name: en('adminUsers:addTitle') });
    await userDialog.getByLabel(en('adminUsers:email')).fill(clientEmail);
    await userDialog.getByRole('textbox', { name: en('adminUsers:password') }).fill(clientPassword);
    expect(
      await userDialog.getByRole('combobox', { name: en('adminUsers:role') }).inputValue(),
    ).toBe(en('common:role.client'));
    await userDialog
      .getByRole('combobox', { name: en('adminUsers:organization') })
      .fill(organizationName);
    await page.getByRole('option', { name: organizationName }).click();
    await userDialog.getByRole('button', { name: en('common:create') }).click();
    await page.getByText(en('adminUsers:createdToast')).waitFor();
    await searchList(page, en('adminUsers:search'), clientEmail);
    const account = row(page, clientEmail);
    await account.waitFor();
    expect(await account.getByText(organizationName).count()).toBe(1);
    expect(await account.getByText(en('common:role.client'), { exact: true }).count()).toBe(1);
  });

  it('builds a scenario, module, level and option under Content', async () => {
    await open('/admin/content', en('adminContent:title'));
    await addContent('scenario', content.scenario, async (dialog) => {
      await dialog
        .getByRole('textbox', { name: en('adminContent:description'), exact: true })
        .fill(content.description);
      await dialog
        .getByRole('textbox', { name: en('adminContent:nameEn'), exact: true })
        .fill(content.scenarioEn);
    });
    // Both names in the table: the primary one, and the English one under it.
    await row(page, content.scenario).getByText(content.scenarioEn, { exact: true }).waitFor();
    // A click on a row opens what is under it.
    await row(page, content.scenario).click();
    await page
      .getByRole('tab', { name: en('adminContent:tabs.modules'), selected: true })
      .waitFor();
    await addContent('module', content.module);
    await row(page, content.module).click();
    await page.getByRole('tab', { name: en('adminContent:tabs.levels'), selected: true }).waitFor();
    await addContent('level', content.level, async (dialog) => {
      expect(await dialog.getByLabel(en('adminContent:levelNumber')).inputValue()).toBe('1');
      expect(await dialog.getByLabel(en('adminContent:maxTasks')).inputValue()).toBe('3');
    });
    await row(page, content.level).click();
    await page
      .getByRole('tab', { name: en('adminContent:tabs.options'), selected: true })
      .waitFor();
    await addContent('option', content.option);
    await screenshot(page, 'en', 'admin-content-options');
  });

  it('grants the organisation access until the default date, one year ahead', async () => {
    await open('/admin/scenario-access', en('adminAccess:title'));
    await searchList(page, en('adminAccess:search'), content.scenario);
    // The English console names the scenario by its English name.
    await page.getByRole('button', { name: new RegExp(content.scenarioEn) }).click();
    const panel = page.getByRole('region', { name: new RegExp(content.scenarioEn) });
    await panel.getByText(en('adminAccess:noAccess')).waitFor();
    await panel.getByRole('button', { name: en('adminAccess:grantAccess') }).click();

    const dialog = page.getByRole('dialog', {
      name: en('adminAccess:grantTitle', { scenario: content.scenarioEn }),
    });
    const expiry = dialog.getByRole('button', { name: en('adminAccess:expiresOn') });
    expect(await expiry.textContent()).toBe(oneYearAheadText('en'));
    // The organisations are searched on the server as the admin types.
    await dialog
      .getByRole('combobox', { name: en('adminAccess:organizations') })
      .fill(organizationName);
    await page.getByRole('option', { name: organizationName, exact: true }).click();
    // A click outside the list closes it (it stays open for more choices, over the buttons).
    await dialog.getByRole('heading').click();
    const listbox = page.getByRole('listbox');
    await listbox.waitFor({ state: 'hidden' });
    await screenshot(page, 'en', 'admin-scenario-access-grant');
    await dialog.getByRole('button', { name: en('adminAccess:grant'), exact: true }).click();
    await page.getByText(en('adminAccess:granted', { count: 1 })).waitFor();
    await dialog.waitFor({ state: 'hidden' });

    const grant = row(panel, organizationName);
    await grant.waitFor();
    expect(await grant.getByText(en('adminAccess:state.active'), { exact: true }).count()).toBe(1);
    expect(await grant.getByText(adminLogin().email).count()).toBe(1);
  });

  it('lets the client see the granted scenario on /scenarios', async () => {
    const client = await newPage(browser, 'ru');
    await signIn(client, clientEmail, clientPassword);
    await client.getByRole('link', { name: tr('ru', 'layout:nav.scenarios'), exact: true }).click();
    await client
      .getByRole('heading', { level: 2, name: tr('ru', 'scenarios:title'), exact: true })
      .waitFor();
    const scenario = client.getByTestId('scenario').filter({ hasText: content.scenario });
    await scenario.getByText(tr('ru', 'scenarios:state.active'), { exact: true }).waitFor();
    await scenario.getByRole('button', { name: new RegExp(content.scenario) }).click();
    await scenario.getByText(content.description).waitFor();
    await scenario.getByRole('button', { name: new RegExp(content.module) }).click();
    await scenario
      .getByText(tr('ru', 'scenarios:levelTitle', { number: 1, name: content.level }))
      .waitFor();
    await scenario.getByText(content.option).waitFor();
    await screenshot(client, 'ru', 'scenarios-granted');
    await client.context().close();
  });

  it('shows global statistics with figures and a chart once sessions exist', async () => {
    // A session of the new organisation, played to the end by a simulated headset.
    const token = await apiLogin(clientEmail, clientPassword);
    const tree = await apiCall<{
      scenarios: Array<{ name: string; modules: Array<{ levels: Array<{ id: string }> }> }>;
    }>('GET', '/v1/scenarios-full', token);
    const levelId = tree.scenarios.find((s) => s.name === content.scenario)!.modules[0]!.levels[0]!
      .id;
    const { headset } = await headsets.enroll(token, {
      name: uniqueName('Quest'),
      paceMs: 50,
      successRate: 1,
    });
    const session = await startSession(token, {
      device_id: headset.deviceId!,
      level_id: levelId,
      vr_user_name: 'Dana',
    });
    await waitForSessionStatus(token, session.id, 'completed');

    await open('/admin/global-stats', en('adminStats:title'));
    const figure = (label: string) =>
      page.getByText(label, { exact: true }).locator('xpath=..').getByTestId('stat-value');
    await expect
      .poll(async () => Number(await figure(en('adminStats:metric.total')).textContent()), {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);
    expect(
      Number(await figure(en('adminStats:metric.completed')).textContent()),
    ).toBeGreaterThanOrEqual(1);
    expect(await figure(en('adminStats:metric.successRate')).textContent()).toMatch(
      /^\d+(\.\d)?%$/,
    );
    // Today's count comes with the all-time figures, a query of its own: "—" until it answers.
    await expect
      .poll(async () => Number(await figure(en('adminStats:metric.today')).textContent()), {
        timeout: 10_000,
      })
      .toBeGreaterThanOrEqual(1);

    // The daily chart is drawn: an SVG with at least one bar, and a summary of the period.
    const chart = page.locator('main svg.recharts-surface').first();
    await chart.waitFor();
    await expect
      .poll(() => chart.locator('.recharts-bar-rectangle path').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await page.getByTestId('daily-summary').textContent()).not.toBe(
      en('adminStats:daily.none'),
    );
    expect(await page.getByTestId('ended-completed').textContent()).toMatch(/\d/);
  });
});
