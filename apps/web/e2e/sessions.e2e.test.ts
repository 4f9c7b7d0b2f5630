import fs from 'node:fs/promises';
import type { HeadsetEvent, SimulatedHeadset } from '@vrtc/headset-sim';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsvAsExcel } from './csv';
import { tr } from './i18n';
import {
  adminToken,
  grantedTenant,
  Headsets,
  waitForEvent,
  type SeededTree,
  type Tenant,
} from './seed';
import {
  apiCall,
  baseUrl,
  launchBrowser,
  newPage,
  screenshot,
  signIn,
  uniqueName,
} from './support';

/**
 * The headline flow in English: a headset enrolled with the code from the "Add headset" dialog,
 * a session started with the six-step wizard and followed live to the end, a second one cancelled
 * from the Active tab, and the History exported as CSV.
 */

const en = (key: string, values?: Record<string, string | number>) => tr('en', key, values);

let browser: Browser;
let page: Page;
let tenant: Tenant;
let tree: SeededTree;
let vrUserName: string;
const newVrUserName = uniqueName('Viktor');
const headsets = new Headsets();
let headset: SimulatedHeadset;
let events: HeadsetEvent[];

beforeAll(async () => {
  const admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'Sessions Org', {
      scenario: uniqueName('Fire safety'),
      description: 'Evacuation and extinguishers',
      module: 'Extinguishers',
      levels: [
        { name: 'Basics', maxTasks: 6, options: ['Night mode', 'Smoke'] },
        { name: 'Marathon', maxTasks: 20 },
      ],
    }),
  ]);
  vrUserName = (
    await apiCall<{ name: string }>('POST', '/v1/vr-users', tenant.token, {
      name: uniqueName('Anna'),
    })
  ).name;
  page = await newPage(browser, 'en');
  await signIn(page, tenant.email, tenant.password);
});

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

const tab = (name: string, selected?: boolean) =>
  page.getByRole('tab', { name: en(`sessions:tabs.${name}`), selected });
const activeCard = (vrUser: string) =>
  page.getByTestId('active-session').filter({ hasText: vrUser });
const historyRow = (vrUser: string) => page.getByRole('row').filter({ hasText: vrUser });
const next = () => page.getByRole('button', { name: en('common:next') }).click();

/** The step prompt tells which step of the wizard is showing. */
async function atStep(step: string) {
  await page
    .getByTestId('step-prompt')
    .filter({ hasText: en(`sessions:wizard.prompts.${step}`) })
    .waitFor();
}

/** Picks a card (device, scenario, module, level) of the current step. */
async function choose(name: string | RegExp) {
  const card = page.getByRole('radio', { name });
  // Devices are refreshed every 5 s: a headset that has just become free may take one refresh.
  await card.waitFor({ timeout: 15_000 });
  await card.click();
}

/** The History table is not polled: refreshes it until the row shows the status. */
async function historyShows(vrUser: string, status: string): Promise<Locator> {
  const badge = historyRow(vrUser).getByText(en(`common:status.${status}`), { exact: true });
  await expect
    .poll(
      async () => {
        if (await badge.isVisible()) return true;
        await page.getByRole('button', { name: en('common:refresh') }).click();
        await badge.waitFor({ timeout: 2_000 }).catch(() => undefined);
        return badge.isVisible();
      },
      { timeout: 20_000, interval: 100 },
    )
    .toBe(true);
  return historyRow(vrUser);
}

