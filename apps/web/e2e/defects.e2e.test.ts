import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayText, tr } from './i18n';
import {
  adminToken,
  createScenarioTree,
  createTenant,
  Headsets,
  startSession,
  type Tenant,
} from './seed';
import {
  adminLogin,
  apiCall,
  launchBrowser,
  newPage,
  screenshot,
  searchList,
  signIn,
  uniqueName,
  VIEWPORTS,
  type Language,
} from './support';

/** The defects of issue 10 that only a real browser shows, each checked the way it was met. */

let browser: Browser;
let admin: string;
let tenant: Tenant;
const headsets = new Headsets();

beforeAll(async () => {
  admin = await adminToken();
  [browser, tenant] = await Promise.all([launchBrowser(), createTenant(admin, 'Defects Org')]);
});

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

/** The UTC day `days` from today, and the instant its access ends (23:59:59 UTC). */
function expiryDay(days: number) {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + days);
  day.setUTCHours(23, 59, 59, 0);
  return day;
}

/** The UTC day of an access expiry, as the console writes it. */
const expiryText = (language: Language, day: Date) => dayText(language, day, 'UTC');

describe('an access expiry is the day the admin chose, in every time zone', () => {
  let scenario: string;
  const ends = expiryDay(40);

  beforeAll(async () => {
    const tree = await createScenarioTree(admin, {
      scenario: uniqueName('Охрана труда'),
      module: 'Основы',
      levels: [{ name: 'Вводный', maxTasks: 1 }],
    });
    scenario = tree.scenario.name;
    await apiCall('POST', `/v1/admin/scenarios/${tree.scenario.id}/grant`, admin, {
      organization_ids: [tenant.organization.id],
      expires_at: ends.toISOString(),
    });
  });

  // 23:59:59 UTC is 02:59:59 the next day in Moscow, 18:59:59 the same day in New York.
  it.each(['Europe/Moscow', 'America/New_York'])('in %s', async (timezoneId) => {
    const shown = `${tr('ru', 'scenarios:expiresOn', { date: expiryText('ru', ends) })}`;
    const client = await newPage(browser, 'ru', { timezoneId });
    expect(await client.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
      timezoneId,
    );
    await signIn(client, tenant.email, tenant.password, '/scenarios');
    const item = client.getByTestId('scenario').filter({ hasText: scenario });
    await expect.poll(() => item.getByTestId('access-expiry').textContent()).toBe(shown);
    await client.context().close();

    // The admin's screen says the same day.
    const page = await newPage(browser, 'ru', { timezoneId });
    const { email, password } = adminLogin();
    await signIn(page, email, password, `/admin/scenario-access?q=${encodeURIComponent(scenario)}`);
    await page.getByRole('button', { name: new RegExp(scenario) }).click();
    const grant = page.getByRole('row').filter({ hasText: tenant.organization.name });
    await expect
      .poll(() => grant.getByTestId('access-expiry').textContent())
      .toBe(expiryText('ru', ends));
    await page.context().close();
  });
});

