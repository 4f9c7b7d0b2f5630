import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../auth/auth.service.ts';
import { bearer, contextOf, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeScenarioTree,
  makeSession,
  makeTenant,
  makeVrUser,
} from '../../test/factories.ts';
import { checkQualificationNotices } from './notices.ts';

/** qualification.earned / .expiring / .expired / .revoked reach the outbox once per award and state. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;

describe('qualification events', () => {
  it('are written once per award and state, however many processes check at once', async () => {
    const staff = await makeTenant(t);
    await t.db
      .insertInto('integrations')
      .values({
        organization_id: staff.organization.id,
        kind: 'webhook',
        url: 'https://hooks.example.org/q',
        events: [
          'qualification.earned',
          'qualification.expiring',
          'qualification.expired',
          'qualification.revoked',
        ],
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        created_at: t.clock.now(),
        updated_at: t.clock.now(),
      })
      .execute();
    const tree = await makeScenarioTree(t.db);
    await grantAccess(t.db, tree.scenario.id, staff.organization.id, null, t.clock.now());
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/qualifications',
      headers: staff.headers,
      payload: {
        name: 'Forklift',
        level_ids: [tree.level.id],
        validity_days: 10,
        expiring_within_days: 5,
      },
    });
    const qualification = created.json<{ id: string }>();
    const trainee = await makeVrUser(t.db, staff.organization.id, { name: 'Ivan' });
    await t.app.inject({
      method: 'POST',
      url: `/v1/qualifications/${qualification.id}/assignments`,
      headers: staff.headers,
      payload: { vr_user_ids: [trainee.id] },
    });
    await makeSession(t.db, {
      organizationId: staff.organization.id,
      vrUserId: trainee.id,
      levelId: tree.level.id,
      status: 'completed',
      startedAt: new Date(t.clock.now().getTime() - 600_000),
    });
    const ctx = contextOf(t);
    const twoNodes = () =>
      Promise.all([checkQualificationNotices(ctx), checkQualificationNotices(ctx)]);
    const sent = async () => {
      const rows = await t.db
        .selectFrom('outbox_events')
        .select(['type', 'payload'])
        .where('organization_id', '=', staff.organization.id)
        .orderBy('created_at')
        .execute();
      return rows;
    };

    await twoNodes();
    await twoNodes();
    expect((await sent()).map((row) => row.type)).toEqual(['qualification.earned']);
    expect((await sent())[0]!.payload).toMatchObject({
      data: {
        vr_user: { id: trainee.id, name: 'Ivan' },
        qualification: { id: qualification.id, name: 'Forklift' },
        status: 'qualified',
      },
    });

    t.clock.advance(6 * DAY);
    await twoNodes();
    t.clock.advance(1 * DAY);
    await twoNodes();
    expect((await sent()).map((row) => row.type)).toEqual([
      'qualification.earned',
      'qualification.expiring',
    ]);
    t.clock.advance(4 * DAY);
    await twoNodes();
    await twoNodes();
    expect((await sent()).map((row) => row.type)).toEqual([
      'qualification.earned',
      'qualification.expiring',
      'qualification.expired',
    ]);

    // Eleven days on, the first sign-in has ended.
    const { token } = await issueToken(t, staff.account.id);
    const revoked = await t.app.inject({
      method: 'POST',
      url: `/v1/vr-users/${trainee.id}/qualifications/${qualification.id}/revoke`,
      headers: bearer(token),
      payload: { reason: 'Incident' },
    });
    expect(revoked.statusCode).toBe(201);
    await twoNodes();
    const types = (await sent()).map((row) => row.type);
    expect(types).toEqual([
      'qualification.earned',
      'qualification.expiring',
      'qualification.expired',
      'qualification.revoked',
    ]);
    expect((await sent())[3]!.payload).toMatchObject({ data: { reason: 'Incident' } });
  });
});
