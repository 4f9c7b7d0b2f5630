import fs from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsvAsExcel } from './csv';
import { LANGUAGES, tr } from './i18n';
import {
  adminToken,
  grantedTenant,
  Headsets,
  inLanguageOf,
  startSession,
  waitForDeviceStatus,
  waitForSessionStatus,
  type SeededTree,
  type Tenant,
} from './seed';
import {
  adminLogin,
  apiCall,
  baseUrl,
  launchBrowser,
  newPage,
  openInApp,
  settled,
  signIn,
  uniqueName,
  type Language,
} from './support';

/**
 * Content in both languages: the admin gives scenarios, modules, levels and options an English
 * name beside the Russian one (through the admin API here), and every screen where content
 * appears shows the console language's text — the scenarios, the wizard, the Active cards, the
 * History with its filter and export, a VR user's sessions, an organisation's analytics and the
 * global statistics.
 */

let browser: Browser;
let tenant: Tenant;
let tree: SeededTree;
const headsets = new Headsets();
const trainee = uniqueName('Мария Соколова');
const runner = uniqueName('Пётр Волков');
let activeSessionId: string;
let waitingHeadset: string;

beforeAll(async () => {
  const admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'Bilingual Org', {
      scenario: uniqueName('Эвакуация из офиса'),
      scenarioEn: uniqueName('Office evacuation'),
      description: 'Порядок действий при пожаре',
      descriptionEn: 'What to do in a fire',
      module: 'Лестницы',
      moduleEn: 'Staircases',
      levels: [
        {
          name: 'Спуск по лестнице',
          nameEn: 'Down the stairs',
          maxTasks: 2,
          options: ['Темнота'],
          optionsEn: ['Darkness'],
        },
        { name: 'Помощь коллеге', nameEn: 'Helping a colleague', maxTasks: 4 },
      ],
    }),
  ]);
  const quick = await headsets.enrollQuick(tenant.token);
  const slow = await headsets.enroll(tenant.token, {
    name: uniqueName('Pico'),
    type: 'pico',
    paceMs: 600_000,
  });
  waitingHeadset = quick.headset.name;
  const first = tree.levels[0]!;
  const done = await startSession(tenant.token, {
    device_id: quick.headset.deviceId!,
    level_id: first.id,
    vr_user_name: trainee,
    selected_options: [first.options[0]!.id],
  });
  activeSessionId = (
    await startSession(tenant.token, {
      device_id: slow.headset.deviceId!,
      level_id: tree.levels[1]!.id,
      vr_user_name: runner,
    })
  ).id;
  await waitForSessionStatus(tenant.token, done.id, 'completed');
  await waitForDeviceStatus(tenant.token, quick.headset.deviceId!, 'waiting');
});

afterAll(async () => {
  await apiCall('POST', `/v1/sessions/${activeSessionId}/cancel`, tenant.token).catch(
    () => undefined,
  );
  await headsets.stopAll();
  await browser?.close();
});

const SHOTS = '/tmp/content-language-shots';
const SHOT_SIZES = { desktop: { width: 1440, height: 900 }, phone: { width: 360, height: 780 } };
const other = (language: Language): Language => (language === 'ru' ? 'en' : 'ru');
const text = (language: Language, item: { name: string; nameEn: string | null }) =>
  inLanguageOf(language, item);

async function openNav(page: Page, language: Language, nav: string, title: string) {
  await page.getByRole('link', { name: tr(language, nav), exact: true }).click();
  await page.getByRole('heading', { level: 2, name: tr(language, title), exact: true }).waitFor();
}

