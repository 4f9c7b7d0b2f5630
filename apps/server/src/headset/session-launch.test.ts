import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEnrolledDevice, makeTenant, makeTenantInSession } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';

/**
 * What a headset's app needs from the heartbeat to pick its scene and to know why a session
 * went away (docs/headset-protocol.md, heartbeat).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function heartbeat(headers: Record<string, string>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/headset/heartbeat',
    headers,
    payload: {},
  });
  expect(response.statusCode).toBe(200);
  return response.json<{
    movement_type: string;
    session: Record<string, unknown> | null;
    ended_session: { id: string; status: string } | null;
  }>();
}

describe('the session a heartbeat launches', () => {
  it('names the scenario, module and level by id, the level revision and the movement type', async () => {
    const { headset, session } = await makeTenantInSession(t);
    await t.db
      .updateTable('devices')
      .set({ movement_type: 'teleport' })
      .where('id', '=', headset.device.id)
      .execute();
    await t.db
      .updateTable('sessions')
      .set({ level_revision: 7 })
      .where('id', '=', session.id)
      .execute();
    const launched = (await heartbeat(headset.headers)).session;
    expect(launched).toMatchObject({
      id: session.id,
      scenario_id: session.scenario_id,
      module_id: session.module_id,
      level_id: session.level_id,
      level_revision: 7,
      movement_type: 'teleport',
    });
  });
});

describe('why a session ended, in the heartbeat', () => {
  it('is null for a headset that never had a session', async () => {
    const { organization } = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, organization.id);
    expect((await heartbeat(headset.headers)).ended_session).toBeNull();
  });

  it('says "cancelled" once staff cancel the session in the console', async () => {
    const { headset, session, tenant } = await makeTenantInSession(t);
    expect((await heartbeat(headset.headers)).ended_session).toBeNull();
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${session.id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancel.statusCode).toBe(200);
    const answer = await heartbeat(headset.headers);
    expect(answer.session).toBeNull();
    expect(answer.ended_session).toEqual({ id: session.id, status: 'cancelled' });
  });

  it('says "completed" after the headset finished it', async () => {
    const { headset, session } = await makeTenantInSession(t, { maxTasks: 2 });
    const finish = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${session.id}/finish`,
      headers: headset.headers,
      payload: { completed_tasks: 2, success: true },
    });
    expect(finish.statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).ended_session).toEqual({
      id: session.id,
      status: 'completed',
    });
  });
});
