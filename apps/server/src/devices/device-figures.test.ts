import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeDevice, makeOrganization, makeTenant } from '../../test/factories.ts';
import { BACKGROUND, createTestApp, type TestApp } from '../../test/harness.ts';

/**
 * The fleet's counts are shared between requests for DEVICE_FIGURES_MAX_AGE_MS, and a change
 * heard of (a live event, from this process or another) makes the next read count again.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp({ config: { deviceFiguresMaxAgeMs: 1000 } });
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

async function summaryOf(organizationId: string) {
  const response = await t.app.inject({
    url: `/v1/admin/devices/all?organization_id=${organizationId}&limit=1`,
    headers: admin.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ total: number; summary: { total: number; waiting: number } }>();
}

describe('device figures', () => {
  it('are counted once a second at most, and again as soon as a device changes', async () => {
    const organization = await makeOrganization(t.db);
    const first = await makeDevice(t.db, organization.id, { last_seen_at: t.clock.now() });
    expect((await summaryOf(organization.id)).summary).toMatchObject({ total: 1, waiting: 1 });

    // Written behind the app's back (no event): the stat cards catch up within the second.
    await makeDevice(t.db, organization.id, {});
    expect((await summaryOf(organization.id)).summary.total).toBe(1);
    t.clock.advance(1000);
    expect((await summaryOf(organization.id)).summary.total).toBe(2);

    // Deleted through the console: the next read counts again, and the page agrees with it.
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/admin/devices/${first.id}`,
      headers: admin.headers,
    });
    expect(deleted.statusCode).toBe(200);
    const after = await summaryOf(organization.id);
    expect(after.summary).toMatchObject({ total: 1, waiting: 0 });
    expect(after.total).toBe(1);
  });

  it('are dropped by a change another process tells of', async () => {
    const organization = await makeOrganization(t.db);
    expect((await summaryOf(organization.id)).summary.total).toBe(0);
    const device = await makeDevice(t.db, organization.id, {});
    // What another process publishes arrives through LISTEN on PostgreSQL, at once on PGlite.
    t.app.live.publish({
      type: 'device',
      change: 'enrolled',
      device_id: device.id,
      organization_id: organization.id,
    });
    await vi.waitFor(
      async () => expect((await summaryOf(organization.id)).summary.total).toBe(1),
      BACKGROUND,
    );
  });

  it('are kept through a session’s progress, dropped when one starts or ends', async () => {
    const figures = t.app.deviceFigures;
    const organization = await makeOrganization(t.db);
    const device = await makeDevice(t.db, organization.id, {});
    const counted = figures.groups();
    const session = {
      type: 'session' as const,
      session_id: device.id,
      device_id: device.id,
      organization_id: organization.id,
      status: 'active' as const,
      completed_tasks: 1,
      max_tasks: 3,
    };
    figures.heard({ ...session, change: 'progress' });
    expect(figures.groups()).toBe(counted);
    figures.heard({ ...session, change: 'started' });
    expect(figures.groups()).not.toBe(counted);
    await counted;
  });
});
