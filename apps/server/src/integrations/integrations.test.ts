import crypto from 'node:crypto';
import {
  AUDIT_REDACTED,
  type Delivery,
  type DeliveryPage,
  type Integration,
  type IntegrationTestResult,
  type IntegrationWithSecret,
  type SessionFinishedData,
  type WebhookPayload,
} from '@vrtc/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { claimDue, leaseUntil } from './delivery-store.ts';
import { Dispatcher } from './dispatcher.ts';
import { OutboundPolicy, isRefusedUrl, send } from './outbound.ts';
import { checkExpiringLicenses, purgeDeliveries } from './upkeep.ts';
import { recordOutbox } from '../outbox/outbox.ts';
import { sweepNow } from '../../test/sweep.ts';
import { BACKGROUND, contextOf, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeScenarioTree,
  makeStartableSetup,
  makeTenant,
} from '../../test/factories.ts';
import {
  lrs,
  verifySignature,
  webhookReceiver,
  type Lrs,
  type WebhookReceiver,
} from '../../test/receivers.ts';

/**
 * Results out (issue 26, docs/integrations.md): integrations managed over the API, events written
 * with their change, delivered by the dispatcher to real receivers on 127.0.0.1 that check every
 * signature (standardwebhooks) and every statement (xapi-validation). The dispatcher is driven by
 * hand (runOnce) on the test's clock: retries months apart take no time.
 */

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

let t: TestApp;
let receiver: WebhookReceiver;
let dispatcher: Dispatcher;
beforeAll(async () => {
  t = await createTestApp({
    config: { outboundAllowPrivate: ['127.0.0.1'], deliveryTimeoutMs: 2000 },
  });
  receiver = await webhookReceiver();
  dispatcher = new Dispatcher(contextOf(t), undefined, () => 0.5);
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});
// Each test starts with nothing waiting: what an earlier test left pending is not sent into it.
afterEach(async () => {
  await t.db
    .updateTable('deliveries')
    .set({ status: 'abandoned', next_attempt_at: null })
    .where('status', '=', 'pending')
    .execute();
  receiver.reset();
});

type Tenant = Awaited<ReturnType<typeof makeTenant>>;

async function createWebhook(
  tenant: Tenant,
  body: Record<string, unknown> = {},
): Promise<IntegrationWithSecret> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/integrations',
    headers: tenant.headers,
    payload: {
      kind: 'webhook',
      url: `${receiver.url}/hook`,
      events: ['session.started', 'session.finished', 'device.enrolled', 'device.removed'],
      ...body,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<IntegrationWithSecret>();
}

async function deliveriesOf(integrationId: string, query = ''): Promise<Delivery[]> {
  const rows = await t.db
    .selectFrom('deliveries')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .orderBy('created_at')
    .execute();
  void query;
  return rows.map((row) => ({
    ...row,
    created_at: row.created_at.toISOString(),
  })) as unknown as Delivery[];
}

/** One event for `tenant`'s integrations, committed. */
function deviceEnrolled(tenant: Tenant, name = 'Quest 7') {
  return t.db.transaction().execute((trx) =>
    recordOutbox(trx, {
      organizationId: tenant.organization.id,
      type: 'device.enrolled',
      at: t.clock.now(),
      data: {
        device_id: crypto.randomUUID(),
        organization_id: tenant.organization.id,
        name,
        type: 'quest',
        enrolled_at: t.clock.now().toISOString(),
      },
    }),
  );
}

/** Runs the dispatcher until nothing is due now. */
async function drain() {
  while ((await dispatcher.runOnce()) > 0);
}

