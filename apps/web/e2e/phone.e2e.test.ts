import fs from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tr } from './i18n';
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
} from './support';

/**
 * The console on a phone (390×844), in Russian, whose words are the longest: the wizard's steps
 * stand one under the other, every table scrolls inside its card with no cell pinned over
 * another or hidden, the page itself never scrolls sideways, and the History's filters (VR user,
 * headset) work there, survive a reload and name the exported file.
 */

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

beforeAll(async () => {
  const admin = await adminToken();
  [browser, tenant, tree] = await Promise.all([
    launchBrowser(),
    createTenant(admin, 'Phone Org'),
    createScenarioTree(admin, {
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
  await grantAccess(admin, tree.scenario.id, [tenant.organization.id]);
  await apiCall('POST', '/v1/vr-users', tenant.token, {
    name: uniqueName('Светлана Орлова'),
    notes: 'Новая сотрудница, проходит вводный курс по охране труда',
  });
  const level = tree.levels[0]!;
  for (const key of ['first', 'second'] as const) {
    const { headset } = await headsets.enroll(tenant.token, {
      name: headsetNames[key],
      type: key === 'first' ? 'quest' : 'pico',
      paceMs: 50,
      successRate: 1,
    });
    const session = await startSession(tenant.token, {
      device_id: headset.deviceId!,
      level_id: level.id,
      vr_user_name: trainees[key],
    });
    await waitForSessionStatus(tenant.token, session.id, 'completed');
    await waitForDeviceStatus(tenant.token, headset.deviceId!, 'waiting');
  }
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
 * What a phone user could not read of the screen's tables: a cell pinned (sticky) over the others,
 * a cell that something else covers once it is scrolled into view, the page wider than the phone.
 * Every cell is scrolled to (inside its card's scroll area) and hit-tested at its centre and near
 * its four corners, once nothing moves any more (an accordion still opening overlaps its own rows).
 */
async function unreadableCells(page: Page): Promise<string[]> {
  await settled(page);
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1) {
      problems.push(`the page scrolls sideways: ${root.scrollWidth} px`);
    }
    const cells = [...document.querySelectorAll<HTMLElement>('main table th, main table td')];
    if (cells.length === 0) problems.push('no table');
    for (const cell of cells) {
      const text = (cell.innerText || cell.querySelector('[aria-label]')?.ariaLabel || '')
        .trim()
        .slice(0, 40);
      if (getComputedStyle(cell).position === 'sticky') problems.push(`pinned: "${text}"`);
      cell.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      const box = cell.getBoundingClientRect();
      const inset = Math.min(4, box.width / 4, box.height / 4);
      const points = [
        [box.left + box.width / 2, box.top + box.height / 2],
        [box.left + inset, box.top + inset],
        [box.right - inset, box.top + inset],
        [box.left + inset, box.bottom - inset],
        [box.right - inset, box.bottom - inset],
      ] as const;
      for (const [x, y] of points) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !cell.contains(hit)) {
          problems.push(
            `covered: "${text}" at ${Math.round(x)},${Math.round(y)} by ${hit?.tagName ?? 'nothing'}.${hit?.className ?? ''}`,
          );
          break;
        }
      }
    }
    window.scrollTo(0, 0);
    return problems;
  });
}

async function openTable(page: Page, path: string, title: string) {
  await page.goto(`${baseUrl()}${path}`);
  await page.getByRole('heading', { level: 2, name: t(title), exact: true }).waitFor();
}

const firstRow = (page: Page) => page.locator('main table tbody tr').first();

describe('on a phone, in Russian', () => {
  it("shows the wizard's steps one under the other (side by side on a laptop)", async () => {
    const page = await newPage(browser, 'ru', { viewport: VIEWPORTS.phone });
    await signIn(page, tenant.email, tenant.password);
    await page.goto(`${baseUrl()}/sessions`);
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

  it("scrolls a client's tables inside their cards, with no cell pinned over another or hidden", async () => {
    const page = await newPage(browser, 'ru', { viewport: VIEWPORTS.phone });
    await signIn(page, tenant.email, tenant.password);

    await openTable(page, '/vr-users', 'vrUsers:title');
    await page.getByRole('row').filter({ hasText: trainees.first }).waitFor();
    expect(await unreadableCells(page), '/vr-users').toEqual([]);

    await openTable(page, '/sessions?tab=history', 'sessions:title');
    const row = page.getByRole('row').filter({ hasText: trainees.first });
    await row.waitFor();
    expect(await unreadableCells(page), '/sessions?tab=history').toEqual([]);
    // The whole VR user, headset, scenario and "module - level", wrapped, not cut to a tooltip a
    // phone cannot show.
    for (const text of [
      trainees.first,
      headsetNames.first,
      tree.scenario.name,
      `${tree.module.name} - ${tree.levels[0]!.name}`,
    ]) {
      const shown = row.getByText(text, { exact: true });
      expect(
        await shown.evaluate((element) => element.scrollHeight <= element.clientHeight + 1),
        text,
      ).toBe(true);
    }
    await page.context().close();
  });

  it("scrolls an admin's tables inside their cards, with no cell pinned over another or hidden", async () => {
    const page = await newPage(browser, 'ru', { viewport: VIEWPORTS.phone });
    const { email, password } = adminLogin();
    await signIn(page, email, password);
    const screens: Array<[string, string]> = [
      ['/admin/organizations', 'adminOrganizations:title'],
      ['/admin/users', 'adminUsers:title'],
      ['/admin/devices', 'adminDevices:title'],
      ['/admin/content', 'adminContent:title'],
    ];
    for (const [path, title] of screens) {
      await openTable(page, path, title);
      await firstRow(page).waitFor();
      expect(await unreadableCells(page), path).toEqual([]);
    }
    // A scenario's grants: a table inside an accordion inside the card.
    await openTable(
      page,
      `/admin/scenario-access?q=${encodeURIComponent(tree.scenario.name)}`,
      'adminAccess:title',
    );
    await page.getByRole('button', { name: new RegExp(tree.scenario.name) }).click();
    await page.getByRole('row').filter({ hasText: tenant.organization.name }).waitFor();
    expect(await unreadableCells(page), '/admin/scenario-access').toEqual([]);
    await page.context().close();
  });

  it('filters the History by VR user and headset, keeps them over a reload, and names the export after them', async () => {
    const page = await newPage(browser, 'ru', { viewport: VIEWPORTS.phone });
    await signIn(page, tenant.email, tenant.password);
    await page.goto(`${baseUrl()}/sessions?tab=history`);
    const row = (name: string) => page.getByRole('row').filter({ hasText: name });
    await row(trainees.second).waitFor();

    const pick = async (label: string, typed: string, parameter: string) => {
      const box = page.getByRole('combobox', { name: t(label), exact: true });
      await box.click();
      await box.fill(typed);
      await page.getByRole('option', { name: typed }).click();
      await page.waitForURL(new RegExp(`${parameter}=`));
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
    const shown = (label: string) =>
      page.getByRole('combobox', { name: t(label), exact: true }).inputValue();
    await expect.poll(() => shown('sessions:history.filter.vrUser')).toBe(trainees.first);
    await expect.poll(() => shown('sessions:history.filter.device')).toBe(headsetNames.first);
    await screenshot(page, 'ru', 'sessions-history-filtered');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: t('sessions:history.export') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/_vr-user_headset\.csv$/);
    const lines = (await fs.readFile((await download.path())!))
      .subarray(3)
      .toString('utf8')
      .split(/\r?\n/)
      .filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.split(',').slice(1, 4)).toEqual([
      trainees.first,
      headsetNames.first,
      tree.scenario.name,
    ]);
    await page.context().close();
  });
});
