import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeReport, clearAxeReport, DIALOG_SCOPE, expectAccessible } from './axe';
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
  launchBrowser,
  newPage,
  openInApp,
  screenshot,
  searchList,
  settled,
  signIn,
  uniqueName,
  type Language,
} from './support';

/**
 * Accessibility beyond the screens themselves (routes.e2e.test.ts runs axe on every route): the
 * main dialogs, open, pass axe-core's WCAG 2.1 AA rules in both languages, and the wizard and a
 * dialog can be worked through with the keyboard alone.
 */

let browser: Browser;
let tenant: Tenant;
let tree: SeededTree;
const headsets = new Headsets();
const trainee = uniqueName('Анна Кузнецова');
let headsetName: string;

// Only this file's pages in the report printed at its end.
beforeAll(clearAxeReport);
beforeAll(async () => {
  const admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'A11y Org', {
      scenario: uniqueName('Пожарная безопасность'),
      scenarioEn: uniqueName('Fire safety'),
      module: 'Огнетушители',
      moduleEn: 'Extinguishers',
      levels: [
        {
          name: 'Основы',
          nameEn: 'Basics',
          maxTasks: 2,
          options: ['Задымление'],
          optionsEn: ['Smoke'],
        },
      ],
    }),
  ]);
  const { headset } = await headsets.enrollQuick(tenant.token);
  headsetName = headset.name;
  await completeSession(tenant.token, headset, tree.levels[0]!.id, trainee);
});

afterAll(async () => {
  console.log(`axe nodes failing per dialog: ${JSON.stringify(axeReport, null, 1)}`);
  await headsets.stopAll();
  await browser?.close();
});

/** Opens another screen inside the console, as its links do (axe, once loaded, stays). */
async function go(page: Page, language: Language, path: string, title: string) {
  await openInApp(page, path);
  await page.getByRole('heading', { level: 2, name: tr(language, title), exact: true }).waitFor();
}

/**
 * Checks the open dialog with axe (and saves its screenshot), then closes it with Escape, as a
 * keyboard user would.
 */
