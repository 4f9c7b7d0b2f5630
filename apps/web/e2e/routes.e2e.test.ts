import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeReport, clearAxeReport, expectAccessible } from './axe';
import { LANGUAGES, tr } from './i18n';
import {
  adminToken,
  createScenarioTree,
  createTenant,
  grantAccess,
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
  launchBrowser,
  newPage,
  openInApp,
  screenshot,
  searchList,
  signIn,
  uniqueName,
  VIEWPORTS,
  type Language,
} from './support';

/**
 * Every route renders, in Russian and in English, on a laptop (1366×900) and on a phone
 * (390×844): its title shows, it finishes loading without an error, axe-core finds no WCAG 2.1 AA
 * violation, and a screenshot of each size is saved (e2e/screenshots/<language>/<route>.png and
 * …/phone/<route>.png) for review. The client's organisation is seeded first, with content in
 * both languages, so the screens show real content, not only empty states.
 */

let browser: Browser;
let admin: string;
let tenant: Tenant;
let tree: SeededTree;
let expiringScenario: SeededTree['scenario'];
const headsets = new Headsets();
const trainees = { done: 'Анна Иванова', running: 'Boris Petrov', idle: 'Светлана Орлова' };
const devices = { quest: 'Quest 3 — зал 1', pico: 'Pico 4 — зал 2' };
let activeSessionId: string;

// Only this file's pages in the report printed at its end.
beforeAll(clearAxeReport);
beforeAll(async () => {
  admin = await adminToken();
  // The app builds the download page links to are the server's (global-setup.ts places them).
  [browser, tenant, tree] = await Promise.all([
    launchBrowser(),
    createTenant(admin, 'Routes Org'),
    createScenarioTree(admin, {
      scenario: uniqueName('Пожарная безопасность'),
      scenarioEn: uniqueName('Fire safety'),
      description: 'Эвакуация и работа с огнетушителем',
      descriptionEn: 'Evacuation and fire extinguishers',
      module: 'Огнетушители',
      moduleEn: 'Extinguishers',
      levels: [
        {
          name: 'Основы',
          nameEn: 'Basics',
          maxTasks: 3,
          options: ['Ночной режим', 'Задымление'],
          optionsEn: ['Night mode', 'Smoke'],
        },
        { name: 'Продвинутый', nameEn: 'Advanced', maxTasks: 5 },
      ],
    }),
  ]);
  const expiring = await createScenarioTree(admin, {
    scenario: uniqueName('Работа на высоте'),
    scenarioEn: uniqueName('Working at height'),
    module: 'Страховка',
    moduleEn: 'Fall protection',
    levels: [{ name: 'Вводный', nameEn: 'Introduction', maxTasks: 2 }],
  });
  expiringScenario = expiring.scenario;
  await Promise.all([
    grantAccess(admin, tree.scenario.id, [tenant.organization.id]),
    grantAccess(admin, expiring.scenario.id, [tenant.organization.id], 10),
    apiCall('POST', '/v1/vr-users', tenant.token, {
      name: trainees.idle,
      notes: 'Новая сотрудница',
    }),
  ]);

  // A finished session on one headset, a running one on the other.
  const quest = await headsets.enrollQuick(tenant.token, devices.quest);
  const pico = await headsets.enroll(tenant.token, {
    name: devices.pico,
    type: 'pico',
    paceMs: 600_000,
  });
  const level = tree.levels[0]!;
  const done = await startSession(tenant.token, {
    device_id: quest.headset.deviceId!,
    level_id: level.id,
    vr_user_name: trainees.done,
    selected_options: [level.options[0]!.id],
  });
  activeSessionId = (
    await startSession(tenant.token, {
      device_id: pico.headset.deviceId!,
      level_id: tree.levels[1]!.id,
      vr_user_name: trainees.running,
    })
  ).id;
  await waitForSessionStatus(tenant.token, done.id, 'completed');
  await waitForDeviceStatus(tenant.token, quest.headset.deviceId!, 'waiting');
});

