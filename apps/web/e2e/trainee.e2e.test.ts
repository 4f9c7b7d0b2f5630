import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe';
import { readCsvAsExcel } from './csv';
import { LANGUAGES, tr } from './i18n';
import {
  adminToken,
  completeSession,
  grantedTenant,
  Headsets,
  type SeededTree,
  type Tenant,
} from './seed';
import {
  adminLogin,
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
const SESSIONS = 3;
/** A4's 210 mm less the paper's 15 mm margins each side, in CSS pixels: what a printed line holds. */
const PRINTABLE_WIDTH = Math.floor(((210 - 2 * 15) / 25.4) * 96);
const PHONE = { width: 360, height: 780 } as const;

beforeAll(async () => {
  const admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'Record Org', {
      scenario: uniqueName('Пожарная безопасность'),
      scenarioEn: uniqueName('Fire safety'),
      module: 'Эвакуация',
      moduleEn: 'Evacuation',
      levels: [{ name: 'Склад', nameEn: 'Depot', maxTasks: 2, options: [], optionsEn: [] }],
    }),
  ]);
  const { headset } = await headsets.enrollQuick(tenant.token);
  // A few sessions: the paper lists each, the period runs from the first to the last.
  for (let run = 0; run < SESSIONS; run++) {
    await completeSession(tenant.token, headset, tree.levels[0]!.id, trainee);
  }
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

async function traineeId(): Promise<string> {
  const response = await fetch(`${baseUrl()}/v1/vr-users?q=${encodeURIComponent(trainee)}`, {
    headers: { authorization: `Bearer ${tenant.token}` },
  });
  const body = (await response.json()) as { vr_users: Array<{ id: string }> };
  return body.vr_users[0]!.id;
}