describe('the Active card shows the whole module and level', () => {
  it('wraps a long module - level instead of cutting it, on a laptop and on a phone', async () => {
    const tree = await createScenarioTree(admin, {
      scenario: uniqueName('Пожарная безопасность'),
      module: 'Эвакуация из офиса при пожаре на верхних этажах здания',
      levels: [{ name: 'Эвакуация сотрудников с ограниченными возможностями', maxTasks: 3 }],
    });
    await apiCall('POST', `/v1/admin/scenarios/${tree.scenario.id}/grant`, admin, {
      organization_ids: [tenant.organization.id],
      expires_at: expiryDay(30).toISOString(),
    });
    const { headset } = await headsets.enroll(tenant.token, {
      name: uniqueName('Quest'),
      paceMs: 600_000,
    });
    const session = await startSession(tenant.token, {
      device_id: headset.deviceId!,
      level_id: tree.levels[0]!.id,
      vr_user_name: uniqueName('Ольга'),
    });
    try {
      const page = await newPage(browser, 'ru');
      await signIn(page, tenant.email, tenant.password, '/sessions?tab=active');
      const whole = `${tree.module.name} - ${tree.levels[0]!.name}`;
      const value = page
        .getByTestId('active-session')
        .getByTestId('active-field-value')
        .filter({ hasText: 'Эвакуация сотрудников' });
      for (const viewport of [VIEWPORTS.laptop, VIEWPORTS.phone]) {
        await page.setViewportSize(viewport);
        await value.waitFor();
        // All of it is there and nothing of it is hidden: no clamp, no ellipsis, no overflow.
        expect(await value.innerText()).toBe(whole);
        const clipped = await value.evaluate((element) => {
          const style = getComputedStyle(element);
          return {
            lineClamp: style.webkitLineClamp,
            ellipsis: style.textOverflow === 'ellipsis',
            overflowY: element.scrollHeight > element.clientHeight + 1,
            overflowX: element.scrollWidth > element.clientWidth + 1,
          };
        });
        expect(clipped).toEqual({
          lineClamp: 'none',
          ellipsis: false,
          overflowY: false,
          overflowX: false,
        });
      }
      await screenshot(page, 'ru', 'sessions-active-long-names');
      await page.context().close();
    } finally {
      await apiCall('POST', `/v1/sessions/${session.id}/cancel`, tenant.token);
    }
  });
});

describe('a start refused because the headset was taken meanwhile', () => {
  it('goes back to the headset step with the list refreshed, and says why in Russian', async () => {
    const tree = await createScenarioTree(admin, {
      scenario: uniqueName('Первая помощь'),
      module: 'Сердечно-лёгочная реанимация',
      levels: [{ name: 'Основы', maxTasks: 2 }],
    });
    await apiCall('POST', `/v1/admin/scenarios/${tree.scenario.id}/grant`, admin, {
      organization_ids: [tenant.organization.id],
      expires_at: expiryDay(30).toISOString(),
    });
    const taken = await headsets.enroll(tenant.token, {
      name: uniqueName('Quest занятый'),
      paceMs: 600_000,
    });
    const free = await headsets.enroll(tenant.token, {
      name: uniqueName('Pico свободный'),
      type: 'pico',
      paceMs: 600_000,
    });
    const t = (key: string, values?: Record<string, string | number>) => tr('ru', key, values);
    const page = await newPage(browser, 'ru');
    await signIn(page, tenant.email, tenant.password, '/sessions');
    const next = () => page.getByRole('button', { name: t('common:next') }).click();
    const atStep = (name: string) =>
      page
        .getByTestId('step-prompt')
        .filter({ hasText: t(`sessions:wizard.prompts.${name}`) })
        .waitFor();
    const card = (name: string) => page.getByRole('radio', { name: new RegExp(name) });

    await atStep('vrUser');
    await page
      .getByRole('radiogroup', { name: t('sessions:wizard.vrUserMode') })
      .getByText(t('sessions:wizard.newVrUser'), { exact: true })
      .click();
    await page.getByLabel(t('sessions:wizard.newVrUserName')).fill(uniqueName('Ирина'));
    await next();
    await atStep('device');
    await card(taken.headset.name).click({ timeout: 15_000 });
    await next();
    await card(tree.scenario.name).click();
    await next();
    await card(tree.module.name).click();
    await next();
    await page
      .getByRole('radio', { name: t('sessions:wizard.levelTitle', { number: 1, name: 'Основы' }) })
      .click();
    await next();
    await atStep('options');

    // The waiting list refreshes itself every 5 s and would drop the taken headset before the
    // start: its refreshes are held back (a slow network) until the console has met the refusal.
    let holding = true;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/v1/devices',
      async (route) => {
        if (holding) await released;
        await route.continue().catch(() => undefined);
      },
    );
    // Another console (here the API) starts a session on the chosen headset meanwhile.
    const other = await startSession(tenant.token, {
      device_id: taken.headset.deviceId!,
      level_id: tree.levels[0]!.id,
      vr_user_name: uniqueName('Сергей'),
    });
    try {
      const refused = page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === '/v1/sessions/start' &&
          response.request().method() === 'POST',
      );
      await page.getByRole('button', { name: t('sessions:wizard.start') }).click();
      const answer = await refused;
      expect(answer.status()).toBe(409);
      expect(((await answer.json()) as { error: string }).error).toBe('device_busy');

      // Back on the headset step, nothing chosen, and why, in Russian (not the server's English).
      await atStep('device');
      const reason = t('sessions:wizard.deviceRefused', {
        reason: t('errors:codes.device_busy'),
      });
      await expect.poll(() => page.getByRole('alert').allInnerTexts()).toContain(reason);
      expect(await page.getByText('Device already has an active session').count()).toBe(0);
      holding = false;
      release();

      // The refreshed list: the taken headset is gone, the free one waits to be chosen.
      await card(taken.headset.name).waitFor({ state: 'detached', timeout: 15_000 });
      const freeCard = card(free.headset.name);
      await freeCard.waitFor();
      expect(await freeCard.getAttribute('aria-checked')).toBe('false');
      await screenshot(page, 'ru', 'sessions-wizard-headset-taken');

      // The other choices stand: another headset is all the start needs.
      await freeCard.click();
      await page.getByText(reason).waitFor({ state: 'detached' });
      await next();
      await atStep('scenario');
      expect(await card(tree.scenario.name).getAttribute('aria-checked')).toBe('true');
    } finally {
      holding = false;
      release();
      await page.context().close();
      await apiCall('POST', `/v1/sessions/${other.id}/cancel`, tenant.token);
    }
  });
});