afterAll(async () => {
  await apiCall('POST', `/v1/sessions/${activeSessionId}/cancel`, tenant.token).catch(
    () => undefined,
  );
  await headsets.stopAll();
  await browser?.close();
});

interface Route {
  path: string;
  nav: string;
  title: string;
  /** Waits for the seeded content (and opens what is worth seeing in the screenshot). */
  ready?: (page: Page, language: Language, admin: boolean) => Promise<void>;
}

const row = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text }).first();

const CLIENT_ROUTES: Route[] = [
  {
    path: '/vr-users',
    nav: 'layout:nav.vrUsers',
    title: 'vrUsers:title',
    ready: async (page) => {
      for (const name of Object.values(trainees)) await row(page, name).waitFor();
    },
  },
  {
    path: '/devices',
    nav: 'layout:nav.devices',
    title: 'devices:title',
    ready: async (page, language) => {
      const card = (name: string) => page.getByTestId('device-card').filter({ hasText: name });
      await card(devices.quest)
        .getByText(tr(language, 'common:status.waiting'), { exact: true })
        .waitFor();
      await card(devices.pico)
        .getByText(tr(language, 'common:status.in_session'), { exact: true })
        .waitFor();
    },
  },
  {
    path: '/sessions',
    nav: 'layout:nav.sessions',
    title: 'sessions:title',
    ready: async (page, language) => {
      await page.getByTestId('step-prompt').waitFor();
      await page
        .getByRole('combobox', { name: tr(language, 'sessions:wizard.vrUser'), exact: true })
        .waitFor();
    },
  },
  {
    path: '/scenarios',
    nav: 'layout:nav.scenarios',
    title: 'scenarios:title',
    ready: async (page, language) => {
      // Content in the console's language.
      const text = (item: { name: string; nameEn: string | null }) => inLanguageOf(language, item);
      await page.getByRole('button', { name: new RegExp(text(expiringScenario)) }).waitFor();
      await page.getByRole('button', { name: new RegExp(text(tree.scenario)) }).click();
      await page.getByRole('button', { name: new RegExp(text(tree.module)) }).click();
      const level = tree.levels[0]!;
      await page
        .getByText(tr(language, 'scenarios:levelTitle', { number: 1, name: text(level) }))
        .waitFor();
      await page.getByText(text(level.options[0]!)).waitFor();
    },
  },
  {
    path: '/compliance',
    nav: 'layout:nav.compliance',
    title: 'qualifications:title',
    ready: async (page, language) => {
      // This file's organisation defines no qualification: the view says how to start.
      await page.getByText(tr(language, 'qualifications:emptyTitle'), { exact: true }).waitFor();
    },
  },
  {
    path: '/statistics',
    nav: 'layout:nav.statistics',
    title: 'orgStats:title',
    ready: async (page) => {
      // The organisation's own figures: its daily series, and the seeded scenario's row.
      await page.getByTestId('daily-summary').waitFor();
      await page.getByTestId('scenario-stat').first().waitFor();
    },
  },
  {
    path: '/download',
    nav: 'layout:nav.download',
    title: 'download:title',
    ready: async (page, language, admin) => {
      await page.getByRole('link', { name: tr(language, 'download:for.oculus') }).waitFor();
      await page.getByRole('link', { name: tr(language, 'download:for.pico') }).waitFor();
      // An admin also sees the builds on the server, and may replace them.
      if (admin) {
        for (const platform of ['oculus', 'pico']) {
          await page.getByTestId(`build-${platform}`).getByTestId('build-facts').waitFor();
        }
      }
    },
  },
  {
    path: '/audit',
    nav: 'layout:nav.audit',
    title: 'audit:title',
    ready: async (page, language) => {
      // Seeding wrote events: the VR user added, the sessions started.
      await row(page, tr(language, 'audit:action.vr_user.created')).waitFor();
    },
  },
  {
    path: '/lms-packages',
    nav: 'layout:nav.lms',
    title: 'lms:title',
    ready: async (page, language) => {
      // This file's organisation exported no package: the empty list says where to export one.
      await page.getByText(tr(language, 'lms:empty'), { exact: true }).waitFor();
    },
  },
  {
    path: '/integrations',
    nav: 'layout:nav.integrations',
    title: 'integrations:title',
    ready: async (page, language) => {
      // This file's organisation has none: the empty list offers to add one.
      await page.getByText(tr(language, 'integrations:emptyTitle'), { exact: true }).waitFor();
    },
  },
];

