import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsvAsExcel } from './csv';
import { LANGUAGES, tr } from './i18n';
import { expectAccessible } from './axe';
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
  baseUrl,
  launchBrowser,
  newPage,
  openInApp,
  screenshot,
  settled,
  signIn,
  uniqueName,
  VIEWPORTS,
  type Language,
} from './support';

/**
 * The console on a phone. At 360×740, the narrowest phone, in Russian (the longest words) and in
 * English, every route of both roles fits the width (the page never scrolls sideways), every list
 * is cards (name, status, the one action) with its filters in a sheet, and no date wraps; on a
 * laptop the same lists are tables. The wizard's steps stand one under the other, and the
 * History's filters work from the sheet, survive a reload and name the exported file.
 */

/** The narrowest phone the console is made for. */
const NARROW_PHONE = { width: 360, height: 740 } as const;

const t = (key: string, values?: Record<string, string | number>) => tr('ru', key, values);

let browser: Browser;
let tenant: Tenant;
let tree: SeededTree;
const headsets = new Headsets();
const trainees = {
  first: uniqueName('Екатерина Александровна Константинопольская'),
  second: uniqueName('Борис Петров'),
};
const headsetNames = { first: uniqueName('Quest 3 — учебный класс'), second: uniqueName('Pico 4') };
let firstTraineeId: string;

beforeAll(async () => {
  const admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'Phone Org', {
      scenario: uniqueName('Пожарная безопасность на производстве'),
      scenarioEn: uniqueName('Fire safety at the plant'),
      description: 'Эвакуация и работа с огнетушителем',
      module: 'Эвакуация из офиса при пожаре на верхних этажах',
      moduleEn: 'Evacuation from the upper floors',
      levels: [
        {
          name: 'Эвакуация сотрудников с ограниченными возможностями',
          nameEn: 'Evacuating colleagues with disabilities',
          maxTasks: 2,
          options: ['Задымление'],
          optionsEn: ['Smoke'],
        },
      ],
    }),
  ]);
  await apiCall('POST', '/v1/vr-users', tenant.token, {
    name: uniqueName('Светлана Орлова'),
    notes: 'Новая сотрудница, проходит вводный курс по охране труда',
  });
  const level = tree.levels[0]!;
  for (const key of ['first', 'second'] as const) {
    const { headset } = await headsets.enrollQuick(
      tenant.token,
      headsetNames[key],
      key === 'first' ? 'quest' : 'pico',
    );
    await completeSession(tenant.token, headset, level.id, trainees[key]);
  }
  const found = await apiCall<{ vr_users: Array<{ id: string; name: string }> }>(
    'GET',
    `/v1/vr-users?q=${encodeURIComponent(trainees.first)}`,
    tenant.token,
  );
  firstTraineeId = found.vr_users.find((vrUser) => vrUser.name === trainees.first)!.id;
});

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

/** Where the wizard's six step markers stand, left to right and top to bottom. */
async function stepBoxes(page: Page) {
  const steps = page.locator('.mantine-Stepper-step');
  await expect.poll(() => steps.count()).toBe(6);
  return steps.evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return { x: Math.round(box.left), y: Math.round(box.top) };
    }),
  );
}

/**
 * What does not fit a phone: the page wider than the window, or a date broken over two lines
 * (each date in the page's main part is measured where it stands).
 */
async function phoneProblems(page: Page): Promise<string[]> {
  await settled(page);
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) {
      problems.push(`the page scrolls sideways: ${root.scrollWidth} > ${window.innerWidth} px`);
    }
    const main = document.querySelector('main');
    if (!main) return [...problems, 'no main'];
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    const DATE = /\d{2}[./]\d{2}[./]\d{4}(,\u00a0\d{2}:\d{2})?/g;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of (node.textContent ?? '').matchAll(DATE)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (lines.size > 1) problems.push(`a date wraps: "${match[0]}"`);
      }
    }
    return problems;
  });
}