describe('a deleted scenario', () => {
  it('is never asked for again on the content screen', async () => {
    const tree = await createScenarioTree(admin, {
      scenario: uniqueName('Удаляемый сценарий'),
      module: 'Модуль',
      levels: [{ name: 'Уровень', maxTasks: 1, options: ['Параметр'] }],
    });
    const ids = [
      tree.scenario.id,
      tree.module.id,
      tree.levels[0]!.id,
      tree.levels[0]!.options[0]!.id,
    ];
    const page = await newPage(browser, 'ru');
    const { email, password } = adminLogin();
    // Its options were looked at: the scenario, module and level are the chosen ones.
    await signIn(
      page,
      email,
      password,
      `/admin/content?tab=options&scenario=${tree.scenario.id}&module=${tree.module.id}&level=${tree.levels[0]!.id}`,
    );
    await page.getByRole('row').filter({ hasText: 'Параметр' }).waitFor();
    const scenariosTab = (selected?: boolean) =>
      page.getByRole('tab', { name: tr('ru', 'adminContent:tabs.scenarios'), selected });
    await scenariosTab().click();
    // Searched on the scenarios' own tab (the options' search box goes with the tab it was on).
    await scenariosTab(true).waitFor();
    await searchList(page, tr('ru', 'common:search'), tree.scenario.name);
    const row = page.getByRole('row').filter({ hasText: tree.scenario.name });
    await row.waitFor();

    const after: Request[] = [];
    const notFound: string[] = [];
    // Requests still under way, but the live event stream, which stays open.
    const pending = new Set<Request>();
    page.on('request', (request) => {
      after.push(request);
      if (new URL(request.url()).pathname !== '/v1/events') pending.add(request);
    });
    page.on('requestfinished', (request) => pending.delete(request));
    page.on('requestfailed', (request) => pending.delete(request));
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(response.url());
    });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await row.getByRole('button', { name: tr('ru', 'common:delete') }).click();
    const confirm = page.getByRole('dialog', {
      name: tr('ru', 'adminContent:deleteTitle.scenario'),
    });
    await confirm.getByRole('button', { name: tr('ru', 'common:delete') }).click();
    await page.getByText(tr('ru', 'adminContent:deleted.scenario')).waitFor();
    await page.getByText(tr('ru', 'adminContent:noMatches')).waitFor();
    // The refresh the deletion asked for has come back (the toast follows it, the empty list is
    // its answer); a late request could only come from the renders it caused. Once the page has
    // painted twice, it sends a request of its own: whatever those renders asked for was sent
    // before it, so is among `after` by the time its answer is in.
    await page.evaluate(async () => {
      await new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)));
      await (await fetch('/healthz')).text();
    });
    await expect.poll(() => [...pending].map((r) => r.url()), { timeout: 10_000 }).toEqual([]);

    const named = after
      .filter((request) => request.method() === 'GET')
      .map((request) => request.url())
      .filter((url) => ids.some((id) => url.includes(id)));
    expect(named).toEqual([]);
    expect(notFound).toEqual([]);
    expect(consoleErrors.filter((text) => /404/.test(text))).toEqual([]);
    expect(new URL(page.url()).search).not.toContain(tree.scenario.id);
    await page.context().close();
  });
});