describe('integrations over the API', () => {
  it('creates a webhook with its secret shown once, and lists and reads it without', async () => {
    const tenant = await makeTenant(t);
    const created = await createWebhook(tenant);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.integration).toMatchObject({
      kind: 'webhook',
      organization_id: tenant.organization.id,
      enabled: true,
      disabled_reason: null,
      include_names: false,
    });
    const read = await t.app.inject({
      method: 'GET',
      url: `/v1/integrations/${created.integration.id}`,
      headers: tenant.headers,
    });
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(created.secret!.slice(6));
    const list = await t.app.inject({
      method: 'GET',
      url: '/v1/integrations',
      headers: tenant.headers,
    });
    expect(list.json<{ integrations: Integration[] }>().integrations.map((i) => i.id)).toEqual([
      created.integration.id,
    ]);
    // The audit event has the secret redacted.
    const audit = await t.db
      .selectFrom('audit_events')
      .select('changes')
      .where('target_id', '=', created.integration.id)
      .executeTakeFirstOrThrow();
    expect(audit.changes.secret).toEqual([null, AUDIT_REDACTED]);
    expect(JSON.stringify(audit.changes)).not.toContain(created.secret!.slice(6));
  });

  it('refuses bad input with a 4xx and a stable code', async () => {
    const tenant = await makeTenant(t);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ kind: 'webhook', url: `${receiver.url}/h` }, 400, 'validation_error'],
      [
        { kind: 'webhook', url: 'ftp://example.org/h', events: ['device.enrolled'] },
        400,
        'validation_error',
      ],
      [{ kind: 'webhook', url: 'not a url', events: ['device.enrolled'] }, 400, 'validation_error'],
      [{ kind: 'webhook', url: `${receiver.url}/h`, events: ['nope'] }, 400, 'validation_error'],
      [{ kind: 'xapi', url: `${receiver.url}/xapi` }, 400, 'validation_error'],
      [{ kind: 'xapi', url: `${receiver.url}/xapi`, key: 'k' }, 400, 'validation_error'],
      [
        { kind: 'webhook', url: `${receiver.url}/h`, events: ['device.enrolled'], key: 'k' },
        400,
        'validation_error',
      ],
      [
        { kind: 'webhook', url: 'http://169.254.169.254/latest', events: ['device.enrolled'] },
        422,
        'outbound_address_refused',
      ],
      [
        { kind: 'webhook', url: 'http://[fd00::1]/h', events: ['device.enrolled'] },
        422,
        'outbound_address_refused',
      ],
    ];
    for (const [payload, status, error] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/integrations',
        headers: tenant.headers,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json().error).toBe(error);
    }
  });

  it("lets admins manage another organisation's integrations, and refuses staff", async () => {
    const tenant = await makeTenant(t);
    const other = await makeTenant(t);
    const admin = await makeTenant(t, { role: 'admin' });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/v1/integrations',
      headers: other.headers,
      payload: {
        kind: 'webhook',
        url: `${receiver.url}/h`,
        events: ['device.enrolled'],
        organization_id: tenant.organization.id,
      },
    });
    expect(refused.statusCode).toBe(404);
    const byAdmin = await t.app.inject({
      method: 'POST',
      url: '/v1/integrations',
      headers: admin.headers,
      payload: {
        kind: 'webhook',
        url: `${receiver.url}/h`,
        events: ['device.enrolled'],
        organization_id: tenant.organization.id,
      },
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    const id = byAdmin.json<IntegrationWithSecret>().integration.id;
    const staffList = await t.app.inject({
      method: 'GET',
      url: `/v1/integrations?organization_id=${tenant.organization.id}`,
      headers: other.headers,
    });
    expect(staffList.statusCode).toBe(404);
    const adminList = await t.app.inject({
      method: 'GET',
      url: `/v1/integrations?organization_id=${tenant.organization.id}`,
      headers: admin.headers,
    });
    expect(adminList.json<{ integrations: Integration[] }>().integrations[0]!.id).toBe(id);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/integrations/${id}`,
      headers: admin.headers,
      payload: { include_names: true },
    });
    expect(patched.json<Integration>().include_names).toBe(true);
    const ownStaff = await t.app.inject({
      method: 'DELETE',
      url: `/v1/integrations/${id}`,
      headers: tenant.headers,
    });
    expect(ownStaff.statusCode).toBe(200);
  });
});

describe('the OpenAPI document', () => {
  it('describes the body of every event', () => {
    const schemas = (
      t.app.swagger() as { components: { schemas: Record<string, { properties: object }> } }
    ).components.schemas;
    for (const name of [
      'SessionStartedEvent',
      'SessionFinishedEvent',
      'DeviceEnrolledEvent',
      'DeviceRemovedEvent',
      'LicenseExpiringEvent',
    ]) {
      expect(Object.keys(schemas[name]?.properties ?? {}), name).toEqual([
        'type',
        'timestamp',
        'data',
      ]);
    }
  });
});

describe('the outbox', () => {
  it('writes nothing when the change rolls back', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    await expect(
      t.db.transaction().execute(async (trx) => {
        const written = await recordOutbox(trx, {
          organizationId: tenant.organization.id,
          type: 'device.enrolled',
          at: t.clock.now(),
          data: {
            device_id: crypto.randomUUID(),
            organization_id: tenant.organization.id,
            name: 'Rolled back',
            type: 'quest',
            enrolled_at: t.clock.now().toISOString(),
          },
        });
        expect(written).toBe(1);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await deliveriesOf(integration.id)).toEqual([]);
    const events = await t.db
      .selectFrom('outbox_events')
      .select('id')
      .where('organization_id', '=', tenant.organization.id)
      .execute();
    expect(events).toEqual([]);
    await drain();
    expect(receiver.received).toEqual([]);
  });

  it('delivers a session started and finished through the API, signed, names only when asked', async () => {
    const tenant = await makeTenant(t);
    const plain = await createWebhook(tenant);
    const named = await createWebhook(tenant, { include_names: true });
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const started = await t.app.inject({
      method: 'POST',
      url: '/v1/sessions/start',
      headers: tenant.headers,
      payload: { device_id: setup.device.id, level_id: setup.level.id, vr_user_name: 'Ann' },
    });
    expect(started.statusCode, started.body).toBe(201);
    const sessionId = started.json<{ id: string }>().id;
    t.clock.advance(90 * SECOND);
    const finished = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${sessionId}/finish`,
      headers: setup.headset.headers,
      payload: { completed_tasks: 0, success: true },
    });
    expect(finished.statusCode, finished.body).toBe(200);
    await drain();

    expect(receiver.received).toHaveLength(4);
    for (const delivery of receiver.received) {
      const secret = delivery.url.length > 0 ? [plain, named] : [];
      const verified = secret
        .map((integration) => {
          try {
            return verifySignature(integration.secret!, delivery);
          } catch {
            return undefined;
          }
        })
        .filter(Boolean);
      expect(verified, 'signed by its integration’s secret').toHaveLength(1);
    }
    const bodies = receiver.received.map((delivery) => JSON.parse(delivery.body) as WebhookPayload);
    const finishedEvents = bodies.filter((body) => body.type === 'session.finished');
    expect(finishedEvents).toHaveLength(2);
    expect(finishedEvents.map((event) => event.data)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          session_id: sessionId,
          status: 'completed',
          success: true,
          duration_seconds: 90,
          vr_user: expect.objectContaining({ name: null }),
        }),
        expect.objectContaining({ vr_user: expect.objectContaining({ name: 'Ann' }) }),
      ]),
    );
    // webhook-id is the event's id: one event, the same id at both integrations.
    const ids = receiver.received
      .filter((delivery) => delivery.body.includes('session.finished'))
      .map((delivery) => delivery.headers['webhook-id']);
    expect(new Set(ids).size).toBe(1);
    const log = await t.app.inject({
      method: 'GET',
      url: `/v1/integrations/${plain.integration.id}/deliveries?status=delivered`,
      headers: tenant.headers,
    });
    expect(
      log
        .json<DeliveryPage>()
        .deliveries.map((d) => d.event_type)
        .sort(),
    ).toEqual(['session.finished', 'session.started']);
  });

  it('tells of a session the server ended, then of its late result', async () => {
    const tenant = await makeTenant(t);
    await createWebhook(tenant, { events: ['session.finished'] });
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const started = await t.app.inject({
      method: 'POST',
      url: '/v1/sessions/start',
      headers: tenant.headers,
      payload: { device_id: setup.device.id, level_id: setup.level.id, vr_user_name: 'Cid' },
    });
    const sessionId = started.json<{ id: string }>().id;
    t.clock.advance(t.config.disconnectAfterMs + SECOND);
    await sweepNow(t);
    const late = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${sessionId}/finish`,
      headers: setup.headset.headers,
      payload: { completed_tasks: 0, success: false },
    });
    expect(late.statusCode, late.body).toBe(200);
    await drain();
    const finished = receiver.received
      .map((delivery) => JSON.parse(delivery.body) as WebhookPayload)
      .filter((body) => body.type === 'session.finished')
      .map((body) => body.data as SessionFinishedData)
      .filter((data) => data.session_id === sessionId);
    expect(
      finished.map((data) => [data.status, data.late_result, data.ended_by_server_as]),
    ).toEqual([
      ['disconnected', false, null],
      ['completed', true, 'disconnected'],
    ]);
  });

  it('tells of a headset enrolled and removed', async () => {
    const tenant = await makeTenant(t);
    const { integration, secret } = await createWebhook(tenant);
    const code = await t.app.inject({
      method: 'POST',
      url: '/v1/devices/enrollment-code',
      headers: tenant.headers,
    });
    expect(code.statusCode, code.body).toBeLessThan(300);
    const enrolled = await t.app.inject({
      method: 'POST',
      url: '/v1/headset/enroll',
      payload: { code: code.json<{ code: string }>().code, name: 'Quest 9', type: 'quest' },
    });
    expect(enrolled.statusCode, enrolled.body).toBeLessThan(300);
    const deviceId = enrolled.json<{ device_id: string }>().device_id;
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/v1/devices/${deviceId}`,
      headers: tenant.headers,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await drain();
    const bodies = receiver.received.map((delivery) => {
      verifySignature(secret!, delivery);
      return JSON.parse(delivery.body) as WebhookPayload;
    });
    expect(
      bodies.map((body) => [body.type, (body.data as { device_id: string }).device_id]),
    ).toEqual([
      ['device.enrolled', deviceId],
      ['device.removed', deviceId],
    ]);
    expect((await deliveriesOf(integration.id)).map((d) => d.status)).toEqual([
      'delivered',
      'delivered',
    ]);
  });
});

