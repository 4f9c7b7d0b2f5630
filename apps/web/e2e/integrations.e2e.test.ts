import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALOG_SCOPE, expectAccessible } from './axe';
import { tr } from './i18n';
import { adminToken, createTenant, enrollmentCode, type Tenant } from './seed';
import { apiCall, launchBrowser, newPage, screenshot, settled, signIn } from './support';
import { waitFor } from './wait-for';

/**
 * Integrations as an organisation's staff use them: a webhook added in the console against a real
 * receiver on this machine, its signing secret shown once, a test send that the receiver gets
 * signed with that secret and whose answer the console shows; a real event (a headset enrolled)
 * in the delivery log with its status, HTTP code and answer, and sent again from there with the
 * same webhook-id; on a phone the page never scrolls sideways.
 */

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The narrowest phone the console is made for. */
const PHONE_360 = { width: 360, height: 780 };

let browser: Browser;
let plant: Tenant;
let receiver: http.Server;
let receiverOrigin: string;
let receiverUrl: string;
const received: Received[] = [];
const waiting: Array<() => void> = [];

beforeAll(async () => {
  receiver = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ url: request.url ?? '', headers: request.headers, body });
      waiting.splice(0).forEach((wake) => wake());
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('received by the plant ERP');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  receiverUrl = `${receiverOrigin}/hooks/vr`;
  const admin = await adminToken();
  [browser, plant] = await Promise.all([launchBrowser(), createTenant(admin, 'Hooks Plant')]);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

/**
 * What a receiver does with a delivery: checks its Standard Webhooks signature with the
 * `standardwebhooks` package (throws when none matches the secret) and answers its payload.
 */
function verified(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
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
    await result.getByText(/HTTP 200/).waitFor();
    // The receiver is on a private address (allowed by OUTBOUND_ALLOW_PRIVATE): its status is
    // shown, never its body, so a test send cannot read an internal page.
    expect(await result.getByText('received by the plant ERP').count()).toBe(0);

    const request = received.at(-1)!;
    expect(verified(secret, request)).toMatchObject({ type: 'integration.test' });
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
      await signIn(page, plant.email, plant.password, '/integrations');
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
    await signIn(page, plant.email, plant.password, '/integrations');
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

  it('shows a real delivery in the log, and redelivers it with the same webhook-id', async () => {
    const language = 'en';
    const dairy = await createTenant(await adminToken(), 'Hooks Dairy');
    const hookUrl = `${receiverOrigin}/hooks/dairy`;
    const { integration, secret } = await apiCall<{
      integration: { id: string };
      secret: string;
    }>('POST', '/v1/integrations', dairy.token, {
      kind: 'webhook',
      url: hookUrl,
      events: ['device.enrolled'],
    });
    const toDairy = () => received.filter((request) => request.url === '/hooks/dairy');

    // A headset enrols with the organisation's code: the server tells the receiver, signed.
    const enrolled = await apiCall<{ device_id: string }>('POST', '/v1/headset/enroll', undefined, {
      code: await enrollmentCode(dairy.token),
      name: 'Quest in the milking hall',
      type: 'quest',
    });
    await waitFor(() => toDairy().length === 1, { what: 'the enrolment delivered' });
    const first = toDairy()[0]!;
    expect(verified(secret, first)).toMatchObject({
      type: 'device.enrolled',
      data: { device_id: enrolled.device_id, name: 'Quest in the milking hall' },
    });
    // The attempt is recorded once the receiver has answered.
    await waitFor(
      async () =>
        (
          await apiCall<{ deliveries: Array<{ status: string }> }>(
            'GET',
            `/v1/integrations/${integration.id}/deliveries`,
            dairy.token,
          )
        ).deliveries[0]?.status === 'delivered',
      { what: 'the delivery recorded' },
    );

    const page = await newPage(browser, language);
    await signIn(page, dairy.email, dairy.password, '/integrations');
    const card = page.getByRole('article', { name: hookUrl });
    await card.getByRole('button', { name: tr(language, 'integrations:action.log') }).click();
    const log = page.getByTestId('delivery-log');
    const row = log.getByRole('row').filter({ hasText: 'device.enrolled' });
    await row.waitFor();
    await row.getByText(tr(language, 'integrations:event.device_enrolled')).waitFor();
    // Time, event, attempts, status, HTTP code, duration, the answer's first bytes.
    const cells = row.getByRole('cell');
    expect(await cells.nth(2).textContent()).toBe('1');
    expect(await cells.nth(3).textContent()).toBe(
      tr(language, 'integrations:deliveryStatus.delivered'),
    );
    expect(await cells.nth(4).textContent()).toBe('200');
    expect(await cells.nth(5).textContent()).toMatch(/^\d+ ms$/);
    expect(await cells.nth(6).textContent()).toBe('received by the plant ERP');
    await expectAccessible(page, 'en integrations log with a delivery');
    await screenshot(page, language, 'integrations-log');

    // Sent again by hand: the receiver gets the same event, with the same webhook-id.
    await row.getByRole('button').click();
    await page.getByText(tr(language, 'integrations:log.redelivered')).waitFor();
    await waitFor(() => toDairy().length === 2, { what: 'the redelivery' });
    const again = toDairy()[1]!;
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(again.body).toBe(first.body);
    verified(secret, again);
    // Refreshed, the log shows the second attempt delivered.
    await waitFor(
      async () =>
        (
          await apiCall<{ deliveries: Array<{ attempts: number; status: string }> }>(
            'GET',
            `/v1/integrations/${integration.id}/deliveries`,
            dairy.token,
          )
        ).deliveries[0]?.attempts === 2,
      { what: 'the second attempt recorded' },
    );
    await page.getByRole('button', { name: tr(language, 'common:refresh') }).click();
    await expect.poll(() => cells.nth(2).textContent()).toBe('2');
    expect(await cells.nth(3).textContent()).toBe(
      tr(language, 'integrations:deliveryStatus.delivered'),
    );
  });
});