/**
 * Opens a path and waits for its heading: a dictionary key, or `=` and the heading's own text.
 * Another screen opens inside the console, as a link would; the same screen with other query
 * parameters (another tab, another period) loads, so that nothing of the screen before is measured
 * while it changes.
 */
async function open(page: Page, path: string, title: string, language: Language = 'ru') {
  const target = new URL(path, baseUrl());
  const here = new URL(page.url());
  if (here.origin === target.origin && here.pathname !== target.pathname) {
    await openInApp(page, path);
  } else if (here.href !== target.href) {
    await page.goto(target.href);
  }
  const name = title.startsWith('=') ? title.slice(1) : tr(language, title);
  await page.getByRole('heading', { level: 2, name, exact: true }).waitFor();
}

/** The card of the list that names `text`. */
const card = (page: Page, text: string) =>
  page.getByTestId('list-card').filter({ hasText: text }).first();

interface PhoneRoute {
  path: string;
  title: string;
  /** A row of the list the route shows, as a card on a phone and a table row on a laptop. */
  listed?: (language: Language) => string;
  /** Opens what the list sits in, once the route shows. */
  prepare?: (page: Page, language: Language) => Promise<void>;
}

const CLIENT_ROUTES: PhoneRoute[] = [
  { path: '/vr-users', title: 'vrUsers:title', listed: () => trainees.first },
  // The trainee's record and sessions as cards (the record's paper, hidden on screen, is tables).
  {
    path: `/vr-users/{trainee}`,
    title: `={trainee name}`,
    listed: (language) => inLanguageOf(language, tree.scenario),
  },
  { path: '/devices', title: 'devices:title' },
  { path: '/sessions', title: 'sessions:title' },
  { path: '/sessions?tab=active', title: 'sessions:title' },
  { path: '/sessions?tab=history', title: 'sessions:title', listed: () => trainees.first },
  { path: '/scenarios', title: 'scenarios:title' },
  { path: '/download', title: 'download:title' },
  { path: '/audit', title: 'audit:title', listed: () => trainees.first },
];

// The admin's lists hold what every test file creates: each is searched for this file's rows.
const ADMIN_ROUTES: PhoneRoute[] = [
  {
    path: `/admin/organizations?q={organization}`,
    title: 'adminOrganizations:title',
    listed: () => tenant.organization.name,
  },
  { path: `/admin/users?q={email}`, title: 'adminUsers:title', listed: () => tenant.email },
  {
    path: `/admin/devices?q={headset}`,
    title: 'adminDevices:title',
    listed: () => headsetNames.first,
  },
  {
    path: `/admin/content?q={scenario}`,
    title: 'adminContent:title',
    listed: () => tree.scenario.name,
  },
  {
    path: `/admin/scenario-access?q={scenario}`,
    title: 'adminAccess:title',
    listed: () => tenant.organization.name,
    // The scenario by the name the console's language shows.
    prepare: (page, language) =>
      page
        .getByRole('button', { name: new RegExp(inLanguageOf(language, tree.scenario)) })
        .first()
        .click(),
  },
  { path: '/admin/global-stats', title: 'adminStats:title' },
  { path: '/admin/global-stats?period=7', title: 'adminStats:title' },
];

const pathOf = (route: PhoneRoute) =>
  route.path
    .replace('{trainee}', firstTraineeId)
    .replace('{organization}', encodeURIComponent(tenant.organization.name))
    .replace('{email}', encodeURIComponent(tenant.email))
    .replace('{headset}', encodeURIComponent(headsetNames.first))
    .replace('{scenario}', encodeURIComponent(tree.scenario.name));

const titleOf = (route: PhoneRoute) => route.title.replace('{trainee name}', trainees.first);