describe('the dispatcher', () => {
  it('retries a failure on the schedule with the same webhook-id, then delivers', async () => {
    const tenant = await makeTenant(t);
    const { integration, secret } = await createWebhook(tenant);
    receiver.answer({ status: 500, body: 'x'.repeat(3000) });
    await deviceEnrolled(tenant);
    await drain();
    let [delivery] = await deliveriesOf(integration.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_status_code: 500 });
    expect(delivery!.last_response).toHaveLength(1024);
    // 5 s after the first failure (jitter fixed at its middle by the test's random).
    expect(new Date(delivery!.next_attempt_at!).getTime() - t.clock.now().getTime()).toBe(
      5 * SECOND,
    );
    await drain();
    expect(receiver.received).toHaveLength(1); // not due yet
    t.clock.advance(5 * SECOND);
    await drain();
    expect(receiver.received).toHaveLength(2);
    [delivery] = await deliveriesOf(integration.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, last_status_code: 200 });
    const [first, second] = receiver.received;
    expect(first!.headers['webhook-id']).toBe(second!.headers['webhook-id']);
    expect(second!.headers['webhook-id']).toBe(delivery!.event_id);
    verifySignature(secret!, first!);
    verifySignature(secret!, second!);
  });

  it('honours Retry-After', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    receiver.answer({ status: 503, headers: { 'retry-after': '120' } });
    await deviceEnrolled(tenant);
    await drain();
    const [delivery] = await deliveriesOf(integration.id);
    expect(new Date(delivery!.next_attempt_at!).getTime() - t.clock.now().getTime()).toBe(
      120 * SECOND,
    );
  });

  it('retries a receiver that is down or too slow, and gives up when the schedule runs out', async () => {
    const tenant = await makeTenant(t);
    const down = await webhookReceiver();
    const downUrl = `${down.url}/gone`;
    await down.close();
    const { integration } = await createWebhook(tenant, { url: downUrl });
    await deviceEnrolled(tenant);
    await drain();
    let [delivery] = await deliveriesOf(integration.id);
    expect(delivery).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: null,
      last_error: 'connection_refused',
    });
    // The slow receiver: no answer within DELIVERY_TIMEOUT_MS (2 s here).
    const slowTenant = await makeTenant(t);
    const slow = await createWebhook(slowTenant);
    receiver.answer('hang');
    await deviceEnrolled(slowTenant);
    await drain();
    const [slowDelivery] = await deliveriesOf(slow.integration.id);
    expect(slowDelivery).toMatchObject({ status: 'pending', last_error: 'timeout' });
    // Seven retries after the first attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h.
    for (const seconds of [5, 300, 1800, 7200, 18000, 36000, 86400]) {
      t.clock.advance(seconds * SECOND);
      await drain();
    }
    [delivery] = await deliveriesOf(integration.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
  });

  it('disables an integration whose receiver answers 410, abandoning what waits', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    receiver.answer({ status: 410, body: 'gone' });
    await deviceEnrolled(tenant, 'first');
    await drain();
    const row = await t.db
      .selectFrom('integrations')
      .selectAll()
      .where('id', '=', integration.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: false, disabled_reason: 'gone' });
    // A later event of the organisation is not even written for it.
    await deviceEnrolled(tenant, 'second');
    expect((await deliveriesOf(integration.id)).map((d) => d.status)).toEqual(['failed']);
    const audit = await t.db
      .selectFrom('audit_events')
      .select(['action', 'actor_type'])
      .where('target_id', '=', integration.id)
      .where('action', '=', 'integration.disabled')
      .executeTakeFirstOrThrow();
    expect(audit.actor_type).toBe('system');
    // Re-enabled by hand, the reason goes.
    const enabled = await t.app.inject({
      method: 'PATCH',
      url: `/v1/integrations/${integration.id}`,
      headers: tenant.headers,
      payload: { enabled: true },
    });
    expect(enabled.json<Integration>()).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('disables an integration after three days of failures', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    const failing = () => receiver.answer(...Array.from({ length: 20 }, () => ({ status: 500 })));
    failing();
    await deviceEnrolled(tenant);
    await drain();
    for (let day = 0; day < 3; day++) {
      t.clock.advance(DAY);
      await deviceEnrolled(tenant);
      await drain();
    }
    const row = await t.db
      .selectFrom('integrations')
      .selectAll()
      .where('id', '=', integration.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: false, disabled_reason: 'failing' });
    const statuses = (await deliveriesOf(integration.id)).map((d) => d.status);
    expect(statuses).not.toContain('pending');
  });

  it('sends both signatures for 24 hours after a rotation', async () => {
    const tenant = await makeTenant(t);
    const { integration, secret: oldSecret } = await createWebhook(tenant);
    const rotated = await t.app.inject({
      method: 'POST',
      url: `/v1/integrations/${integration.id}/rotate-secret`,
      headers: tenant.headers,
    });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { secret: newSecret } = rotated.json<IntegrationWithSecret>();
    expect(newSecret).not.toBe(oldSecret);
    await deviceEnrolled(tenant);
    await drain();
    const [during] = receiver.received;
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verifySignature(oldSecret!, during!);
    verifySignature(newSecret!, during!);
    t.clock.advance(24 * HOUR + SECOND);
    await deviceEnrolled(tenant);
    await drain();
    const after = receiver.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    verifySignature(newSecret!, after);
    expect(() => verifySignature(oldSecret!, after)).toThrow();
  });

  it('delivers after a restart what was committed before it, and what a dead process had claimed', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    await deviceEnrolled(tenant, 'before the restart');
    // A process claimed it and died before recording the attempt: its lease runs out.
    const claimed = await claimDue(contextOf(t), 50);
    expect(claimed.map((row) => row.integration_id)).toContain(integration.id);
    const restarted = new Dispatcher(contextOf(t), undefined, () => 0.5);
    expect(await restarted.runOnce()).toBe(0);
    t.clock.set(new Date(leaseUntil(t.clock.now(), t.config).getTime() + SECOND));
    expect(await restarted.runOnce()).toBeGreaterThan(0);
    expect((await deliveriesOf(integration.id)).map((d) => d.status)).toEqual(['delivered']);
    expect(receiver.received).toHaveLength(1);
  });

  it('delivers each event once per integration when three dispatchers claim at once', async () => {
    const tenant = await makeTenant(t);
    const first = await createWebhook(tenant, { url: `${receiver.url}/one` });
    const second = await createWebhook(tenant, { url: `${receiver.url}/two` });
    for (let i = 0; i < 60; i++) await deviceEnrolled(tenant, `headset ${i}`);
    // Three processes' dispatchers on one database (PostgreSQL: each claim on its own connection).
    const nodes = [0, 1, 2].map(() => new Dispatcher(contextOf(t), undefined, () => 0.5));
    await Promise.all(
      nodes.map(async (node) => {
        while ((await node.runOnce()) > 0);
      }),
    );
    const seen = receiver.received.map((d) => `${d.url} ${String(d.headers['webhook-id'])}`);
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    for (const { integration } of [first, second]) {
      const statuses = (await deliveriesOf(integration.id)).map((d) => d.status);
      expect(statuses).toEqual(Array.from({ length: 60 }, () => 'delivered'));
    }
  });

  it('runs by itself once started, woken by the outbox, and stops cleanly', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    const running = new Dispatcher({
      ...contextOf(t),
      config: { ...t.config, deliveryPollMs: 20 },
    });
    running.start();
    await deviceEnrolled(tenant);
    running.wake();
    await vi.waitFor(() => expect(receiver.received).toHaveLength(1), BACKGROUND);
    // Recorded by the loop itself (answers gather up to RECORD_GATHER_MS), not by stop(): a send
    // still in flight when it stops is aborted and due again.
    await vi.waitFor(async () => {
      expect((await deliveriesOf(integration.id)).map((d) => d.status)).toEqual(['delivered']);
    }, BACKGROUND);
    await running.stop();
    expect((await deliveriesOf(integration.id)).map((d) => d.status)).toEqual(['delivered']);
    expect(receiver.received).toHaveLength(1);
  });

  it('refuses private addresses unless OUTBOUND_ALLOW_PRIVATE lists them', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    await deviceEnrolled(tenant);
    const strict = new Dispatcher({
      ...contextOf(t),
      config: { ...t.config, outboundAllowPrivate: [] },
    });
    await strict.runOnce();
    const [delivery] = await deliveriesOf(integration.id);
    expect(delivery).toMatchObject({ status: 'pending', last_error: 'address_refused' });
    expect(receiver.received).toEqual([]);

    const policy = new OutboundPolicy([]);
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fd00:ec2::254',
      'fe80::1',
      '::ffff:127.0.0.1',
    ]) {
      expect(policy.permits('example.org', address), address).toBe(false);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) {
      expect(policy.permits('example.org', address), address).toBe(true);
    }
    // A name is checked on the address it resolves to, where the connection is made.
    const byName = `http://localhost:${receiver.port}/hook`;
    const refusedByName = await send(new OutboundPolicy([]), {
      method: 'POST',
      url: byName,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    });
    expect(refusedByName).toMatchObject({ statusCode: null, error: 'address_refused' });
    expect(receiver.received).toEqual([]);
    const allowedByAddress = await send(new OutboundPolicy(['127.0.0.1']), {
      method: 'POST',
      url: byName,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    });
    expect(allowedByAddress).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    const allowedAtCreation = await t.app.inject({
      method: 'POST',
      url: '/v1/integrations',
      headers: tenant.headers,
      payload: { kind: 'webhook', url: 'http://localhost:9/h', events: ['device.enrolled'] },
    });
    // Allowed here: localhost resolves to 127.0.0.1, which the test's OUTBOUND_ALLOW_PRIVATE lists.
    expect(allowedAtCreation.statusCode).toBe(201);

    const allowing = new OutboundPolicy(['10.0.0.0/8', 'hooks.internal', '::1']);
    expect(allowing.permits('x', '10.9.9.9')).toBe(true);
    expect(allowing.permits('hooks.internal', '192.168.0.5')).toBe(true);
    expect(allowing.permits('x', '::1')).toBe(true);
    expect(allowing.permits('x', '192.168.0.5')).toBe(false);
    expect(await isRefusedUrl(new OutboundPolicy([]), 'http://localhost:9/h')).toBe(true);
    expect(await isRefusedUrl(new OutboundPolicy(['localhost']), 'http://localhost:9/h')).toBe(
      false,
    );
  });
});