describe('sessions, from enrolment to the CSV export', () => {
  it('enrols a simulated headset with the code shown by "Add headset"', async () => {
    await page.goto(`${baseUrl()}/devices`);
    await page.getByRole('heading', { level: 2, name: en('devices:title') }).waitFor();
    await page
      .getByRole('button', { name: en('devices:add') })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: en('devices:addTitle') });
    const codeText = dialog.getByTestId('enrollment-code');
    await codeText.waitFor();
    const code = (await codeText.textContent())!.trim();
    expect(code).toMatch(/^[A-Z0-9]{6,}$/);
    await screenshot(page, 'en', 'devices-add-headset');

    ({ headset, events } = headsets.create({
      name: uniqueName('Quest 3'),
      type: 'quest',
      code,
      paceMs: 1500,
      successRate: 1,
    }));
    await headset.start();
    // The dialog says the headset joined, while it is still open.
    const joined = dialog.getByTestId('joined-headsets');
    await joined
      .getByText(en('devices:joined', { name: headset.name, type: en('common:deviceType.quest') }))
      .waitFor({ timeout: 15_000 });
    await joined.getByText(en('devices:joinedTitle', { count: 1 })).waitFor();
    await screenshot(page, 'en', 'devices-add-headset-joined');
    await dialog.getByRole('button', { name: en('common:close') }).click();
    await dialog.waitFor({ state: 'hidden' });

    const card = page.getByTestId('device-card').filter({ hasText: headset.name });
    // The list refreshes itself every 5 s.
    await card.getByText(en('common:status.waiting'), { exact: true }).waitFor({ timeout: 15_000 });
    expect(await card.getByText(en('common:deviceType.quest'), { exact: true }).count()).toBe(1);
    await screenshot(page, 'en', 'devices-enrolled');
  });

  it('starts a session with the six-step wizard and follows it until it is completed', async () => {
    await page.goto(`${baseUrl()}/sessions`);
    await page.getByRole('heading', { level: 2, name: en('sessions:title') }).waitFor();
    await tab('start', true).waitFor();

    await atStep('vrUser');
    await page.getByRole('combobox', { name: en('sessions:wizard.vrUser'), exact: true }).click();
    await page.getByRole('option', { name: vrUserName }).click();
    await next();
    await atStep('device');
    await choose(new RegExp(headset.name));
    await next();
    await atStep('scenario');
    await choose(new RegExp(tree.scenario.name));
    await next();
    await atStep('module');
    await choose(new RegExp(tree.module.name));
    await next();
    await atStep('level');
    await choose(en('sessions:wizard.levelTitle', { number: 1, name: 'Basics' }));
    await next();
    await atStep('options');
    await page.getByRole('checkbox', { name: 'Night mode' }).check();
    const summary = page.getByLabel(en('sessions:wizard.summary'));
    for (const text of [
      vrUserName,
      headset.name,
      tree.scenario.name,
      tree.module.name,
      'Night mode',
    ]) {
      expect(await summary.getByText(text).count(), text).toBeGreaterThan(0);
    }
    await screenshot(page, 'en', 'sessions-wizard-summary');
    await page.getByRole('button', { name: en('sessions:wizard.start') }).click();

    // Starting switches to the Active tab, which shows the running session.
    await page.getByText(en('sessions:started')).waitFor();
    await page.waitForURL(/tab=active/);
    await tab('active', true).waitFor();
    const card = activeCard(vrUserName);
    await card.waitFor();
    expect(await card.getByText(headset.name).count()).toBe(1);
    expect(await card.getByText(`${tree.module.name} - Basics`).count()).toBe(1);

    // Tasks completed go up as the headset plays (the tab refreshes every 5 s).
    const tasks = card.getByText(/^\d+\/6$/);
    const completedTasks = async () => Number((await tasks.textContent())?.split('/')[0]);
    const first = await completedTasks();
    await expect.poll(completedTasks, { timeout: 20_000, interval: 250 }).toBeGreaterThan(first);
    await screenshot(page, 'en', 'sessions-active');

    // It ends by itself and moves to the History, completed.
    await card.waitFor({ state: 'detached', timeout: 30_000 });
    await waitForEvent(events, 'finished');
    await tab('history').click();
    const row = await historyShows(vrUserName, 'completed');
    expect(await row.getByText('6/6 (100%)').count()).toBe(1);
    expect(await row.getByText(en('common:yes'), { exact: true }).count()).toBe(1);
  });

  it('cancels a second session from the Active tab after confirmation; the headset stops', async () => {
    await tab('start').click();
    await atStep('vrUser');
    // The segmented control's radio inputs are hidden behind their labels.
    await page
      .getByRole('radiogroup', { name: en('sessions:wizard.vrUserMode') })
      .getByText(en('sessions:wizard.newVrUser'), { exact: true })
      .click();
    await page.getByLabel(en('sessions:wizard.newVrUserName')).fill(newVrUserName);
    await next();
    await atStep('device');
    await choose(new RegExp(headset.name));
    await next();
    await choose(new RegExp(tree.scenario.name));
    await next();
    await choose(new RegExp(tree.module.name));
    await next();
    await choose(en('sessions:wizard.levelTitle', { number: 2, name: 'Marathon' }));
    await next();
    await atStep('options');
    await page.getByRole('button', { name: en('sessions:wizard.start') }).click();

    const card = activeCard(newVrUserName);
    await card.waitFor();
    await card.getByRole('button', { name: en('sessions:active.cancelSession') }).click();
    const confirm = page.getByRole('dialog', { name: en('sessions:active.cancelTitle') });
    await confirm
      .getByText(en('sessions:active.cancelConfirm', { name: newVrUserName, device: headset.name }))
      .waitFor();
    await confirm.getByRole('button', { name: en('sessions:active.cancelSession') }).click();
    await page.getByText(en('sessions:active.cancelled')).waitFor();
    await card.waitFor({ state: 'detached' });

    const ended = await waitForEvent(events, 'session_ended');
    expect(ended.line).toContain('stopped');
    expect(headset.currentSessionId).toBeUndefined();

    await tab('history').click();
    await historyShows(newVrUserName, 'cancelled');
    await screenshot(page, 'en', 'sessions-history');
  });

  it("exports the History as the server's CSV file: byte-order mark, the specified columns, the filters", async () => {
    await historyShows(vrUserName, 'completed');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: en('sessions:history.export') }).click(),
    ]);
    await page.getByText(en('sessions:history.exported', { count: 2 })).waitFor();

    // The server names the file: organisation and (its UTC) date.
    const fileName = download.suggestedFilename();
    const today = new Date().toISOString().slice(0, 10);
    expect(fileName).toBe(`sessions_${tenant.organization.name.replace(/\s+/g, '_')}_${today}.csv`);

    // The English console's file: English words, times at the browser's offset, commas.
    const { header, rows } = readCsvAsExcel(await fs.readFile((await download.path())!), 'en');
    expect(header.slice(0, 13)).toEqual([
      'No',
      'VR user',
      'Headset',
      'Scenario',
      'Module',
      'Level',
      'Status',
      'Tasks completed',
      'Total tasks',
      'Progress (%)',
      'Duration (s)',
      'Duration',
      'Started by',
    ]);
    expect(header[13]).toMatch(/^Started at \(UTC([+-]\d\d:\d\d)?\)$/);
    expect(header.slice(15)).toEqual(['Success', 'Result arrived later', 'Level revision']);
    expect(rows).toHaveLength(2);
    const byUser = new Map(rows.map((cells) => [cells[1], cells]));
    expect(byUser.get(vrUserName)).toEqual(
      expect.arrayContaining([
        headset.name,
        tree.scenario.name,
        tree.module.name,
        'Basics',
        'Completed',
      ]),
    );
    expect(byUser.get(vrUserName)!.slice(6, 10)).toEqual(['Completed', '6', '6', '100']);
    expect(byUser.get(vrUserName)![12]).toBe(tenant.email);
    expect(byUser.get(vrUserName)![13]).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(byUser.get(vrUserName)![15]).toBe('yes');
    expect(byUser.get(vrUserName)![16]).toBe('no');
    expect(byUser.get(newVrUserName)!.slice(5, 7)).toEqual(['Marathon', 'Cancelled']);
    expect(byUser.get(newVrUserName)![8]).toBe('20');
    expect(rows.map((cells) => cells[0]).sort()).toEqual(['1', '2']);
  });

  it('filters the History on the server and exports what the filters leave', async () => {
    await page
      .getByRole('combobox', { name: en('sessions:history.statusFilter'), exact: true })
      .click();
    await page.getByRole('option', { name: en('common:status.cancelled'), exact: true }).click();
    await page.waitForURL(/status=cancelled/);
    await historyRow(newVrUserName).waitFor();
    await historyRow(vrUserName).waitFor({ state: 'detached' });
    await page.getByText(en('common:rowsTotal', { count: 1 }), { exact: true }).waitFor();

    // A reload (or a shared link) shows the same filtered list.
    await page.reload();
    await historyRow(newVrUserName).waitFor();
    expect(await historyRow(vrUserName).count()).toBe(0);

    // Days (UTC) in a link: today's sessions only; none yesterday.
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`${page.url()}&from=${day(-1)}&to=${day(-1)}`);
    await page.getByText(en('sessions:history.emptyFilteredText')).waitFor();
    await page.goto(page.url().replace(/from=[\d-]+&to=[\d-]+/, `from=${day(0)}&to=${day(0)}`));
    await historyRow(newVrUserName).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: en('sessions:history.export') }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`_cancelled_${day(0)}\\.\\.${day(0)}\\.csv$`),
    );
    const lines = (await fs.readFile((await download.path())!))
      .subarray(3)
      .toString('utf8')
      .split(/\r?\n/)
      .filter(Boolean);
    expect(lines).toHaveLength(2);
    expect(lines[1]!.split(',')[1]).toBe(newVrUserName);
    await screenshot(page, 'en', 'sessions-history-filtered');
  });
});
