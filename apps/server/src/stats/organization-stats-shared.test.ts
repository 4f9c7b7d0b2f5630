import type { LiveEvent } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeSession, makeTenant } from '../../test/factories.ts';
import { BACKGROUND, createTestApp, type TestApp } from '../../test/harness.ts';

/**
 * An organisation's statistics are shared between its staff's requests until its sessions or
 * headsets change (a live event, from this process or another) or ANALYTICS_MAX_AGE_MS passes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { analyticsMaxAgeMs: 10_000 } });
});
afterAll(() => t.close());

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

describe('organisation statistics, shared', () => {
  it('are counted again once the organisation’s sessions change, or after their age limit', async () => {
    const staff = await makeTenant(t);
    const other = await makeTenant(t);
    const total = async () => {
      const response = await t.app.inject({ url: '/v1/stats', headers: staff.headers });
      expect(response.statusCode).toBe(200);
      return response.json<{ total_sessions: number }>().total_sessions;
    };
    const session = () =>
      makeSession(t.db, { organizationId: staff.organization.id, startedAt: t.clock.now() });
    await session();
    expect(await total()).toBe(1);
    // Written behind the app's back, or another organisation's change: the shared answer stands.
    await session();
    t.app.live.publish(sessionEnded(other.organization.id));
    expect(await total()).toBe(1);
    // Its own session ending drops it.
    t.app.live.publish(sessionEnded(staff.organization.id));
    await vi.waitFor(async () => expect(await total()).toBe(2), BACKGROUND);
    await session();
    expect(await total()).toBe(2);
    t.clock.advance(10_000);
    expect(await total()).toBe(3);
  });
});