// The admin's lists hold what every test file creates: each screen is searched for this file's
// own rows (and its screenshot shows them), which need not be on a first page.
const ADMIN_ROUTES: Route[] = [
  {
    path: '/admin/organizations',
    nav: 'layout:nav.organizations',
    title: 'adminOrganizations:title',
    ready: async (page, language) => {
      await searchList(page, tr(language, 'adminOrganizations:search'), tenant.organization.name);
      await row(page, tenant.organization.name).waitFor();
    },
  },
  {
    path: '/admin/users',
    nav: 'layout:nav.users',
    title: 'adminUsers:title',
    ready: async (page, language) => {
      await searchList(page, tr(language, 'adminUsers:search'), tenant.email);
      await row(page, tenant.email).waitFor();
    },
  },
  {
    path: '/admin/devices',
    nav: 'layout:nav.allDevices',
    title: 'adminDevices:title',
    ready: async (page, language) => {
      await searchList(page, tr(language, 'adminDevices:search'), devices.pico);
      await row(page, devices.pico).waitFor();
    },
  },
  {
    path: '/admin/content',
    nav: 'layout:nav.content',
    title: 'adminContent:title',
    ready: async (page, language) => {
      await searchList(page, tr(language, 'common:search'), tree.scenario.name);
      await row(page, tree.scenario.name).waitFor();
      await row(page, tree.scenario.nameEn!).waitFor();
    },
  },
  {
    path: '/admin/scenario-access',
    nav: 'layout:nav.scenarioAccess',
    title: 'adminAccess:title',
    ready: async (page, language) => {
      await searchList(page, tr(language, 'adminAccess:search'), tree.scenario.name);
      // Shown by the name in the console's language.
      await page
        .getByRole('button', { name: new RegExp(inLanguageOf(language, tree.scenario)) })
        .click();
      await row(page, tenant.organization.name).waitFor();
    },
  },
  {
    path: '/admin/global-stats',
    nav: 'layout:nav.globalStats',
    title: 'adminStats:title',
    ready: async (page) => {
      await page.locator('main svg.recharts-surface').first().waitFor();
      const total = page.getByTestId('stat-value').first();
      await expect
        .poll(async () => Number(await total.textContent()), { timeout: 10_000 })
        .toBeGreaterThan(0);
    },
  },
];

