import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeOrganization,
  makeScenarioTree,
  makeTenant,
} from '../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const DAY = 24 * 3600 * 1000;

describe('GET /v1/scenarios-full', () => {
  it('returns only active scenarios with a live grant for the caller’s organisation, nested in order', async () => {
    const { headers, organization } = await makeTenant(t);
    const now = t.clock.now();
    const later = new Date(now.getTime() + 2 * DAY);

    const forever = await makeScenarioTree(t.db, {
      scenarioName: 'A forever',
      optionNames: ['Night', 'Rain'],
    });
    const until = await makeScenarioTree(t.db, { scenarioName: 'B until later', optionNames: [] });
    const expired = await makeScenarioTree(t.db, { scenarioName: 'C expired' });
    const inactive = await makeScenarioTree(t.db, { scenarioName: 'D inactive' });
    const otherOrgs = await makeScenarioTree(t.db, { scenarioName: 'E other org' });
    await makeScenarioTree(t.db, { scenarioName: 'F no grant' });

    await grantAccess(t.db, forever.scenario.id, organization.id, null);
    await grantAccess(t.db, until.scenario.id, organization.id, later);
    await grantAccess(t.db, expired.scenario.id, organization.id, new Date(now.getTime() - 1000));
    await grantAccess(t.db, inactive.scenario.id, organization.id, null);
    await t.db
      .updateTable('scenarios')
      .set({ active: false })
      .where('id', '=', inactive.scenario.id)
      .execute();
    const stranger = await makeOrganization(t.db);
    await grantAccess(t.db, otherOrgs.scenario.id, stranger.id, null);

    // A second module (listed first by order_index) and a second level (listed first by number).
    const early = await t.db
      .insertInto('modules')
      .values({ scenario_id: forever.scenario.id, name: 'Intro', order_index: 0 })
      .returningAll()
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('modules')
      .set({ order_index: 3 })
      .where('id', '=', forever.module.id)
      .execute();
    await t.db
      .updateTable('levels')
      .set({ level_number: 2 })
      .where('id', '=', forever.level.id)
      .execute();
    await t.db
      .insertInto('levels')
      .values({ module_id: forever.module.id, name: 'Warm-up', level_number: 1, max_tasks: 5 })
      .execute();

    await t.db
      .updateTable('level_options')
      .set({ name_en: 'Night (English)', description_en: 'After dark' })
      .where('id', '=', forever.options[0]!.id)
      .execute();

    const response = await t.app.inject({ url: '/v1/scenarios-full', headers });
    expect(response.statusCode).toBe(200);
    const { scenarios } = response.json();
    expect(scenarios.map((s: { name: string }) => s.name)).toEqual(['A forever', 'B until later']);
    expect(scenarios[1]).toEqual({
      id: until.scenario.id,
      name: 'B until later',
      description: 'About it',
      name_en: null,
      description_en: null,
      active: true,
      access_expires_at: later.toISOString(),
      modules: [
        {
          id: until.module.id,
          name: 'Module 1',
          description: '',
          name_en: null,
          description_en: null,
          order_index: 0,
          levels: [
            {
              id: until.level.id,
              name: 'Level 1',
              level_number: 1,
              description: '',
              name_en: null,
              description_en: null,
              max_tasks: 3,
              options: [],
            },
          ],
        },
      ],
    });
    const a = scenarios[0];
    expect(a.access_expires_at).toBeNull();
    expect(a.modules.map((m: { id: string }) => m.id)).toEqual([early.id, forever.module.id]);
    expect(a.modules[0].levels).toEqual([]);
    expect(a.modules[1].levels.map((l: { name: string }) => l.name)).toEqual([
      'Warm-up',
      'Level 1',
    ]);
    expect(a.modules[1].levels[1].options).toEqual([
      {
        id: forever.options[0]!.id,
        name: 'Night',
        description: '',
        name_en: 'Night (English)',
        description_en: 'After dark',
        order_index: 0,
      },
      {
        id: forever.options[1]!.id,
        name: 'Rain',
        description: '',
        name_en: null,
        description_en: null,
        order_index: 1,
      },
    ]);

    // Once the clock passes the expiry, the time-limited grant stops counting.
    t.clock.advance(2 * DAY); // exactly the expiry: no longer live
    const after = await t.app.inject({ url: '/v1/scenarios-full', headers });
    expect(after.json().scenarios.map((s: { name: string }) => s.name)).toEqual(['A forever']);
  });

  it('is empty for an organisation without grants, and needs a token', async () => {
    const { headers } = await makeTenant(t);
    const response = await t.app.inject({ url: '/v1/scenarios-full', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ scenarios: [] });
    const anonymous = await t.app.inject({ url: '/v1/scenarios-full' });
    expect(anonymous.statusCode).toBe(401);
  });
});