describe('app builds', () => {
  /** The smallest file that begins as a ZIP archive (an APK is one). */
  const apk = (text: string) => Buffer.from(`PK\u0003\u0004 ${text}`);

  async function open(page: Page, language: Language) {
    const { email, password } = adminLogin();
    await signIn(page, email, password, '/download');
    await page
      .getByRole('heading', { level: 2, name: tr(language, 'download:title'), exact: true })
      .waitFor();
  }

  it('lets an admin upload an Oculus build with its version, and shows its size and time', async () => {
    const page = await newPage(browser, 'ru');
    await open(page, 'ru');
    const oculus = page.getByTestId('build-oculus');
    const version = uniqueName('2.0').replace(' ', '-');
    const file = apk('e2e oculus build, uploaded from the console');
    await oculus.locator('input[type="file"]').setInputFiles({
      name: 'vr-training-oculus.apk',
      mimeType: 'application/vnd.android.package-archive',
      buffer: file,
    });
    await oculus
      .getByRole('textbox', { name: tr('ru', 'download:admin.versionLabel') })
      .fill(version);
    await oculus
      .getByRole('button', {
        name: new RegExp(
          `${tr('ru', 'download:admin.replace')}|${tr('ru', 'download:admin.upload')}`,
        ),
      })
      .click();
    await page.getByText(tr('ru', 'download:admin.uploaded', { platform: 'Oculus' })).waitFor();
    await oculus.getByText(tr('ru', 'download:admin.version', { version })).waitFor();
    await expect
      .poll(() => oculus.getByTestId('build-facts').textContent())
      .toMatch(new RegExp(`^${file.length} Б · `));
    // The download button offers it to every organisation.
    await page.getByRole('link', { name: tr('ru', 'download:for.oculus') }).waitFor();
    await page.context().close();
  });

  it('refuses a file that is not an APK, in Russian', async () => {
    const page = await newPage(browser, 'ru');
    await open(page, 'ru');
    const pico = page.getByTestId('build-pico');
    await pico.locator('input[type="file"]').setInputFiles({
      name: 'notes.apk',
      mimeType: 'application/vnd.android.package-archive',
      buffer: Buffer.from('just some text, not an archive'),
    });
    await pico
      .getByRole('button', {
        name: new RegExp(
          `${tr('ru', 'download:admin.replace')}|${tr('ru', 'download:admin.upload')}`,
        ),
      })
      .click();
    await page.getByText(tr('ru', 'errors:codes.unsupported_media_type')).waitFor();
    expect(await page.getByText(/does not begin as a ZIP/).count()).toBe(0);
    await screenshot(page, 'ru', 'download-admin-refused');
    await page.context().close();
  });
});