const shotName = (path: string) => path.slice(1).replace(/\//g, '-');

afterAll(() => {
  console.log(`axe nodes failing per page: ${JSON.stringify(axeReport, null, 1)}`);
});

/**
 * The route at phone size too: axe again (the layout changes), and its screenshot. The page
 * goes back to the laptop size afterwards.
 */
async function atPhoneSize(page: Page, language: Language, name: string, shoot: boolean) {
  await page.setViewportSize(VIEWPORTS.phone);
  try {
    // The layout settles (media queries, container queries) before anything is measured.
    await page.waitForFunction(() => window.innerWidth === 390);
    await expectAccessible(page, `${language} ${name} phone`);
    if (shoot) await screenshot(page, language, name);
  } finally {
    await page.setViewportSize(VIEWPORTS.laptop);
  }
}

/** Opens a route from the sidebar and checks it the way a user would see it. */
async function visit(
  page: Page,
  language: Language,
  route: Route,
  options: { screenshot: boolean; ready: boolean; name?: string; admin?: boolean },
) {
  await page.getByRole('link', { name: tr(language, route.nav), exact: true }).click();
  await page.waitForURL(`**${route.path}`);
  await page
    .getByRole('heading', { level: 2, name: tr(language, route.title), exact: true })
    .waitFor();
  if (options.ready && route.ready) await route.ready(page, language, options.admin ?? false);
  // Finished loading: no spinner of a screen's query left.
  await expect
    .poll(() => page.getByLabel(tr(language, 'common:loading'), { exact: true }).count(), {
      timeout: 15_000,
    })
    .toBe(0);
  expect(await page.getByRole('alert').allTextContents(), `${language} ${route.path}`).toEqual([]);
  const name = options.name ?? shotName(route.path);
  await expectAccessible(page, `${language} ${name}`);
  if (options.screenshot) await screenshot(page, language, name);
  await atPhoneSize(page, language, name, options.screenshot);
}

describe.each(LANGUAGES)('every route in %s', (language) => {
  // The fifteen routes an admin sees, in two tests: each checks every route at two sizes, and
  // one test for all of them ran into its time limit on a busy machine.
  it('renders the nine client routes for an admin', async () => {
    const page = await newPage(browser, language);
    const { email, password } = adminLogin();
    await signIn(page, email, password);
    // The admin's own organisation has no data of its own: the client routes only need to render
    // (and the download page shows the admin's build uploads).
    for (const route of CLIENT_ROUTES) {
      const builds = route.path === '/download';
      await visit(page, language, route, {
        screenshot: builds,
        ready: builds,
        admin: true,
        name: builds ? 'download-admin' : `admin-view-${shotName(route.path)}`,
      });
    }
    await page.context().close();
  });

  it('renders the six admin routes for an admin', async () => {
    const page = await newPage(browser, language);
    const { email, password } = adminLogin();
    await signIn(page, email, password);
    for (const route of ADMIN_ROUTES)
      await visit(page, language, route, { screenshot: true, ready: true });
    await page.context().close();
  });

  it('renders the nine client routes for a client, and tells a client admin routes are not theirs', async () => {
    const page = await newPage(browser, language);
    await signIn(page, tenant.email, tenant.password);
    expect(await page.getByText(tr(language, 'layout:adminFeatures')).count()).toBe(0);
    for (const route of CLIENT_ROUTES)
      await visit(page, language, route, { screenshot: true, ready: true });

    // The Active and History tabs of /sessions, for the review of their wording too.
    await page
      .getByRole('link', { name: tr(language, 'layout:nav.sessions'), exact: true })
      .click();
    await page.getByRole('tab', { name: tr(language, 'sessions:tabs.active') }).click();
    const active = page.getByTestId('active-session').filter({ hasText: trainees.running });
    await active.waitFor();
    // What runs, in the console's language: "Module - level".
    await active
      .getByText(
        `${inLanguageOf(language, tree.module)} - ${inLanguageOf(language, tree.levels[1]!)}`,
      )
      .waitFor();
    await expectAccessible(page, `${language} sessions-tab-active`);
    await screenshot(page, language, 'sessions-tab-active');
    await atPhoneSize(page, language, 'sessions-tab-active', true);
    await page.getByRole('tab', { name: tr(language, 'sessions:tabs.history') }).click();
    const done = row(page, trainees.done);
    await done.getByText(tr(language, 'common:status.completed'), { exact: true }).waitFor();
    await done.getByText(inLanguageOf(language, tree.scenario), { exact: true }).waitFor();
    await expectAccessible(page, `${language} sessions-tab-history`);
    await screenshot(page, language, 'sessions-tab-history');
    await atPhoneSize(page, language, 'sessions-tab-history', true);

    // Typed-in addresses within the app (no reload): the guard tells the client the page is not
    // for their account, where they asked for it.
    for (const route of ADMIN_ROUTES) {
      await page
        .getByRole('link', { name: tr(language, 'layout:nav.download'), exact: true })
        .click();
      await page.waitForURL('**/download');
      await openInApp(page, route.path);
      await page
        .getByRole('heading', {
          level: 2,
          name: tr(language, 'common:notFound.notAllowedTitle'),
          exact: true,
        })
        .waitFor();
      expect(new URL(page.url()).pathname).toBe(route.path);
    }
    await page.context().close();
  });
});
