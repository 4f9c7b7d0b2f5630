import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tr } from './i18n';
import {
  adminToken,
  createTenant,
  grantedTenant,
  Headsets,
  startSession,
  waitForSessionStatus,
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

/** VR users in English: add, edit and delete through the dialogs; one with a session is kept. */

const en = (key: string, values?: Record<string, string | number>) => tr('en', key, values);

let browser: Browser;
let page: Page;
let admin: string;
let tenant: Tenant;
let tree: SeededTree;
const headsets = new Headsets();

beforeAll(async () => {
  admin = await adminToken();
  [browser, { tenant, tree }] = await Promise.all([
    launchBrowser(),
    grantedTenant(admin, 'VR Users Org', {
      scenario: uniqueName('Evacuation'),
      module: 'Module A',
      levels: [{ name: 'Warm-up', maxTasks: 3 }],
    }),
  ]);
  page = await newPage(browser, 'en');
  await signIn(page, tenant.email, tenant.password);
});

afterAll(async () => {
  await headsets.stopAll();
  await browser?.close();
});

const row = (name: string) =>
  page.getByRole('row').filter({ has: page.getByText(name, { exact: true }) });

async function openVrUsers() {
  await page.goto(`${baseUrl()}/vr-users`);
  await page.getByRole('heading', { level: 2, name: en('vrUsers:title') }).waitFor();
}

describe('VR users', () => {
  it('adds a VR user through the dialog, edits it, and deletes it after confirmation', async () => {
    await openVrUsers();
    const name = uniqueName('Anna');
    const renamed = `${name} Petrova`;

    await page
      .getByRole('button', { name: en('vrUsers:add') })
      .first()
      .click();
    const addDialog = page.getByRole('dialog', { name: en('vrUsers:addTitle') });
    await addDialog.getByLabel(en('vrUsers:name')).fill(name);
    await addDialog.getByLabel(en('vrUsers:notes')).fill('Night shift');
    await addDialog.getByRole('button', { name: en('common:create') }).click();
    await addDialog.waitFor({ state: 'hidden' });
    await page.getByText(en('vrUsers:createdToast')).waitFor();
    // The toast hides nothing a person needs next: not the header (organisation, live badge), not
    // the page's main button.
    const toast = await page.getByText(en('vrUsers:createdToast')).boundingBox();
    for (const covered of [
      page.locator('header').first(),
      page.getByRole('button', { name: en('vrUsers:add') }).first(),
    ]) {
      const box = await covered.boundingBox();
      const overlaps =
        toast &&
        box &&
        toast.x < box.x + box.width &&
        box.x < toast.x + toast.width &&
        toast.y < box.y + box.height &&
        box.y < toast.y + toast.height;
      expect(overlaps).toBeFalsy();
    }
    await row(name).waitFor();
    expect(await row(name).getByText('Night shift').count()).toBe(1);

    await row(name)
      .getByRole('button', { name: en('common:edit') })
      .click();
    const editDialog = page.getByRole('dialog', { name: en('vrUsers:editTitle') });
    const nameInput = editDialog.getByLabel(en('vrUsers:name'));
    expect(await nameInput.inputValue()).toBe(name);
    await nameInput.fill(renamed);
    await editDialog.getByLabel(en('vrUsers:notes')).fill('Day shift');
    await editDialog.getByRole('button', { name: en('common:save') }).click();
    await editDialog.waitFor({ state: 'hidden' });
    await page.getByText(en('vrUsers:updated')).waitFor();
    await row(renamed).waitFor();
    expect(await row(renamed).getByText('Day shift').count()).toBe(1);
    await screenshot(page, 'en', 'vr-users-edited');

    await row(renamed)
      .getByRole('button', { name: en('common:delete') })
      .click();
    const confirm = page.getByRole('dialog', { name: en('vrUsers:deleteTitle') });
    await confirm.getByText(en('vrUsers:deleteConfirm', { name: renamed })).waitFor();
    await confirm.getByRole('button', { name: en('common:delete') }).click();
    await page.getByText(en('vrUsers:deleted')).waitFor();
    await row(renamed).waitFor({ state: 'detached' });
  });

  it('keeps a VR user with a session: delete is disabled with the reason, and the session is listed', async () => {
    const name = uniqueName('Boris');
    const { headset } = await headsets.enroll(tenant.token, {
      name: uniqueName('Quest'),
      paceMs: 60_000,
    });
    const session = await startSession(tenant.token, {
      device_id: headset.deviceId!,
      level_id: tree.levels[0]!.id,
      vr_user_name: name,
    });
    await apiCall('POST', `/v1/sessions/${session.id}/cancel`, tenant.token);
    await waitForSessionStatus(tenant.token, session.id, 'cancelled');

    await openVrUsers();
    const deleteButton = row(name).getByRole('button', { name: en('common:delete') });
    await deleteButton.waitFor();
    expect(await deleteButton.isDisabled()).toBe(true);
    // The tooltip sits on the wrapper, since a disabled button gets no pointer events.
    await deleteButton.locator('xpath=..').hover();
    await page
      .getByRole('tooltip')
      .filter({ hasText: en('vrUsers:deleteDisabled', { count: 1 }) })
      .waitFor();
    expect(en('vrUsers:deleteDisabled', { count: 1 })).toBe('Cannot delete - has 1 session(s)');

    await row(name)
      .getByRole('button', { name: en('vrUsers:viewSessions') })
      .click();
    const sessions = page.getByRole('dialog', { name: en('vrUsers:sessionsTitle', { name }) });
    const sessionRow = sessions.getByRole('row').filter({ hasText: tree.scenario.name });
    await sessionRow.waitFor();
    expect(await sessionRow.count()).toBe(1);
    const cells = await sessionRow.getByRole('cell').allTextContents();
    // Started at, then what ran (scenario; module — level; the revision that ran), the headset,
    // the status and the progress.
    expect(cells[1]).toContain(tree.scenario.name);
    expect(cells[1]).toContain(`${tree.module.name} — ${tree.levels[0]!.name}`);
    expect(cells[1]).toContain(en('common:levelRevision', { number: 1, revision: 1 }));
    expect(cells[2]).toBe(headset.name);
    expect(cells[3]).toBe(en('common:status.cancelled'));
    expect(cells[4]).toContain('0/3 (0%)');
    await screenshot(page, 'en', 'vr-users-sessions');
  });

  it('shows the second page of more than ten VR users from the server, and again after a reload', async () => {
    // An organisation of its own: exactly twelve VR users, Trainee 01 … Trainee 12.
    const paging = await createTenant(admin, 'Paging Org');
    for (let n = 1; n <= 12; n += 1) {
      await apiCall('POST', '/v1/vr-users', paging.token, {
        name: `Trainee ${String(n).padStart(2, '0')}`,
      });
    }
    const client = await newPage(browser, 'en');
    await signIn(client, paging.email, paging.password);
    const trainee = (n: number) =>
      client.getByRole('row').filter({
        has: client.getByText(`Trainee ${String(n).padStart(2, '0')}`, { exact: true }),
      });
    await trainee(10).waitFor();
    expect(await trainee(11).count()).toBe(0);
    await client.getByText(en('common:rowsTotal', { count: 12 }), { exact: true }).waitFor();

    // Page 2 is asked of the server (offset 10), not cut from a list already loaded.
    const [request] = await Promise.all([
      client.waitForRequest(
        (r) =>
          new URL(r.url()).pathname === '/v1/vr-users' &&
          new URL(r.url()).searchParams.get('offset') === '10',
      ),
      client.getByRole('button', { name: en('common:next') }).click(),
    ]);
    expect(new URL(request.url()).searchParams.get('limit')).toBe('10');
    await trainee(11).waitFor();
    await trainee(12).waitFor();
    expect(await trainee(1).count()).toBe(0);
    expect(new URL(client.url()).searchParams.get('page')).toBe('2');
    await client.getByText(en('common:page', { page: 2, pages: 2 }), { exact: true }).waitFor();
    await screenshot(client, 'en', 'vr-users-page-2');

    await client.reload();
    await trainee(12).waitFor();
    expect(await trainee(1).count()).toBe(0);
    await client.context().close();
  });
});