async function checkDialog(page: Page, dialog: Locator, label: string) {
  await dialog.waitFor();
  // The page behind, under the overlay, had its own check: axe would measure its text through
  // the overlay's tint.
  await expectAccessible(page, label, DIALOG_SCOPE);
  const [language, , name] = label.split(' ') as [Language, string, string];
  await screenshot(page, language, `dialog-${name}`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

describe.each(LANGUAGES)('dialogs in %s', (language) => {
  const t = (key: string, values?: Record<string, string | number>) => tr(language, key, values);

  it("a client's dialogs pass axe", async () => {
    const page = await newPage(browser, language);
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole('heading', { level: 2, name: t('vrUsers:title'), exact: true }).waitFor();
    await page
      .getByRole('button', { name: t('vrUsers:add') })
      .first()
      .click();
    const add = page.getByRole('dialog', { name: t('vrUsers:addTitle') });
    // With its validation message showing too.
    await add.getByRole('button', { name: t('common:create') }).click();
    await add.getByText(t('vrUsers:nameRequired')).waitFor();
    await checkDialog(page, add, `${language} dialog vr-user-add`);
    await page
      .getByRole('row')
      .filter({ hasText: trainee })
      .getByRole('button', { name: t('vrUsers:viewSessions') })
      .click();
    const sessions = page.getByRole('dialog', {
      name: t('vrUsers:sessionsTitle', { name: trainee }),
    });
    await sessions.getByRole('cell').first().waitFor();
    await checkDialog(page, sessions, `${language} dialog vr-user-sessions`);

    await go(page, language, '/devices', 'devices:title');
    await page
      .getByRole('button', { name: t('devices:add') })
      .first()
      .click();
    const addHeadset = page.getByRole('dialog', { name: t('devices:addTitle') });
    await addHeadset.getByTestId('enrollment-code').waitFor();
    await checkDialog(page, addHeadset, `${language} dialog add-headset`);
    const card = page.getByTestId('device-card').filter({ hasText: headsetName });
    await card.getByRole('button', { name: t('devices:settings') }).click();
    // The settings panel mounts its controls as it starts to open and grows over a moment: the
    // delete button is clicked once the panel has opened and the page has settled.
    await card.getByRole('radiogroup', { name: t('devices:movementType') }).waitFor();
    await settled(page);
    await card.getByRole('button', { name: t('devices:delete') }).click();
    await checkDialog(
      page,
      page.getByRole('dialog', { name: t('devices:deleteTitle') }),
      `${language} dialog device-delete`,
    );

    await page.getByRole('button', { name: t('layout:logout') }).click();
    await checkDialog(
      page,
      page.getByRole('dialog', { name: t('layout:logout') }),
      `${language} dialog logout`,
    );
    await page.context().close();
  });

  it("an admin's dialogs pass axe", async () => {
    const page = await newPage(browser, language);
    const { email, password } = adminLogin();
    await signIn(page, email, password, '/admin/organizations');
    await page
      .getByRole('heading', { level: 2, name: t('adminOrganizations:title'), exact: true })
      .waitFor();
    await page
      .getByRole('button', { name: t('adminOrganizations:add') })
      .first()
      .click();
    await checkDialog(
      page,
      page.getByRole('dialog', { name: t('adminOrganizations:addTitle') }),
      `${language} dialog organization-add`,
    );
    await searchList(page, t('adminOrganizations:search'), tenant.organization.name);
    await page.getByRole('row').filter({ hasText: tenant.organization.name }).click();
    const analytics = page.getByRole('dialog');
    await analytics.getByText(t('adminOrganizations:analytics.scenarioPerformance')).waitFor();
    await analytics.getByRole('progressbar').first().waitFor();
    await checkDialog(page, analytics, `${language} dialog organization-analytics`);

    await go(page, language, '/admin/users', 'adminUsers:title');
    await page
      .getByRole('button', { name: t('adminUsers:add') })
      .first()
      .click();
    await checkDialog(
      page,
      page.getByRole('dialog', { name: t('adminUsers:addTitle') }),
      `${language} dialog user-add`,
    );
    await searchList(page, t('adminUsers:search'), tenant.email);
    await page
      .getByRole('row')
      .filter({ hasText: tenant.email })
      .getByRole('button', { name: t('adminUsers:changePassword') })
      .click();
    await checkDialog(
      page,
      page.getByRole('dialog', { name: t('adminUsers:passwordTitle') }),
      `${language} dialog change-password`,
    );

    await go(page, language, '/admin/content', 'adminContent:title');
    await page
      .getByRole('button', { name: t('adminContent:add.scenario') })
      .first()
      .click();
    const content = page.getByRole('dialog', { name: t('adminContent:addTitle.scenario') });
    await content.getByRole('button', { name: t('common:create') }).click();
    await content.getByText(t('adminContent:nameRequired')).waitFor();
    await checkDialog(page, content, `${language} dialog content-scenario`);

    await go(page, language, '/admin/scenario-access', 'adminAccess:title');
    await searchList(page, t('adminAccess:search'), tree.scenario.name);
    // Shown by the name in the console's language.
    const scenarioName = inLanguageOf(language, tree.scenario);
    await page.getByRole('button', { name: new RegExp(scenarioName) }).click();
    await page.getByRole('button', { name: t('adminAccess:grantAccess') }).click();
    const grant = page.getByRole('dialog', {
      name: t('adminAccess:grantTitle', { scenario: scenarioName }),
    });
    // With the organisations' list open: the one with access says so.
    await grant
      .getByRole('combobox', { name: t('adminAccess:organizations') })
      .fill(tenant.organization.name);
    // The server's matches for the name, not the first organisations of every file it offers
    // before (a longer list, which scrolls).
    await expect
      .poll(() => page.getByRole('option').allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringContaining(tenant.organization.name)]);
    await expectAccessible(page, `${language} dialog grant-access (list open)`, DIALOG_SCOPE);
    await screenshot(page, language, 'dialog-grant-access-list');
    await page.keyboard.press('Escape');
    await checkDialog(page, grant, `${language} dialog grant-access`);
    await page.context().close();
  });
});

/**
 * Presses Tab until `target` (or something inside it) has the focus: proves it can be reached by
 * keyboard, in the page's own tab order.
 */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 60 } = {}) {
  // Attached is enough: a segmented control's radios are visually hidden behind their labels.
  await target.waitFor({ state: 'attached' });
  for (let presses = 0; presses < max; presses += 1) {
    const focused = await target.evaluate(
      (element) => element === document.activeElement || element.contains(document.activeElement),
    );
    if (focused) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${target}`);
}

describe('the keyboard alone', () => {
  it('starts a session with the wizard (ru)', async () => {
    const t = (key: string, values?: Record<string, string | number>) => tr('ru', key, values);
    const page = await newPage(browser, 'ru');
    await signIn(page, tenant.email, tenant.password, '/sessions');
    await page.getByTestId('step-prompt').waitFor();
    const next = page.getByRole('button', { name: t('common:next') });
    const step = (name: string) =>
      page.getByTestId('step-prompt').filter({ hasText: t(`sessions:wizard.prompts.${name}`) });

    // A new VR user: the mode switch is a radio group (arrow keys), then the name.
    await tabTo(page, page.getByRole('radio', { name: t('sessions:wizard.existingVrUser') }));
    await page.keyboard.press('ArrowRight');
    const name = uniqueName('Клавиатура');
    await tabTo(page, page.getByLabel(t('sessions:wizard.newVrUserName')));
    await page.keyboard.type(name);
    await tabTo(page, next);
    await page.keyboard.press('Enter');

    // Each choice is a card of a radio group: reached with Tab, chosen with Space.
    for (const [prompt, choice] of [
      ['device', new RegExp(headsetName)],
      ['scenario', new RegExp(tree.scenario.name)],
      ['module', new RegExp(tree.module.name)],
      ['level', new RegExp(t('sessions:wizard.levelTitle', { number: 1, name: 'Основы' }))],
    ] as const) {
      await step(prompt).waitFor();
      const card = page.getByRole('radio', { name: choice });
      await tabTo(page, card);
      await page.keyboard.press('Space');
      await expect.poll(() => card.getAttribute('aria-checked')).toBe('true');
      await tabTo(page, next);
      await page.keyboard.press('Enter');
    }
    await step('options').waitFor();
    const option = page.getByRole('checkbox', { name: 'Задымление' });
    await tabTo(page, option);
    await page.keyboard.press('Space');
    expect(await option.isChecked()).toBe(true);
    await tabTo(page, page.getByRole('button', { name: t('sessions:wizard.start') }));
    await page.keyboard.press('Enter');

    // Started (the simulated headset plays it to the end within a moment).
    await page.getByText(t('sessions:started')).waitFor();
    await page.waitForURL(/tab=active/);
    await page.context().close();
  });

  it('adds, edits and deletes a VR user through the dialogs (en)', async () => {
    const t = (key: string, values?: Record<string, string | number>) => tr('en', key, values);
    const page = await newPage(browser, 'en');
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole('heading', { level: 2, name: t('vrUsers:title') }).waitFor();

    await tabTo(page, page.getByRole('button', { name: t('vrUsers:add') }).first());
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: t('vrUsers:addTitle') });
    await dialog.waitFor();
    // The focus starts in the name field; Enter submits the form.
    const name = uniqueName('Keyboard user');
    const nameField = dialog.getByRole('textbox', { name: t('vrUsers:name') });
    await expect
      .poll(() => nameField.evaluate((element) => element === document.activeElement))
      .toBe(true);
    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Typed without a mouse');
    await tabTo(page, dialog.getByRole('button', { name: t('common:create') }));
    await page.keyboard.press('Enter');
    await page.getByText(t('vrUsers:createdToast')).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: name });
    await row.waitFor();

    // Escape leaves a dialog without saving.
    await tabTo(page, row.getByRole('button', { name: t('common:edit') }));
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: t('vrUsers:editTitle') });
    await edit.waitFor();
    await page.keyboard.type(' (changed)');
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'hidden' });
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: `${name} (changed)` })
        .count(),
    ).toBe(0);

    await tabTo(page, row.getByRole('button', { name: t('common:delete') }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: t('vrUsers:deleteTitle') });
    await confirm.waitFor();
    await tabTo(page, confirm.getByRole('button', { name: t('common:delete') }));
    await page.keyboard.press('Enter');
    await page.getByText(t('vrUsers:deleted')).waitFor();
    await row.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
