import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALOG_SCOPE, expectAccessible } from './axe';
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
  apiCall,
  baseUrl,
  launchBrowser,
  newPage,
  settled,
  signIn,
  uniqueName,
  type Language,
} from './support';

/**
 * Qualifications in the console (issue 37): the compliance matrix with its totals, filters and
 * "as of" day; the trainee's "Sign evaluation" dialog, which shows the signature before it is
 * given and refuses a wrong password in the form; the public verify page a certificate's QR
 * opens, on a phone, with no sign-in. In both languages, axe clean, at 1440×900 and 360×780;
 * screenshots go to /tmp/shots-compliance-console.
 */
const SHOTS = '/tmp/shots-compliance-console';
const DESKTOP = { width: 1440, height: 900 } as const;
const PHONE = { width: 360, height: 780 } as const;

let browser: Browser;
let tenant: Tenant;
let tree: SeededTree;
const headsets = new Headsets();
const anna = uniqueName('Анна Смирнова');
const boris = uniqueName('Борис Орлов');
// Each language signs for a trainee of its own: a signature stays, and Anna's row in the other
// language's matrix must still show what it shows without one.
const signers: Record<Language, string> = {
  ru: uniqueName('Вера Ru'),
  en: uniqueName('Вера En'),
};
const signerIds = {} as Record<Language, string>;
const forklift = { name: uniqueName('Погрузчик'), nameEn: uniqueName('Forklift') };
const height = { name: uniqueName('Высота'), nameEn: uniqueName('Height') };
let annaId: string;
let forkliftId: string;
let heightId: string;

beforeAll(async () => {
  const admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'Compliance Org', {
      scenario: uniqueName('Складская техника'),
      scenarioEn: uniqueName('Warehouse vehicles'),
      module: 'Погрузчик',
      moduleEn: 'Forklift',
      levels: [{ name: 'Вождение', nameEn: 'Driving', maxTasks: 1, options: [], optionsEn: [] }],
    }),
  ]);
  const { headset } = await headsets.enrollQuick(tenant.token);
  // Anna and the signers pass the level; Boris has done nothing yet.
  const trained = async (name: string) => {
    await completeSession(tenant.token, headset, tree.levels[0]!.id, name);
    const users = await apiCall<{ vr_users: Array<{ id: string; name: string }> }>(
      'GET',
      `/v1/vr-users?q=${encodeURIComponent(name)}`,
      tenant.token,
    );
    return users.vr_users[0]!.id;
  };
  annaId = await trained(anna);
  for (const language of LANGUAGES) signerIds[language] = await trained(signers[language]);
  const borisUser = await apiCall<{ id: string }>('POST', '/v1/vr-users', tenant.token, {
    name: boris,
  });

  const define = (q: { name: string; nameEn: string }, evaluation: boolean) =>
    apiCall<{ id: string }>('POST', '/v1/qualifications', tenant.token, {
      name: q.name,
      name_en: q.nameEn,
      level_ids: [tree.levels[0]!.id],
      validity_days: 365,
      expiring_within_days: 30,
      evaluation_required: evaluation,
    });
  [forkliftId, heightId] = [(await define(forklift, true)).id, (await define(height, false)).id];
  // Due yesterday: Boris, not qualified, is overdue in both.
  const due_at = new Date(Date.now() - 24 * 3600_000).toISOString();
  for (const id of [forkliftId, heightId]) {
    await apiCall('POST', `/v1/qualifications/${id}/assignments`, tenant.token, {
      vr_user_ids: [annaId, borisUser.id],
      due_at,
    });
  }
  await apiCall('POST', `/v1/qualifications/${forkliftId}/assignments`, tenant.token, {
    vr_user_ids: Object.values(signerIds),
    due_at: null,
  });
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