describe.each(LANGUAGES)('content in %s', (language) => {
  const scenario = () => text(language, tree.scenario);
  const module = () => text(language, tree.module);
  const level = (index: number) => text(language, tree.levels[index]!);
  const option = () => text(language, tree.levels[0]!.options[0]!);

  it('shows the scenarios, the wizard, the Active card and the History in this language', async () => {
    const page = await newPage(browser, language);
    await signIn(page, tenant.email, tenant.password);

    await openNav(page, language, 'layout:nav.scenarios', 'scenarios:title');
    const item = page.getByTestId('scenario').filter({ hasText: scenario() });
    await item.getByRole('button', { name: new RegExp(scenario()) }).click();
    await item
      .getByText(language === 'en' ? 'What to do in a fire' : 'Порядок действий при пожаре')
      .waitFor();
    await item.getByRole('button', { name: new RegExp(module()) }).click();
    await item
      .getByText(tr(language, 'scenarios:levelTitle', { number: 1, name: level(0) }))
      .waitFor();
    await item.getByText(option(), { exact: true }).waitFor();
    expect(await page.getByText(text(other(language), tree.scenario)).count()).toBe(0);

    // The wizard's choices.
    await openNav(page, language, 'layout:nav.sessions', 'sessions:title');
    const next = () => page.getByRole('button', { name: tr(language, 'common:next') }).click();
    await page
      .getByRole('combobox', { name: tr(language, 'sessions:wizard.vrUser'), exact: true })
      .fill(trainee);
    await page.getByRole('option', { name: trainee }).click();
    await next();
    await page.getByRole('radio', { name: new RegExp(waitingHeadset) }).click({ timeout: 15_000 });
    await next();
    await page.getByRole('radio', { name: new RegExp(scenario()) }).click();
    await next();
    await page.getByRole('radio', { name: new RegExp(module()) }).click();
    await next();
    await page
      .getByRole('radio', {
        name: new RegExp(tr(language, 'sessions:wizard.levelTitle', { number: 1, name: level(0) })),
      })
      .click();
    await next();
    await page.getByRole('checkbox', { name: option() }).check();
    const summary = page.getByLabel(tr(language, 'sessions:wizard.summary'));
    for (const name of [scenario(), module(), option()]) {
      expect(await summary.getByText(name).count(), name).toBeGreaterThan(0);
    }

    // The Active card.
    await page.getByRole('tab', { name: tr(language, 'sessions:tabs.active') }).click();
    const card = page.getByTestId('active-session').filter({ hasText: runner });
    await card.getByText(scenario(), { exact: true }).waitFor();
    await card.getByText(`${module()} - ${level(1)}`, { exact: true }).waitFor();
    // Started with no options, and it says so.
    await expect(card.getByTestId('active-options').textContent()).resolves.toBe(
      tr(language, 'sessions:active.noOptions'),
    );
    await shots(page, 'sessions-active', card);

    // The History, its scenario filter, and the CSV it exports.
    await page.getByRole('tab', { name: tr(language, 'sessions:tabs.history') }).click();
    const row = page.getByRole('row').filter({ hasText: trainee });
    await row.getByText(scenario(), { exact: true }).waitFor();
    await row.getByText(`${module()} - ${level(0)}`, { exact: true }).waitFor();
    await page
      .getByRole('combobox', {
        name: tr(language, 'sessions:history.filter.scenario'),
        exact: true,
      })
      .click();
    await page.getByRole('option', { name: scenario(), exact: true }).click();
    await page.waitForURL(new RegExp(`scenario_id=${tree.scenario.id}`));
    await row.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: tr(language, 'sessions:history.export') }).click(),
    ]);
    // Read as Excel reads it in the console's language (`;` in Russian).
    const { rows } = readCsvAsExcel(await fs.readFile((await download.path())!), language);
    const cells = rows.find((cells) => cells.includes(trainee))!;
    expect(cells.slice(3, 6)).toEqual([scenario(), module(), level(0)]);

    // A VR user's sessions.
    await openNav(page, language, 'layout:nav.vrUsers', 'vrUsers:title');
    await page
      .getByRole('row')
      .filter({ hasText: trainee })
      .getByRole('button', { name: tr(language, 'vrUsers:viewSessions') })
      .click();
    const dialog = page.getByRole('dialog', {
      name: tr(language, 'vrUsers:sessionsTitle', { name: trainee }),
    });
    // One cell says what ran: the scenario, then "module — level", then the revision that ran.
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    await dialog
      .getByRole('cell', {
        name: new RegExp(`^${escape(scenario())}\\s*${escape(module())} — ${escape(level(0))}`),
      })
      .waitFor();
    await page.context().close();
  });

  /** The page at a laptop's 1440×900 and a phone's 360×780, for a person to look at. */
  async function shots(page: Page, name: string, ready?: Locator) {
    for (const [size, viewport] of Object.entries(SHOT_SIZES)) {
      await page.setViewportSize(viewport);
      // Loaded at that size, as a phone would open it (a resized page is mid-transition).
      await page.reload();
      await (ready ?? page.getByRole('heading', { level: 2 })).first().waitFor();
      await settled(page);
      await page.screenshot({ path: `${SHOTS}/${language}-${name}-${size}.png`, fullPage: true });
    }
    await page.setViewportSize(SHOT_SIZES.desktop);
  }

  it('shows Scenario access and the content tree in this language', async () => {
    await fs.mkdir(SHOTS, { recursive: true });
    const page = await newPage(browser, language, { viewport: SHOT_SIZES.desktop });
    const { email, password } = adminLogin();
    const otherScenario = text(other(language), tree.scenario);
    // Scenario access: found by either name, shown by this language's.
    await signIn(
      page,
      email,
      password,
      `/admin/scenario-access?q=${encodeURIComponent(tree.scenario.nameEn!)}`,
    );
    await page.getByText(scenario(), { exact: true }).waitFor();
    expect(await page.getByText(otherScenario, { exact: true }).count()).toBe(0);
    await shots(page, 'scenario-access');

    // The content table: the name in this language first, its description in this language.
    await openInApp(page, `/admin/content?q=${encodeURIComponent(tree.scenario.name)}`);
    const row = page.getByRole('row').filter({ hasText: scenario() });
    await row
      .getByText(language === 'en' ? 'What to do in a fire' : 'Порядок действий при пожаре')
      .waitFor();
    await expect(row.locator('p').first().textContent()).resolves.toBe(scenario());

    // The options tab's selectors name the chosen scenario, module and level in this language.
    const first = tree.levels[0]!;
    await page.goto(
      `${baseUrl()}/admin/content?tab=options&scenario=${tree.scenario.id}` +
        `&module=${tree.module.id}&level=${first.id}`,
    );
    const select = (key: string) =>
      page.getByRole('combobox', { name: tr(language, key), exact: true });
    await page.getByText(option(), { exact: true }).first().waitFor();
    // The options may show before the selectors are filled: each is read until it names its
    // choice (one reading of an empty selector failed at load 24).
    const READ = { timeout: 5_000 };
    await expect.poll(() => select('adminContent:scenario').inputValue(), READ).toBe(scenario());
    await expect.poll(() => select('adminContent:module').inputValue(), READ).toBe(module());
    await expect.poll(() => select('adminContent:level').inputValue(), READ).toBe(`1. ${level(0)}`);
    await shots(
      page,
      'content-options',
      page.getByText(tr(language, 'common:rowsTotal', { count: 1 }), { exact: true }),
    );
    await page.context().close();
  });

  it("shows the organisation's analytics and the global statistics in this language", async () => {
    const page = await newPage(browser, language);
    const { email, password } = adminLogin();
    await signIn(
      page,
      email,
      password,
      `/admin/organizations?q=${encodeURIComponent(tenant.organization.name)}`,
    );
    await page.getByRole('row').filter({ hasText: tenant.organization.name }).click();
    const analytics = page.getByRole('dialog');
    await analytics
      .getByText(tr(language, 'adminOrganizations:analytics.scenarioPerformance'))
      .waitFor();
    await analytics.getByText(scenario(), { exact: true }).waitFor();
    expect(await analytics.getByText(text(other(language), tree.scenario)).count()).toBe(0);
    await page.keyboard.press('Escape');

    await openInApp(page, '/admin/global-stats');
    await page
      .getByTestId('scenario-stat')
      .filter({ hasText: scenario() })
      .waitFor({ timeout: 15_000 });
    await page.context().close();
  });
});