async function openTrainee(page: Page, language: 'ru' | 'en', { phone = false } = {}) {
  const t = (key: string, values?: Record<string, string>) => tr(language, key, values);
  if (phone) {
    await signIn(page, tenant.email, tenant.password, `/vr-users/${await traineeId()}`);
    await page.getByRole('heading', { level: 2, name: trainee }).waitFor();
    return;
  }
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
    // Each language at a clock of its own: the CSV's times are at the browser's offset.
    const page = await newPage(browser, language, {
      viewport: { width: 1280, height: 900 },
      timezoneId: language === 'ru' ? 'Europe/Moscow' : 'Asia/Kolkata',
    });
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
    // The file in the console's language, read as Excel reads it in that language.
    const csv = readCsvAsExcel(fs.readFileSync((await download.path())!), language);
    const [level, total] = csv.named;
    expect(csv.rows).toHaveLength(2);
    if (language === 'ru') {
      expect(csv.header.slice(0, 4)).toEqual(['Обучаемый', 'Организация', '№', 'Сценарий']);
      expect(level).toMatchObject({ Обучаемый: trainee, Уровень: 'Склад', Успешные: '3' });
      expect(level!['Лучший результат: успех']).toBe('да');
      expect(level!['Последний успех (UTC+03:00)']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(total!['№']).toBe('Итого');
    } else {
      expect(csv.header.slice(0, 4)).toEqual(['Trainee', 'Organisation', 'No', 'Scenario']);
      expect(level).toMatchObject({ Trainee: trainee, Level: 'Depot', Completions: '3' });
      expect(level!['Best: success']).toBe('yes');
      expect(level!['Last completed (UTC+05:30)']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(total!['No']).toBe('Total');
    }
    expect(level![csv.header[1]!]).toBe(tenant.organization.name);

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
    await openTrainee(page, language, { phone: true });
    // A phone shows the record as cards, not the laptop's table.
    await page.getByTestId('record-card').first().waitFor();
    await settled(page);
    // Nothing wider than the screen but the tables' own scroll areas.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(390);
    await expectAccessible(page, `${language} trainee page phone`);
    await page.screenshot({ path: `${SHOTS}/${language}-phone.png`, fullPage: true });
    await page.context().close();
  });

  it('shows each session with its date and time and who started it, nothing clipped at 1440 px', async () => {
    const page = await newPage(browser, language, { viewport: { width: 1440, height: 900 } });
    await openTrainee(page, language);
    const startedBy = page.getByRole('columnheader', { name: t('vrUsers:col.startedBy') });
    const table = page.locator('main table:visible', { has: startedBy });
    await expect(table.getByRole('cell', { name: tenant.email }).count()).resolves.toBe(SESSIONS);
    const rows = table.locator('tbody tr');
    await expect(rows.count()).resolves.toBe(SESSIONS);
    // The start's date with its time, on one line, as the browser formats them here.
    const started = (await rows.first().locator('td').first().innerText()).trim();
    expect(started).toMatch(/^\d{2}[./]\d{2}[./]\d{4},\s\d{2}:\d{2}/);
    // The table fits its card: nothing to scroll to, nothing under the pinned actions.
    const scroll = await table.evaluate((element) => ({
      table: element.scrollWidth,
      card: element.parentElement!.clientWidth,
    }));
    expect(scroll.table).toBeLessThanOrEqual(scroll.card);
    const clipped = await table.evaluate((element) => {
      const card = element.closest('.mantine-Card-root')!.getBoundingClientRect();
      const cells = [...element.querySelectorAll('th, td')];
      return cells
        .filter((cell) => {
          const box = cell.getBoundingClientRect();
          return box.right > card.right + 0.5 || cell.scrollWidth > cell.clientWidth + 1;
        })
        .map((cell) => cell.textContent);
    });
    expect(clipped).toEqual([]);
    await expect(
      page.getByRole('columnheader', { name: t('common:actions') }).isVisible(),
    ).resolves.toBe(true);
    await page.screenshot({ path: `${SHOTS}/${language}-desktop-1440.png`, fullPage: true });
    await page.context().close();
  });

  it('prints as an A4 portrait document with nothing outside the page', async () => {
    const page = await newPage(browser, language, { viewport: { width: 1280, height: 900 } });
    await openTrainee(page, language);
    await page.getByRole('button', { name: t('vrUsers:record.print') }).waitFor();
    await expect
      .poll(() => page.getByRole('button', { name: t('vrUsers:record.print') }).isEnabled())
      .toBe(true);
    await page.emulateMedia({ media: 'print' });
    await page.setViewportSize({ width: PRINTABLE_WIDTH, height: 1123 });
    const paper = page.getByTestId('record-paper');
    await expect(paper.isVisible()).resolves.toBe(true);
    const header = await page.getByTestId('print-header').innerText();
    expect(header).toContain(tenant.organization.name);
    expect(header).toContain(trainee);
    expect(header).toContain(t('vrUsers:record.paper.period'));
    expect(header).toContain(t('vrUsers:record.paper.generated'));
    // Every column of the levels, whole.
    const levels = await page.getByTestId('paper-levels').innerText();
    for (const column of ['firstCompleted', 'lastCompleted', 'time']) {
      expect(levels).toContain(t(`vrUsers:record.col.${column}`));
    }
    // Each session, with its headset and who started it.
    const sessions = page.getByTestId('paper-sessions');
    await expect(sessions.locator('tbody tr').count()).resolves.toBe(SESSIONS);
    expect(await sessions.innerText()).toContain(tenant.email);
    for (const who of ['trainee', 'instructor', 'inspector']) {
      await expect(
        paper.getByText(t(`vrUsers:record.signature.${who}`), { exact: true }).isVisible(),
      ).resolves.toBe(true);
    }
    const layout = await page.evaluate(() => {
      const root = document.querySelector('[data-testid="record-paper"]')!;
      const width = document.documentElement.clientWidth;
      const outside = [...root.querySelectorAll('*')]
        .filter((element) => {
          const box = element.getBoundingClientRect();
          return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5);
        })
        .map((element) => `${element.tagName} ${element.textContent?.slice(0, 40)}`);
      const cellsCut = [...root.querySelectorAll('th, td')]
        .filter((cell) => cell.scrollWidth > cell.clientWidth + 1)
        .map((cell) => cell.textContent);
      return {
        width,
        scrollWidth: document.documentElement.scrollWidth,
        outside,
        cellsCut,
        heads: [...root.querySelectorAll('thead')].map((head) => getComputedStyle(head).display),
        rows: [...root.querySelectorAll('tr')].map((row) => getComputedStyle(row).breakInside),
      };
    });
    expect(layout.outside).toEqual([]);
    expect(layout.cellsCut).toEqual([]);
    expect(layout.scrollWidth).toBeLessThanOrEqual(layout.width);
    // A header on every page a table runs onto; no row split between two pages.
    expect(layout.heads).toEqual(['table-header-group', 'table-header-group']);
    expect(new Set(layout.rows)).toEqual(new Set(['avoid']));
    await page.screenshot({ path: `${SHOTS}/${language}-paper.png`, fullPage: true });

    // Chromium's own print to PDF: A4 portrait (595 × 842 points) at the paper's own page size.
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    fs.writeFileSync(`${SHOTS}/${language}-record.pdf`, pdf);
    const boxes = [...pdf.toString('latin1').matchAll(/\/MediaBox\s*\[([^\]]+)\]/g)].map((box) =>
      box[1]!.trim().split(/\s+/).map(Number),
    );
    expect(boxes.length).toBeGreaterThan(0);
    for (const [, , width, height] of boxes) {
      expect(Math.round(width!)).toBe(595);
      expect(Math.round(height!)).toBe(842);
    }
    await page.context().close();
  });

  it('fits a 360 px phone: the record as cards, pass or fail in sight', async () => {
    const page = await newPage(browser, language, { viewport: PHONE });
    await openTrainee(page, language, { phone: true });
    const card = page.getByTestId('record-card').first();
    await card.waitFor();
    await expect(page.locator('main table:visible').count()).resolves.toBe(0);
    const verdict = card.getByText(t('vrUsers:record.passed'), { exact: true }).first();
    const box = (await verdict.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await settled(page);
    const overflow = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      // No card nor anything in one scrolls sideways either.
      scrollers: [...document.querySelectorAll('main *')]
        .filter((element) => element.scrollWidth > element.clientWidth + 1)
        .filter((element) => ['auto', 'scroll'].includes(getComputedStyle(element).overflowX))
        .map((element) => element.className),
    }));
    expect(overflow.page).toBeLessThanOrEqual(PHONE.width);
    expect(overflow.scrollers).toEqual([]);
    await expectAccessible(page, `${language} trainee record cards`);
    await page.screenshot({ path: `${SHOTS}/${language}-phone-360.png`, fullPage: true });
    await page.context().close();
  });

  it("fits the statistics' period switch on a 360 px phone", async () => {
    const page = await newPage(browser, language, { viewport: PHONE });
    const { email, password } = adminLogin();
    await signIn(page, email, password, '/admin/global-stats');
    const periods = page.locator(`[aria-label="${t('adminStats:period')}"]`);
    await periods.waitFor();
    await expect.poll(() => page.getByLabel(t('common:loading'), { exact: true }).count()).toBe(0);
    await settled(page);
    const right = await periods.evaluate((element) => element.getBoundingClientRect().right);
    expect(right).toBeLessThanOrEqual(PHONE.width);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: `${SHOTS}/${language}-stats-360.png`, fullPage: true });
    await page.context().close();
  });
});
