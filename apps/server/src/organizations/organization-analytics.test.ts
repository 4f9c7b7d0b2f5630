import { DAY_MS, type LiveEvent } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeOrganization, makeSession, makeTenant } from '../../test/factories.ts';
import { BACKGROUND, createTestApp, type TestApp } from '../../test/harness.ts';

/**
 * An organisation's analytics are shared between requests until its sessions or headsets change
 * (a live event, from this process or another) or ANALYTICS_MAX_AGE_MS passes.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp({ config: { analyticsMaxAgeMs: 10_000 } });
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

async function sessionsOf(organizationId: string) {
  const response = await t.app.inject({
    url: `/v1/admin/organizations/${organizationId}/analytics`,
    headers: admin.headers,
  });
  expect(response.statusCode).toBe(200);
  const analytics = response.json<{ scenario_stats: Array<{ session_count: number }> }>();
  return analytics.scenario_stats.reduce((sum, scenario) => sum + scenario.session_count, 0);
}

const sessionEnded = (organizationId: string): LiveEvent => ({
  type: 'session',
  change: 'ended',
  session_id: organizationId,
  device_id: null,
  organization_id: organizationId,
  status: 'completed',
  completed_tasks: 1,
  max_tasks: 1,
});

/** Resolves once this process hears a live event of the organisation (after the app's listeners). */
const heard = (organizationId: string) =>
  new Promise<void>((resolve) => {
    const stop = t.app.live.subscribe((event) => {
      if (event.organization_id !== organizationId) return;
      stop();
      resolve();
    });
  });

describe('organisation analytics, shared', () => {
  it('are computed again once the organisation’s sessions change, or after their age limit', async () => {
    const organization = await makeOrganization(t.db);
    const other = await makeOrganization(t.db);
    const session = () =>
      makeSession(t.db, {
        organizationId: organization.id,
        startedAt: new Date(t.clock.now().getTime() - DAY_MS),
      });
    await session();
    expect(await sessionsOf(organization.id)).toBe(1);

    // Written behind the app's back: the shared answer stands.
    await session();
    expect(await sessionsOf(organization.id)).toBe(1);
    // Another organisation's change leaves it standing too: once the app has heard it (its
    // listener comes before the test's), the answer is still the shared one.
    const otherHeard = heard(other.id);
    t.app.live.publish(sessionEnded(other.id));
    await otherHeard;
    expect(await sessionsOf(organization.id)).toBe(1);
    // Its own session ending (told by any process) drops it.
    t.app.live.publish(sessionEnded(organization.id));
    await vi.waitFor(async () => expect(await sessionsOf(organization.id)).toBe(2), BACKGROUND);

    await session();
    expect(await sessionsOf(organization.id)).toBe(2);
    t.clock.advance(10_000);
    expect(await sessionsOf(organization.id)).toBe(3);
  });
});
