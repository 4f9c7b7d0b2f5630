import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALOG_SCOPE, expectAccessible } from './axe';
import { tr } from './i18n';
import { adminToken, createTenant, type Tenant } from './seed';
import { baseUrl, launchBrowser, newPage, screenshot, settled, signIn } from './support';

/**
 * Integrations as an organisation's staff use them: a webhook added in the console against a real
 * receiver on this machine, its signing secret shown once, a test send that the receiver gets
 * signed with that secret and whose answer the console shows; on a phone the page never scrolls
 * sideways.
 */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The narrowest phone the console is made for. */
const PHONE_360 = { width: 360, height: 780 };

let browser: Browser;
let plant: Tenant;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
const waiting: Array<() => void> = [];

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      waiting.splice(0).forEach((wake) => wake());
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('received by the plant ERP');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/vr`;
  const admin = await adminToken();
  [browser, plant] = await Promise.all([launchBrowser(), createTenant(admin, 'Hooks Plant')]);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Standard Webhooks 1.0: v1, base64 HMAC-SHA256 of `id.timestamp.body` keyed by the secret. */
function signatureOf(secret: string, request: Received): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${String(request.headers['webhook-id'])}.${String(request.headers['webhook-timestamp'])}.${request.body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}

describe('integrations', () => {
  it('adds a webhook, shows its secret once, and a test send reaches the receiver signed', async () => {
    const language = 'en';
    const page = await newPage(browser, language);
    await signIn(page, plant.email, plant.password);
    await page
      .getByRole('link', { name: tr(language, 'layout:nav.integrations'), exact: true })
      .click();
    await page.waitForURL('**/integrations');
    await page.getByText(tr(language, 'integrations:emptyTitle'), { exact: true }).waitFor();

    await page
      .getByRole('button', { name: tr(language, 'integrations:add') })
      .first()
      .click();
    const form = page.getByRole('dialog', { name: tr(language, 'integrations:form.addTitle') });
    await form
      .getByRole('textbox', { name: tr(language, 'integrations:form.url') })
      .fill(receiverUrl);
    await expectAccessible(page, 'en integration form', DIALOG_SCOPE);
    await form.getByRole('button', { name: tr(language, 'common:create') }).click();

    const secretDialog = page.getByRole('dialog', {
      name: tr(language, 'integrations:secret.title'),
    });
    const secret = (await secretDialog.getByTestId('integration-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    await secretDialog.getByText(tr(language, 'integrations:secret.warning')).waitFor();
    await settled(page);
    await expectAccessible(page, 'en integration secret', DIALOG_SCOPE);
    await screenshot(page, language, 'integrations-secret');
    await secretDialog
      .getByRole('button', { name: tr(language, 'integrations:secret.done') })
      .click();
    await secretDialog.waitFor({ state: 'hidden' });
    // Shown once: nowhere on the page now.
    expect(await page.getByText(secret).count()).toBe(0);

    const card = page.getByRole('article', { name: receiverUrl });
    await card.waitFor();
    const arrived = new Promise<void>((resolve) => waiting.push(resolve));
    await card.getByRole('button', { name: tr(language, 'integrations:action.test') }).click();
    await arrived;
    const result = card.getByTestId('integration-test-result');
    await result.getByText('received by the plant ERP').waitFor();
    await result.getByText(/HTTP 200/).waitFor();

    const request = received.at(-1)!;
    expect(JSON.parse(request.body)).toMatchObject({ type: 'integration.test' });
    expect(String(request.headers['webhook-signature']).split(' ')).toContain(
      signatureOf(secret, request),
    );
    await expectAccessible(page, 'en integrations');
    await screenshot(page, language, 'integrations');

    // The delivery log opens under the list (a test send is no delivery: it is empty).
    await card.getByRole('button', { name: tr(language, 'integrations:action.log') }).click();
    await page.getByText(tr(language, 'integrations:log.emptyTitle'), { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('log')).toMatch(/^[0-9a-f-]{36}$/);
    await expectAccessible(page, 'en integrations log');
  });

  it.each(['ru', 'en'] as const)(
    'fits a 360 px phone (%s): the list, the delivery log and the form',
    async (language) => {
      const page = await newPage(browser, language, { viewport: PHONE_360 });
      await signIn(page, plant.email, plant.password);
      await page.goto(`${baseUrl()}/integrations`);
      const card = page.getByRole('article', { name: receiverUrl });
      await card.waitFor();
      await card.getByRole('button', { name: tr(language, 'integrations:action.log') }).click();
      await page.getByText(tr(language, 'integrations:log.emptyTitle'), { exact: true }).waitFor();
      await settled(page);
      const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
      expect(await pageWidth()).toBeLessThanOrEqual(PHONE_360.width);
      await expectAccessible(page, `${language} integrations phone`);
      await screenshot(page, language, 'integrations');

      await card.getByRole('button', { name: tr(language, 'integrations:action.edit') }).click();
      const form = page.getByRole('dialog', {
        name: tr(language, 'integrations:form.editTitle'),
      });
      await form.waitFor();
      await settled(page);
      expect(await pageWidth()).toBeLessThanOrEqual(PHONE_360.width);
      await expectAccessible(page, `${language} integration form phone`, DIALOG_SCOPE);
      await screenshot(page, language, 'integrations-form');
    },
  );

  it('reads in Russian on a laptop', async () => {
    const language = 'ru';
    const page = await newPage(browser, language);
    await signIn(page, plant.email, plant.password);
    await page.goto(`${baseUrl()}/integrations`);
    const card = page.getByRole('article', { name: receiverUrl });
    await card.getByRole('button', { name: tr(language, 'integrations:action.test') }).click();
    await card
      .getByTestId('integration-test-result')
      .getByText(/HTTP 200/)
      .waitFor();
    await card.getByRole('button', { name: tr(language, 'integrations:action.log') }).click();
    await page.getByText(tr(language, 'integrations:log.emptyTitle'), { exact: true }).waitFor();
    await expectAccessible(page, 'ru integrations');
    await screenshot(page, language, 'integrations');
  });
});