async function shoot(page: Page, name: string) {
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function atPhone(page: Page, label: string) {
  await page.setViewportSize(PHONE);
  await page.waitForFunction((width) => window.innerWidth === width, PHONE.width);
  await expectAccessible(page, `${label} phone`);
  await shoot(page, `${label}-phone`);
  await page.setViewportSize(DESKTOP);
}

describe.each(LANGUAGES)('qualifications in %s', (language: Language) => {
  const t = (key: string, values?: Record<string, string | number>) => tr(language, key, values);
  const status = (key: string) => t(`qualifications:status.${key}`);

  it('shows the compliance matrix, its totals, filters and "as of" day, and a card per trainee on a phone', async () => {
    const page = await newPage(browser, language, { viewport: DESKTOP });
    await signIn(page, tenant.email, tenant.password);
    await page.getByRole('link', { name: t('layout:nav.compliance'), exact: true }).click();
    await page.waitForURL('**/compliance');
    await page.getByRole('heading', { level: 2, name: t('qualifications:title') }).waitFor();
    const matrix = page.getByTestId('compliance-matrix');
    const annaRow = matrix.getByRole('row').filter({ hasText: anna });
    const borisRow = matrix.getByRole('row').filter({ hasText: boris });
    await annaRow.getByText(status('qualified'), { exact: true }).waitFor();
    await annaRow.getByText(status('pending_evaluation'), { exact: true }).waitFor();
    expect(await borisRow.getByText(status('not_qualified'), { exact: true }).count()).toBe(2);
    expect(await borisRow.getByTestId('overdue-mark').count()).toBe(2);
    await expectAccessible(page, `${language} compliance`);
    await shoot(page, `${language}-compliance`);

    // A total narrows the matrix to its status, in the URL.
    await page
      .getByTestId('compliance-totals')
      .getByRole('button', { name: new RegExp(`^${status('not_qualified')}: `) })
      .click();
    await page.waitForURL(/status=not_qualified/);
    await expect.poll(() => annaRow.count()).toBe(0);
    await borisRow.waitFor();

    // Far in the future, everything Anna earned has lapsed.
    await page.goto(`${baseUrl()}/compliance?as_of=2031-01-15`);
    await annaRow.getByText(status('expired'), { exact: true }).waitFor();
    await page
      .getByTestId('compliance-as-of-text')
      .getByText(/15[./]01[./]2031/)
      .waitFor();
    await page.goto(`${baseUrl()}/compliance`);
    await annaRow.getByText(status('qualified'), { exact: true }).waitFor();

    await page.setViewportSize(PHONE);
    await page.getByTestId('compliance-card').filter({ hasText: anna }).waitFor();
    await page.setViewportSize(DESKTOP);
    await atPhone(page, `${language}-compliance`);
    await page.context().close();
    // Two sizes, axe at each and four loads of the screen: 90 s ran out at a load of 36.
  }, 180_000);

  it('signs an evaluation: the signature shows before it is given, a wrong password is refused in the form', async () => {
    const page = await newPage(browser, language, { viewport: DESKTOP });
    await signIn(page, tenant.email, tenant.password, `/vr-users/${signerIds[language]}`);
    const section = page.getByTestId('trainee-qualifications');
    await section
      .getByRole('button', { name: t('qualifications:record.signEvaluation'), exact: true })
      .click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByTestId('signature-preview')
      .getByText(tenant.email, { exact: false })
      .waitFor();
    await dialog.locator('input[aria-haspopup="listbox"]').first().click();
    await page
      .getByRole('option', { name: language === 'en' ? forklift.nameEn : forklift.name })
      .click();
    await expect(dialog.getByTestId('signature-preview').textContent()).resolves.toContain(
      t('qualifications:sign.defaultMeaning.pass'),
    );
    await expectAccessible(page, `${language} sign evaluation`, DIALOG_SCOPE);
    await shoot(page, `${language}-sign-evaluation`);

    const password = dialog.getByLabel(t('qualifications:sign.password'), { exact: false });
    await password.fill('not the password');
    await dialog
      .getByRole('button', { name: t('qualifications:sign.submit'), exact: true })
      .click();
    await dialog.getByText(t('errors:codes.signature_rejected')).waitFor();
    await expectAccessible(page, `${language} sign evaluation refused`, DIALOG_SCOPE);
    await shoot(page, `${language}-sign-evaluation-refused`);
    await page.setViewportSize(PHONE);
    await expectAccessible(page, `${language} sign evaluation phone`, DIALOG_SCOPE);
    await shoot(page, `${language}-sign-evaluation-phone`);
    await page.setViewportSize(DESKTOP);

    await password.fill(tenant.password);
    await dialog
      .getByRole('button', { name: t('qualifications:sign.submit'), exact: true })
      .click();
    await dialog.waitFor({ state: 'detached' });
    const item = section
      .getByTestId('trainee-qualification')
      .filter({ hasText: language === 'en' ? forklift.nameEn : forklift.name });
    await item.getByText(status('qualified'), { exact: true }).waitFor();
    await item
      .getByRole('button', {
        name: new RegExp(t('qualifications:record.history', { count: 2 }).split(' ')[0]!),
      })
      .click();
    await item
      .getByTestId('history-evaluation')
      .first()
      .getByText(tenant.email, { exact: false })
      .waitFor();
    await expectAccessible(page, `${language} trainee qualifications`);
    await shoot(page, `${language}-trainee-qualifications`);
    await atPhone(page, `${language}-trainee-qualifications`);
    await page.context().close();
  });

  it('checks a certificate on the public verify page, on a phone, without signing in', async () => {
    const record = await apiCall<{
      qualifications: Array<{ qualification_id: string; certificate_code: string | null }>;
    }>('GET', `/v1/vr-users/${annaId}/record`, tenant.token);
    const code = record.qualifications.find(
      (q) => q.qualification_id === heightId,
    )!.certificate_code!;
    const page = await newPage(browser, language, { viewport: PHONE });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${baseUrl()}/verify/${code}`);
    const card = page.getByTestId('verify-certificate');
    await card.getByText(anna).waitFor();
    await card.getByText(language === 'en' ? height.nameEn : height.name).waitFor();
    await card.getByText(tenant.organization.name).waitFor();
    await card.getByText(t('verify:status.valid'), { exact: true }).waitFor();
    // No sign-in asked for, and none of the signed-in layout loaded.
    expect(new URL(page.url()).pathname).toBe(`/verify/${code}`);
    expect(await page.locator('.mantine-AppShell-navbar').count()).toBe(0);
    expect(scripts.filter((path) => /AppLayout|screens/i.test(path))).toEqual([]);
    await expectAccessible(page, `${language} verify phone`);
    await shoot(page, `${language}-verify-phone`);
    await page.setViewportSize(DESKTOP);
    await expectAccessible(page, `${language} verify`);
    await shoot(page, `${language}-verify`);

    await page.goto(`${baseUrl()}/verify/${'x'.repeat(43)}`);
    await page.getByText(t('verify:notFoundTitle'), { exact: true }).waitFor();
    await expectAccessible(page, `${language} verify not found`);
    await shoot(page, `${language}-verify-not-found`);

    // The printable certificate of the same award: its sheet and the QR of the verify page.
    await page.goto(`${baseUrl()}/certificates/${code}`);
    const sheet = page.getByTestId('certificate-sheet');
    await sheet.getByText(anna).waitFor();
    await expect(sheet.locator('svg').count()).resolves.toBe(1);
    await expectAccessible(page, `${language} certificate`);
    await shoot(page, `${language}-certificate`);
    await page.setViewportSize(PHONE);
    await shoot(page, `${language}-certificate-phone`);
    await page.context().close();
  });
});
