import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BACKGROUND, contextOf, createTestApp, type TestApp } from '../../test/harness.ts';
import { makeTenant, type Tenant } from '../../test/factories.ts';
import {
  recordEnrolled,
  webhookReceiver,
  webhookTo as webhookToOf,
  type WebhookReceiver,
} from '../../test/receivers.ts';
import { claimDue, leaseUntil, recordAttempts } from './delivery-store.ts';
import { Dispatcher } from './dispatcher.ts';
import type { OutboundAnswer } from './outbound.ts';

/**
 * What a receiver answers is its own business (issue 40): any bytes in an answer are kept safely,
 * one receiver's answer never stops the others' attempts from being recorded, and an attempt
 * recorded by a process whose claim ran out changes nothing another process did since.
 */

let t: TestApp;
let healthy: WebhookReceiver;
let odd: WebhookReceiver;
beforeAll(async () => {
  t = await createTestApp({
    config: { outboundAllowPrivate: ['127.0.0.1'], deliveryTimeoutMs: 2000, deliveryPollMs: 20 },
  });
  healthy = await webhookReceiver();
  odd = await webhookReceiver();
});
afterAll(async () => {
  await healthy.close();
  await odd.close();
  await t.close();
});

const webhookTo = (tenant: Tenant, url: string) => webhookToOf(t, tenant, url);
const enrolled = (tenant: Tenant) => recordEnrolled(t, tenant);

const deliveryOf = (integrationId: string) =>
  t.db
    .selectFrom('deliveries')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .executeTakeFirstOrThrow();

describe('what a receiver answers', () => {
  it('keeps an answer holding a NUL byte, and records the other deliveries of its batch once', async () => {
    const [one, other] = [await makeTenant(t), await makeTenant(t)];
    const nul = await webhookTo(one, `${odd.url}/hook`);
    const fine = await webhookTo(other, `${healthy.url}/hook`);
    odd.answer({ status: 200, body: 'took it\u0000\u00ff\u0001' });
    await enrolled(one);
    await enrolled(other);
    // Running, the dispatcher writes the answers of a moment together: both in one batch.
    const running = new Dispatcher(contextOf(t));
    running.start();
    try {
      await vi.waitFor(async () => {
        expect((await deliveryOf(fine.integration.id)).status).toBe('delivered');
        expect((await deliveryOf(nul.integration.id)).status).toBe('delivered');
      }, BACKGROUND);
    } finally {
      await running.stop();
    }
    const kept = await deliveryOf(nul.integration.id);
    expect(kept.last_status_code).toBe(200);
    expect(kept.last_response).toMatch(/^took it/);
    const shown = await t.app.inject({
      method: 'GET',
      url: `/v1/integrations/${nul.integration.id}/deliveries`,
      headers: one.headers,
    });
    expect(shown.statusCode).toBe(200);
    // Long after any lease: nothing is sent again.
    t.clock.advance(leaseUntil(t.clock.now(), t.config).getTime() - t.clock.now().getTime() + 1);
    await new Dispatcher(contextOf(t)).runOnce();
    expect(healthy.received).toHaveLength(1);
    expect(odd.received).toHaveLength(1);
  });

  it('records a late attempt only while its claim holds, and never undoes a delivery', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await webhookTo(tenant, `${healthy.url}/late`);
    await enrolled(tenant);
    // A process claims it and stalls past its lease; another claims and delivers it.
    const [stalled] = (await claimDue(contextOf(t), 50)).filter(
      (claim) => claim.integration_id === integration.id,
    );
    t.clock.advance(leaseUntil(t.clock.now(), t.config).getTime() - t.clock.now().getTime() + 1);
    const [second] = (await claimDue(contextOf(t), 50)).filter(
      (claim) => claim.integration_id === integration.id,
    );
    const failure: OutboundAnswer = {
      statusCode: 500,
      body: 'no',
      durationMs: 5,
      headers: {},
      privateAddress: false,
      error: null,
      retryAfter: null,
      aborted: false,
    };
    // The stalled one's failure comes in while the second claim holds: the second keeps its claim.
    await recordAttempts(contextOf(t), [{ delivery: stalled!, answer: failure }]);
    const held = await deliveryOf(integration.id);
    expect(held).toMatchObject({ status: 'pending', attempts: 0, last_status_code: null });
    expect(held.next_attempt_at).toEqual(leaseUntil(t.clock.now(), t.config));
    await recordAttempts(contextOf(t), [
      { delivery: second!, answer: { ...failure, statusCode: 204, body: '' } },
    ]);
    await recordAttempts(contextOf(t), [{ delivery: stalled!, answer: failure }]);
    expect(await deliveryOf(integration.id)).toMatchObject({
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
    });
  });

  it('records each attempt of a batch that cannot be written together on its own', async () => {
    const [one, other] = [await makeTenant(t), await makeTenant(t)];
    const first = await webhookTo(one, `${healthy.url}/first`);
    const second = await webhookTo(other, `${healthy.url}/second`);
    await enrolled(one);
    await enrolled(other);
    const claimed = (await claimDue(contextOf(t), 50)).filter((claim) =>
      [first.integration.id, second.integration.id].includes(claim.integration_id),
    );
    expect(claimed).toHaveLength(2);
    const answer = (body: string): OutboundAnswer => ({
      statusCode: 200,
      body,
      durationMs: 3,
      headers: {},
      privateAddress: false,
      error: null,
      retryAfter: null,
      aborted: false,
    });
    // Text no column takes, written as it came (outbound.ts keeps NUL out; this goes round it).
    await recordAttempts(contextOf(t), [
      { delivery: claimed[0]!, answer: answer('bad\u0000answer') },
      { delivery: claimed[1]!, answer: answer('fine') },
    ]);
    const recorded = await Promise.all(claimed.map((claim) => deliveryOf(claim.integration_id)));
    expect(recorded.map((row) => row.status)).toEqual(['delivered', 'delivered']);
    expect(recorded.map((row) => row.last_response)).toEqual([null, 'fine']);
  });
});
