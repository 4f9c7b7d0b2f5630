import type { AuditEvent, AuditEventPage } from '@vrtc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUDITED_REFUSALS_PER_ACCOUNT } from '../src/audit/refusals.ts';
import { BACKGROUND, createTestApp, type TestApp } from './harness.ts';
import { makeAccount, makeTenant, TEST_PASSWORD } from './factories.ts';

/**
 * Strangers cannot write the audit log: a request refused to a caller not signed in is counted
 * (metrics, per route and per address and minute), never chained; a known account's refusals
 * and failed sign-ins are recorded up to a budget per account; what an event keeps of the request
 * is capped in size.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

const eventCount = async () => {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_events`.execute(
    t.db,
  );
  return rows[0]!.n;
};

async function eventsOf(action: string, filter = ''): Promise<AuditEvent[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/audit-events?action=${action}&limit=500${filter}`,
    headers: admin.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventPage>().audit_events;
}

/** The value of one metric's line (labels as Prometheus prints them), 0 when absent. */
async function metric(name: string, labels = ''): Promise<number> {
  const text = await t.app.metrics.text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

describe('refusals of strangers', () => {
  it('are counted per route, and per address and minute, and add no audit event', async () => {
    const before = await eventCount();
    const counted = () =>
      metric('vrtc_unauthenticated_refusals_total', '{route="/v1/vr-users",status_code="401"}');
    const countedBefore = await counted();
    const longPath = `/v1/vr-users?${'x'.repeat(15_000)}`;
    for (let i = 0; i < 200; i += 1) {
      const response = await t.app.inject({
        method: 'GET',
        url: i === 0 ? longPath : '/v1/vr-users',
        remoteAddress: i % 2 ? '203.0.113.5' : `2001:db8:7:7::${i}`,
      });
      expect(response.statusCode).toBe(401);
    }
    expect(await counted()).toBe(countedBefore + 200);
    // The minute closes: two parties (one IPv4 address, one IPv6 /64), the busiest with 100.
    t.clock.advance(60_000);
    await t.app.inject({ method: 'GET', url: '/v1/vr-users', remoteAddress: '198.51.100.1' });
    expect(await metric('vrtc_unauthenticated_refusal_addresses')).toBe(2);
    expect(await metric('vrtc_unauthenticated_refusals_busiest_address')).toBe(100);
    expect(await eventCount()).toBe(before);
  });

  it('failed sign-ins to unknown emails add no audit event', async () => {
    const before = await eventCount();
    for (let i = 0; i < 20; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        remoteAddress: `198.51.100.${i + 10}`,
        payload: { email: `nobody-${i}@example.com`, password: 'whatever-1' },
      });
      expect(response.statusCode).toBe(401);
    }
    expect(await eventCount()).toBe(before);
  });
});

describe('refusals of known accounts', () => {
  it('are recorded up to the budget per account, the path capped, then counted', async () => {
    const staff = await makeTenant(t);
    const notRecorded = () => metric('vrtc_audit_refusals_not_recorded_total');
    const skippedBefore = await notRecorded();
    const refusals = AUDITED_REFUSALS_PER_ACCOUNT + 5;
    for (let i = 0; i < refusals; i += 1) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/v1/admin/organizations/${'a'.repeat(2000)}`,
        headers: staff.headers,
      });
      expect(response.statusCode).toBe(403);
    }
    const events = await vi.waitFor(async () => {
      const found = await eventsOf('auth.access_denied', `&actor_id=${staff.account.id}`);
      expect(found).toHaveLength(AUDITED_REFUSALS_PER_ACCOUNT);
      return found;
    }, BACKGROUND);
    expect(events[0]!.target.label).toHaveLength(512);
    await vi.waitFor(async () => expect(await notRecorded()).toBe(skippedBefore + 5), BACKGROUND);
  });

  it('failed sign-ins are recorded up to the budget per account, never with the password', async () => {
    const account = await makeAccount(t.db);
    const tries = AUDITED_REFUSALS_PER_ACCOUNT + 10;
    for (let i = 0; i < tries; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        // Five from each address: under the sign-in's limit per address and account.
        remoteAddress: `192.0.2.${Math.floor(i / 5) + 1}`,
        payload: { email: account.email, password: `wrong-password-${i}` },
      });
      expect(response.statusCode, response.body).toBe(401);
    }
    const events = await eventsOf('auth.login_failed', `&target_id=${account.id}`);
    expect(events).toHaveLength(AUDITED_REFUSALS_PER_ACCOUNT);
    expect(JSON.stringify(events)).not.toContain('wrong-password');
  });
});

describe('the request id an event keeps', () => {
  it('is the server’s own, never the X-Request-Id a client sent', async () => {
    const account = await makeAccount(t.db);
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers: { 'x-request-id': 'chosen-by-the-client' },
      payload: { email: account.email, password: TEST_PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    const [event] = await eventsOf('auth.login', `&target_id=${account.id}`);
    expect(event!.request_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
    expect(JSON.stringify(event)).not.toContain('chosen-by-the-client');
  });
});