describe('the delivery log and the test send', () => {
  it('pages by cursor with filters, and redelivers one event with its id', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    for (let i = 0; i < 3; i++) await deviceEnrolled(tenant, `headset ${i}`);
    await drain();
    const base = `/v1/integrations/${integration.id}/deliveries`;
    const first = await t.app.inject({
      method: 'GET',
      url: `${base}?limit=2`,
      headers: tenant.headers,
    });
    const page1 = first.json<DeliveryPage>();
    expect(page1.deliveries).toHaveLength(2);
    expect(page1.next_cursor).not.toBeNull();
    const second = await t.app.inject({
      method: 'GET',
      url: `${base}?limit=2&cursor=${page1.next_cursor}`,
      headers: tenant.headers,
    });
    const page2 = second.json<DeliveryPage>();
    expect(page2.deliveries).toHaveLength(1);
    expect(page2.next_cursor).toBeNull();
    const filtered = await t.app.inject({
      method: 'GET',
      url: `${base}?event=session.finished`,
      headers: tenant.headers,
    });
    expect(filtered.json<DeliveryPage>().deliveries).toEqual([]);
    const badCursor = await t.app.inject({
      method: 'GET',
      url: `${base}?cursor=nonsense`,
      headers: tenant.headers,
    });
    expect(badCursor.statusCode).toBe(400);

    const target = page2.deliveries[0]!;
    receiver.received.length = 0;
    const again = await t.app.inject({
      method: 'POST',
      url: `${base}/${target.id}/redeliver`,
      headers: tenant.headers,
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<Delivery>()).toMatchObject({ status: 'pending', attempts: 1 });
    await drain();
    expect(receiver.received.map((d) => d.headers['webhook-id'])).toEqual([target.event_id]);
    const unknown = await t.app.inject({
      method: 'POST',
      url: `${base}/${crypto.randomUUID()}/redeliver`,
      headers: tenant.headers,
    });
    expect(unknown.statusCode).toBe(404);
    await t.app.inject({
      method: 'PATCH',
      url: `/v1/integrations/${integration.id}`,
      headers: tenant.headers,
      payload: { enabled: false },
    });
    const disabled = await t.app.inject({
      method: 'POST',
      url: `${base}/${target.id}/redeliver`,
      headers: tenant.headers,
    });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().error).toBe('integration_disabled');
  });

  it("answers a test send with the receiver's status and headers, no body from a private address", async () => {
    const tenant = await makeTenant(t);
    const { integration, secret } = await createWebhook(tenant);
    receiver.answer({ status: 202, body: 'thanks', headers: { 'x-receiver': 'checked' } });
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/integrations/${integration.id}/test`,
      headers: tenant.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<IntegrationTestResult>()).toMatchObject({
      ok: true,
      status_code: 202,
      response_headers: { 'x-receiver': 'checked' },
      // 127.0.0.1, reached because OUTBOUND_ALLOW_PRIVATE lists it: an internal page is not shown.
      response_body: null,
      error: null,
    });
    const sent = receiver.received[0]!;
    expect(verifySignature(secret!, sent)).toMatchObject({ type: 'integration.test' });
    expect(await deliveriesOf(integration.id)).toEqual([]);
  });
});

describe('license.expiring and retention', () => {
  it('tells once, 7 days before a licence ends', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant, { events: ['license.expiring'] });
    const tree = await makeScenarioTree(t.db);
    const endsAt = new Date(t.clock.now().getTime() + 8 * DAY);
    await grantAccess(t.db, tree.scenario.id, tenant.organization.id, endsAt, t.clock.now());
    expect(await checkExpiringLicenses(contextOf(t))).toBe(0);
    t.clock.advance(DAY + HOUR);
    expect(await checkExpiringLicenses(contextOf(t))).toBeGreaterThan(0);
    expect(await checkExpiringLicenses(contextOf(t))).toBe(0);
    await drain();
    const bodies = receiver.received
      .map((delivery) => JSON.parse(delivery.body) as WebhookPayload)
      .filter((body) => body.type === 'license.expiring');
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.data).toMatchObject({
      organization_id: tenant.organization.id,
      scenario: { id: tree.scenario.id },
      expires_at: endsAt.toISOString(),
    });
    expect((await deliveriesOf(integration.id)).map((d) => d.status)).toEqual(['delivered']);
  });

  it('deletes deliveries and events after 30 days', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await createWebhook(tenant);
    await deviceEnrolled(tenant);
    await drain();
    t.clock.advance(31 * DAY);
    expect(await purgeDeliveries(contextOf(t))).toBeGreaterThan(0);
    expect(await deliveriesOf(integration.id)).toEqual([]);
  });
});

describe('xAPI', () => {
  let store: Lrs;
  beforeAll(async () => {
    store = await lrs('lrs-key', 'lrs-secret');
  });
  afterAll(() => store.close());

  it('posts valid statements of a finished session, idempotently', async () => {
    const tenant = await makeTenant(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/integrations',
      headers: tenant.headers,
      payload: { kind: 'xapi', url: `${store.url}/xapi`, key: 'lrs-key', secret: 'lrs-secret' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { integration, secret } = created.json<IntegrationWithSecret>();
    expect(secret).toBeNull();
    expect(integration).toMatchObject({
      kind: 'xapi',
      events: ['session.finished'],
      xapi_key: 'lrs-key',
    });
    expect(created.body).not.toContain('lrs-secret');

    const start = async (name: string) => {
      const setup = await makeStartableSetup(t, tenant.organization.id);
      const started = await t.app.inject({
        method: 'POST',
        url: '/v1/sessions/start',
        headers: tenant.headers,
        payload: { device_id: setup.device.id, level_id: setup.level.id, vr_user_name: name },
      });
      expect(started.statusCode, started.body).toBe(201);
      return { ...started.json<{ id: string; vr_user_id: string }>(), setup };
    };
    const passed = await start('Ann');
    const { setup } = passed;
    t.clock.advance(125 * SECOND);
    const finished = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${passed.id}/finish`,
      headers: setup.headset.headers,
      payload: { completed_tasks: 0, success: true },
    });
    expect(finished.statusCode, finished.body).toBe(200);
    const cancelled = await start('Bob');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${cancelled.id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    await drain();

    expect(store.problems).toEqual([]);
    interface Activity {
      id: string;
      definition: { name: Record<string, string> };
    }
    interface Statement {
      actor: unknown;
      verb: { id: string };
      object: Activity;
      result: unknown;
      context: {
        registration: string;
        platform: string;
        contextActivities: { parent: Activity[]; grouping: Activity[] };
      };
    }
    const statements = [...store.statements.values()] as unknown as Statement[];
    const verbs = statements.map((s) => [s.context.registration, s.verb.id.split('/').at(-1)]);
    expect(verbs).toEqual([
      [passed.id, 'completed'],
      [passed.id, 'passed'],
      [cancelled.id, 'terminated'],
    ]);
    const completed = statements[0]!;
    expect(completed.actor).toEqual({
      objectType: 'Agent',
      account: { homePage: expect.any(String), name: passed.vr_user_id },
    });
    expect(completed.result).toMatchObject({ success: true, completion: true, duration: 'PT2M5S' });
    expect(completed.object.definition.name).toEqual({
      'ru-RU': setup.level.name,
      'en-US': expect.any(String),
    });
    expect(completed.context.contextActivities.parent[0]!.id).toContain(setup.module.id);
    expect(completed.context.contextActivities.grouping[0]!.id).toContain(setup.scenario.id);
    expect(completed.context.platform).toContain(setup.device.name);

    // A retry posts the same ids: the store answers 409 and the delivery counts as delivered.
    const [delivery] = await t.db
      .selectFrom('deliveries')
      .select('id')
      .where('integration_id', '=', integration.id)
      .execute();
    const again = await t.app.inject({
      method: 'POST',
      url: `/v1/integrations/${integration.id}/deliveries/${delivery!.id}/redeliver`,
      headers: tenant.headers,
    });
    expect(again.statusCode).toBe(200);
    await drain();
    expect(store.statements.size).toBe(3);
    const row = await t.db
      .selectFrom('deliveries')
      .selectAll()
      .where('id', '=', delivery!.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'delivered', last_status_code: 409 });

    const tested = await t.app.inject({
      method: 'POST',
      url: `/v1/integrations/${integration.id}/test`,
      headers: tenant.headers,
    });
    expect(tested.json<IntegrationTestResult>()).toMatchObject({ ok: true, status_code: 200 });
  });
});
