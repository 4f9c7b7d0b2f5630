import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { contextOf, createTestApp, type TestApp } from '../../test/harness.ts';
import { makeTenant, type Tenant } from '../../test/factories.ts';
import {
  recordEnrolled,
  webhookReceiver,
  webhookTo as webhookToOf,
  type WebhookReceiver,
} from '../../test/receivers.ts';
import { Dispatcher } from './dispatcher.ts';

/**
 * Fair delivery (issue 40): one organisation's receivers that never answer do not delay another
 * organisation's deliveries (sends per organisation and per host are bounded, and so is what one
 * organisation's deliveries hold of a process), and a receiver that keeps timing out is slowed
 * down for itself alone (a circuit breaker per integration). Receivers on 127.0.0.1 (the hanging
 * ones) and 127.0.0.2 (another host).
 */

const TIMEOUT_MS = 3000;
let t: TestApp;
let hanging: WebhookReceiver;
let healthy: WebhookReceiver;
beforeAll(async () => {
  t = await createTestApp({
    config: {
      outboundAllowPrivate: ['127.0.0.1', '127.0.0.2'],
      deliveryTimeoutMs: TIMEOUT_MS,
      deliveryPollMs: 50,
      quotas: { ...testQuotas(), integrations: 40 },
    },
  });
  hanging = await webhookReceiver();
  healthy = await webhookReceiver('127.0.0.2');
});
afterAll(async () => {
  await hanging.close();
  await healthy.close();
  await t.close();
});
afterEach(async () => {
  await t.db
    .updateTable('deliveries')
    .set({ status: 'abandoned', next_attempt_at: null })
    .where('status', '=', 'pending')
    .execute();
  hanging.reset();
  healthy.reset();
});

function testQuotas() {
  return { vrUsers: 100, devices: 100, integrations: 20, enrollmentCodesPerDay: 100 };
}

const webhookTo = (tenant: Tenant, url: string) => webhookToOf(t, tenant, url);
const enrolled = (tenant: Tenant) => recordEnrolled(t, tenant);

const statusesOf = async (integrationId: string) =>
  (
    await t.db
      .selectFrom('deliveries')
      .select('status')
      .where('integration_id', '=', integrationId)
      .orderBy('created_at')
      .execute()
  ).map((row) => row.status);

describe('fair delivery', () => {
  it("delivers one organisation's event at once while another's 30 receivers hang", async () => {
    const [noisy, quiet] = [await makeTenant(t), await makeTenant(t)];
    for (let i = 0; i < 30; i++) await webhookTo(noisy, `${hanging.url}/hang/${i}`);
    const { integration } = await webhookTo(quiet, `${healthy.url}/hook`);
    hanging.answer(...Array.from({ length: 30 }, () => 'hang' as const));
    const dispatcher = new Dispatcher(contextOf(t));
    dispatcher.start();
    try {
      await enrolled(noisy);
      dispatcher.wake();
      // The noisy organisation's sends are out and hanging (its own few slots full).
      await vi.waitFor(() => expect(hanging.received.length).toBeGreaterThan(0), {
        timeout: 2000,
        interval: 10,
      });
      const committed = performance.now();
      await enrolled(quiet);
      dispatcher.wake();
      await vi.waitFor(() => expect(healthy.received).toHaveLength(1), {
        timeout: TIMEOUT_MS,
        interval: 10,
      });
      // Well within one of the hanging sends' timeouts (before: after the first wave of them).
      expect(performance.now() - committed).toBeLessThan(TIMEOUT_MS / 2);
      expect(hanging.received.length).toBeLessThanOrEqual(t.config.deliveryConcurrencyPerHost);
      await vi.waitFor(async () => expect(await statusesOf(integration.id)).toEqual(['delivered']));
    } finally {
      await dispatcher.stop();
    }
  });

  it('slows down a receiver that keeps timing out, for itself alone', async () => {
    const tenant = await makeTenant(t);
    const slow = await webhookTo(tenant, `${hanging.url}/slow`);
    const fine = await webhookTo(tenant, `${healthy.url}/fine`);
    hanging.answer(...Array.from({ length: 10 }, () => 'hang' as const));
    // Three sends at once, each ending by the timeout: the breaker opens.
    for (let i = 0; i < 3; i++) await enrolled(tenant);
    const dispatcher = new Dispatcher(contextOf(t), undefined, () => 0.5);
    await dispatcher.runOnce();
    expect(hanging.received).toHaveLength(3);
    const opened = await t.db
      .selectFrom('integrations')
      .select(['consecutive_timeouts', 'slowed_until'])
      .where('id', '=', slow.integration.id)
      .executeTakeFirstOrThrow();
    expect(opened.consecutive_timeouts).toBe(3);
    expect(opened.slowed_until!.getTime()).toBe(t.clock.now().getTime() + 60_000);
    // Past its retries' 5 s: nothing of the slowed receiver is sent, the other one is.
    t.clock.advance(10_000);
    await enrolled(tenant);
    await dispatcher.runOnce();
    expect(hanging.received).toHaveLength(3);
    expect(healthy.received).toHaveLength(4);
    expect(await statusesOf(fine.integration.id)).toEqual(Array(4).fill('delivered'));
    // Once its slow-down ends, one delivery at a time (the rest wait for it).
    t.clock.advance(60_000);
    await dispatcher.runOnce();
    expect(hanging.received).toHaveLength(4);
  });
});