const shotName = (route: PhoneRoute) =>
  route.path.replace(/\?.*$/, '').slice(1).replace(/\//g, '-').replace(/[{}]/g, '') +
  (route.path.includes('tab=') ? `-${/tab=(\w+)/.exec(route.path)![1]}` : '');

/** Walks routes at 360 px: each fits, its list is cards (no table), and its screenshot is kept. */
async function walkAsPhone(page: Page, language: Language, routes: PhoneRoute[]) {
  for (const route of routes) {
    await open(
      page,
      pathOf(route),
      route.title.replace('{trainee name}', trainees.first),
      language,
    );
    await expect
      .poll(() => page.getByLabel(tr(language, 'common:loading'), { exact: true }).count())
      .toBe(0);
    if (route.prepare) await route.prepare(page, language);
    if (route.listed) {
      await card(page, route.listed(language)).waitFor();
      expect(await page.locator('main table:visible').count(), `${route.path}: a table`).toBe(0);
      // The card's action is there, and no card is wider than the phone.
      const widest = await page
        .getByTestId('list-card')
        .evaluateAll((cards) => Math.max(...cards.map((c) => c.getBoundingClientRect().right)));
      expect(widest, route.path).toBeLessThanOrEqual(NARROW_PHONE.width);
    }
    expect(await phoneProblems(page), `${language} ${route.path}`).toEqual([]);
    await screenshot(page, language, `narrow-${shotName(route)}`);
  }
}

/** The same lists on a laptop: tables, with the row there, and no cards. */
async function walkAsLaptop(page: Page, language: Language, routes: PhoneRoute[]) {
  for (const route of routes.filter((candidate) => candidate.listed)) {
    await open(page, pathOf(route), titleOf(route), language);
    if (route.prepare) await route.prepare(page, language);
    await page
      .locator('main table')
      .getByRole('row')
      .filter({ hasText: route.listed!(language) })
      .first()
      .waitFor();
    expect(await page.getByTestId('list-cards').count(), route.path).toBe(0);
    await screenshot(page, language, `laptop-${shotName(route)}`);
  }
}

describe.each(LANGUAGES)('at 360 px, in %s', (language) => {
  it("fits every route of a client's console, its lists as cards; tables on a laptop", async () => {
    const page = await newPage(browser, language, { viewport: NARROW_PHONE });
    await signIn(page, tenant.email, tenant.password);
    await walkAsPhone(page, language, CLIENT_ROUTES);
    await page.setViewportSize(VIEWPORTS.laptop);
    await walkAsLaptop(page, language, CLIENT_ROUTES);
    await page.context().close();
  });

  it("fits every route of an admin's console, its lists as cards; tables on a laptop", async () => {
    const page = await newPage(browser, language, { viewport: NARROW_PHONE });
    const { email, password } = adminLogin();
    await signIn(page, email, password);
    await walkAsPhone(page, language, [
      ...ADMIN_ROUTES,
      ...CLIENT_ROUTES.filter((r) => !r.listed && !r.path.includes('{')),
    ]);
    await page.setViewportSize(VIEWPORTS.laptop);
    await walkAsLaptop(page, language, ADMIN_ROUTES);
    await page.context().close();
  });

  it("opens a list's filters in a sheet from a button: keyboard, axe, and the URL keeps them", async () => {
    const page = await newPage(browser, language, { viewport: NARROW_PHONE });
    await signIn(page, tenant.email, tenant.password, '/sessions?tab=history');
    await open(page, '/sessions?tab=history', 'sessions:title', language);
    await card(page, trainees.first).waitFor();
    const status = page.getByRole('combobox', {
      name: tr(language, 'sessions:history.statusFilter'),
      exact: true,
    });
    expect(await status.count()).toBe(0);
    const button = page.getByRole('button', { name: tr(language, 'common:listFilters.open') });
    await button.focus();
    await page.keyboard.press('Enter');
    const sheet = page.getByRole('dialog', { name: tr(language, 'common:listFilters.title') });
    await sheet.waitFor();
    await expectAccessible(page, `${language} history filters sheet`);
    await screenshot(page, language, 'narrow-sessions-history-filters');
    await sheet
      .getByRole('button', { name: tr(language, 'sessions:history.filter.presets.30d') })
      .click();
    await page.waitForURL((url) => url.searchParams.has('from'));
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    // The button counts the filters chosen (from and to), and has the focus back.
    const counted = page.getByRole('button', {
      name: tr(language, 'common:listFilters.openCount', { count: 2 }),
    });
    await counted.waitFor();
    expect(await counted.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.reload();
    await counted.waitFor();
    await card(page, trainees.first).waitFor();
    await page.context().close();
  });
});

describe('on a phone, in Russian', () => {
  it("shows the wizard's steps one under the other (side by side on a laptop)", async () => {
    const page = await newPage(browser, 'ru', { viewport: VIEWPORTS.phone });
    await signIn(page, tenant.email, tenant.password, '/sessions');
    await page.getByTestId('step-prompt').waitFor();

    const phone = await stepBoxes(page);
    for (const [index, box] of phone.entries()) {
      if (index === 0) continue;
      expect(Math.abs(box.x - phone[0]!.x), `step ${index + 1} x`).toBeLessThanOrEqual(2);
      expect(box.y, `step ${index + 1} below step ${index}`).toBeGreaterThan(phone[index - 1]!.y);
    }
    // Nothing of the wizard reaches past the phone's edge.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );

    await page.setViewportSize(VIEWPORTS.laptop);
    await expect
      .poll(async () => {
        const laptop = await stepBoxes(page);
        return laptop.every(
          (box, index) =>
            Math.abs(box.y - laptop[0]!.y) <= 2 && (index === 0 || box.x > laptop[index - 1]!.x),
        );
      })
      .toBe(true);
    await page.context().close();
  });

  it('filters the History by VR user and headset, keeps them over a reload, and names the export after them', async () => {
    const page = await newPage(browser, 'ru', { viewport: VIEWPORTS.phone });
    await signIn(page, tenant.email, tenant.password, '/sessions?tab=history');
    const row = (name: string) => page.getByTestId('list-card').filter({ hasText: name });
    await row(trainees.second).waitFor();

    const sheet = page.getByRole('dialog', { name: t('common:listFilters.title') });
    const openSheet = async () => {
      await page.getByTestId('list-filters-open').click();
      await sheet.waitFor();
    };
    const closeSheet = async () => {
      await sheet.getByRole('button', { name: t('common:listFilters.done') }).click();
      await sheet.waitFor({ state: 'detached' });
    };
    const pick = async (label: string, typed: string, parameter: string) => {
      await openSheet();
      const box = sheet.getByRole('combobox', { name: t(label), exact: true });
      await box.click();
      await box.fill(typed);
      await page.getByRole('option', { name: typed }).click();
      await page.waitForURL(new RegExp(`${parameter}=`));
      await closeSheet();
    };
    await pick('sessions:history.filter.vrUser', trainees.first, 'vr_user_id');
    await row(trainees.second).waitFor({ state: 'detached' });
    await pick('sessions:history.filter.device', headsetNames.first, 'device_id');
    await row(trainees.first).waitFor();
    await page.getByText(t('common:rowsTotal', { count: 1 }), { exact: true }).waitFor();

    // A reload (a shared link) shows the same list, its filters naming what they hold.
    await page.reload();
    await row(trainees.first).waitFor();
    expect(await row(trainees.second).count()).toBe(0);
    await openSheet();
    const shown = (label: string) =>
      sheet.getByRole('combobox', { name: t(label), exact: true }).inputValue();
    await expect.poll(() => shown('sessions:history.filter.vrUser')).toBe(trainees.first);
    await expect.poll(() => shown('sessions:history.filter.device')).toBe(headsetNames.first);
    await screenshot(page, 'ru', 'sessions-history-filtered');
    await closeSheet();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t('sessions:history.export') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/_vr-user_headset\.csv$/);
    // The Russian console's file, read as Russian Excel reads it (`;` between cells).
    const { rows } = readCsvAsExcel(await fs.readFile((await download.path())!), 'ru');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.slice(1, 4)).toEqual([trainees.first, headsetNames.first, tree.scenario.name]);
    await page.context().close();
  });
});
