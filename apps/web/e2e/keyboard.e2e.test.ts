import type { Browser, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tr } from './i18n';
import { adminToken, createScenarioTree, createTenant, type SeededTree, type Tenant } from './seed';
import { adminLogin, apiCall, launchBrowser, newPage, signIn, uniqueName } from './support';

/**
 * An admin's dialogs without a mouse, in Russian (a11y.e2e.test.ts walks the wizard and the VR
 * user dialogs): a new organisation, the refusal to delete one that holds data (its counts said
 * before any request is sent, issue 10 defect 9), and a new level whose number 0 is refused with
 * the validation message instead of being rewritten to 1 (defect 4).
 */

const t = (key: string, values?: Record<string, string | number>) => tr('ru', key, values);

let browser: Browser;
let tenant: Tenant;
let tree: SeededTree;

beforeAll(async () => {
  const admin = await adminToken();
  [browser, tenant, tree] = await Promise.all([
    launchBrowser(),
    createTenant(admin, 'Keyboard Org'),
    createScenarioTree(admin, {
      scenario: uniqueName('Охрана труда'),
      module: 'Работа на высоте',
      levels: [{ name: 'Вводный', maxTasks: 1 }],
    }),
  ]);
  // The organisation holds an account (its client) and a VR user.
  await apiCall('POST', '/v1/vr-users', tenant.token, { name: uniqueName('Ольга') });
});

afterAll(() => browser?.close());

/** Presses Tab until `target` (or something inside it) has the focus. */
async function tabTo(page: Page, target: Locator, max = 80) {
  await target.waitFor({ state: 'attached' });
  for (let presses = 0; presses < max; presses += 1) {
    const focused = await target.evaluate(
      (element) => element === document.activeElement || element.contains(document.activeElement),
    );
    if (focused) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

const hasFocus = (target: Locator) =>
  target.evaluate((element) => element === document.activeElement);

async function signedInAdmin(landing: string) {
  const page = await newPage(browser, 'ru');
  const { email, password } = adminLogin();
  await signIn(page, email, password, landing);
  return page;
}

describe('an admin with the keyboard alone, in Russian', () => {
  it('adds an organisation, and is told what one holds before it could be deleted', async () => {
    const page = await signedInAdmin('/admin/organizations');
    await page
      .getByRole('heading', { level: 2, name: t('adminOrganizations:title'), exact: true })
      .waitFor();

    await tabTo(page, page.getByRole('button', { name: t('adminOrganizations:add') }).first());
    await page.keyboard.press('Enter');
    const add = page.getByRole('dialog', { name: t('adminOrganizations:addTitle') });
    const name = add.getByRole('textbox', { name: t('adminOrganizations:name') });
    await expect.poll(() => hasFocus(name)).toBe(true);
    const created = uniqueName('Клавиатурная организация');
    await page.keyboard.type(created);
    await page.keyboard.press('Enter');
    await page.getByText(t('adminOrganizations:createdToast')).waitFor();
    await add.waitFor({ state: 'hidden' });

    // The organisation with data: its delete button says what it holds, and asks nothing of the
    // server but offers to deactivate it instead.
    const search = page.getByRole('textbox', { name: t('adminOrganizations:search') });
    await search.fill(tenant.organization.name);
    const row = page.getByRole('row').filter({ hasText: tenant.organization.name });
    await row.waitFor();
    await page.getByRole('row').filter({ hasText: created }).waitFor({ state: 'detached' });
    const deletes: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(request);
    });
    await tabTo(page, row.getByRole('button', { name: t('common:delete') }));
    await page.keyboard.press('Enter');
    const refusal = page.getByRole('dialog', { name: t('adminOrganizations:deleteHoldsTitle') });
    await refusal.waitFor();
    const holdings = [
      t('errors:holdings.accounts', { count: 1 }),
      t('errors:holdings.vr_users', { count: 1 }),
    ].join(', ');
    expect(holdings).toBe('1 учётная запись, 1 VR-пользователь');
    await refusal
      .getByText(t('adminOrganizations:deleteHolds', { name: tenant.organization.name, holdings }))
      .waitFor();
    await tabTo(page, refusal.getByRole('button', { name: t('adminOrganizations:deactivate') }));
    await page.keyboard.press('Escape');
    await refusal.waitFor({ state: 'hidden' });
    expect(deletes.map((request) => request.url())).toEqual([]);
    await page.context().close();
  });

  it('refuses level number 0 with the validation message, then creates the level', async () => {
    const page = await signedInAdmin(
      `/admin/content?tab=levels&scenario=${tree.scenario.id}&module=${tree.module.id}`,
    );
    await page.getByRole('row').filter({ hasText: 'Вводный' }).waitFor();
    const posts: Request[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request);
    });

    await tabTo(page, page.getByRole('button', { name: t('adminContent:add.level') }).first());
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: t('adminContent:addTitle.level') });
    await dialog.waitFor();
    // The focus starts in the name.
    await expect
      .poll(() =>
        page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value ?? null),
      )
      .toBe('');
    await page.keyboard.type('Спуск с лесов');
    const number = dialog.getByRole('textbox', { name: t('adminContent:levelNumber') });
    await tabTo(page, number);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('0');
    await page.keyboard.press('Enter');
    await dialog.getByText(t('adminContent:levelNumberMin')).waitFor();
    // As typed, not rewritten to 1; nothing sent.
    expect(await number.inputValue()).toBe('0');
    expect(posts).toEqual([]);

    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await page.getByText(t('adminContent:created.level')).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: 'Спуск с лесов' }).waitFor();
    await page.context().close();
  });
});
