import type { GlobalStats, OrganizationList, StatsRange, VrUserList } from '@vrtc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  averageCompletionSql,
  averageDurationSql,
  groupKeySql,
  groupedNameSql,
  groupedOptionalNameSql,
  successRateSql,
} from '../src/stats/stats-sql.ts';
import { countSql, countWhereSql } from '../src/platform/database/counts.ts';
import {
  makeDevice,
  makeOrganization,
  makeScenarioTree,
  makeSession,
  makeTenant,
  makeVrUser,
} from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { DAY_MS } from '@vrtc/contract';

/**
 * The statistics are read from rollups kept by triggers on sessions (migration 0004). Whatever
 * writes sessions (the API, single inserts, a plain-SQL bulk import, updates and deletes by hand,
 * a scenario deleted under them), every figure must equal the aggregate computed directly over the
 * sessions table, here with the same SQL expressions the figures are defined by (stats-sql.ts).
 */

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

const get = async <T>(url: string, headers = admin.headers) => {
  const response = await t.app.inject({ url, headers });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
};

const isoDay = (at: Date) => at.toISOString().slice(0, 10);

/** Figures over sessions started in [from, to) (or all), straight from the sessions table. */
async function directFigures(from?: Date, to?: Date) {
  const inRange = (query: ReturnType<typeof sessions>) => {
    let q = query;
    if (from) q = q.where('s.started_at', '>=', from);
    if (to) q = q.where('s.started_at', '<', to);
    return q;
  };
  const sessions = () => t.db.selectFrom('sessions as s');
  const totals = await inRange(sessions())
    .select([
      countSql().as('total_sessions'),
      countWhereSql(sql`s.status = 'active'`).as('active_sessions'),
      countWhereSql(sql`s.status = 'completed'`).as('completed_sessions'),
      countWhereSql(sql`s.status = 'cancelled'`).as('cancelled_sessions'),
      countWhereSql(sql`s.status = 'disconnected'`).as('disconnected_sessions'),
      countWhereSql(sql`s.status = 'timeout'`).as('timeout_sessions'),
      averageDurationSql('s').as('average_duration_seconds'),
      successRateSql('s').as('success_rate'),
      averageCompletionSql('s').as('average_completion'),
    ])
    .executeTakeFirstOrThrow();
  const scenarios = await inRange(sessions())
    .leftJoin('scenarios as sc', 'sc.id', 's.scenario_id')
    .select([
      groupedNameSql('sc.name', 's.scenario_name').as('scenario_name'),
      groupedOptionalNameSql('sc.id', 'sc.name_en', 's.scenario_name_en').as('scenario_name_en'),
      countSql().as('total_sessions'),
      countWhereSql(sql`s.status = 'completed'`).as('completed_sessions'),
      successRateSql('s').as('success_rate'),
      averageCompletionSql('s').as('average_completion'),
    ])
    .groupBy(groupKeySql('s.scenario_id', 's.scenario_name'))
    .execute();
  const byName = (a: { scenario_name: string }, b: { scenario_name: string }) =>
    a.scenario_name.localeCompare(b.scenario_name);
  return { totals, scenarios: scenarios.sort(byName) };
}

/** What each VR user's counters must read, from their sessions. */
async function directVrUserCounts(organizationId: string) {
  const rows = await t.db
    .selectFrom('vr_users as v')
    .leftJoin('sessions as s', 's.vr_user_id', 'v.id')
    .select([
      'v.id',
      sql<number>`count(s.id)::int`.as('session_count'),
      countWhereSql(sql`s.status = 'completed'`).as('completed_count'),
      sql<Date | null>`max(s.started_at)`.as('last_session_at'),
    ])
    .where('v.organization_id', '=', organizationId)
    .groupBy('v.id')
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
        session_count: row.session_count,
        completed_count: row.completed_count,
        last_session_at: row.last_session_at?.toISOString() ?? null,
      },
    ]),
  );
}

async function expectRollupsToMatchSessions(organizationIds: string[]) {
  const now = t.clock.now();
  const all = await get<GlobalStats>('/v1/admin/stats');
  const direct = await directFigures();
  expect(all).toMatchObject(direct.totals);
  expect(
    [...all.scenario_stats].sort((a, b) => a.scenario_name.localeCompare(b.scenario_name)),
  ).toEqual(direct.scenarios);

  // A range ending today (its last month read whole from the monthly rollups) and one ending
  // three days ago (sessions follow it in its last month: that month's days come from the
  // daily rollups).
  for (const [startDaysAgo, endDaysAgo] of [
    [90, 0],
    [60, 3],
  ] as const) {
    const start = new Date(now.getTime() - startDaysAgo * DAY_MS);
    const end = new Date(now.getTime() - endDaysAgo * DAY_MS);
    const range = await get<StatsRange>(
      `/v1/admin/stats/range?start_date=${isoDay(start)}&end_date=${isoDay(end)}`,
    );
    const from = new Date(`${isoDay(start)}T00:00:00Z`);
    const to = new Date(`${isoDay(end)}T00:00:00Z`).getTime() + DAY_MS;
    const directRange = await directFigures(from, new Date(to));
    expect(range).toMatchObject(directRange.totals);
    expect(
      [...range.scenario_stats].sort((a, b) => a.scenario_name.localeCompare(b.scenario_name)),
    ).toEqual(directRange.scenarios);
    const days = await t.db
      .selectFrom('sessions')
      .select([
        sql<string>`to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as('date'),
        countSql().as('sessions'),
      ])
      .where('started_at', '>=', from)
      .where('started_at', '<', new Date(to))
      .groupBy(sql`1`)
      .execute();
    expect(range.daily.filter((day) => day.sessions > 0).map((d) => [d.date, d.sessions])).toEqual(
      days.sort((a, b) => a.date.localeCompare(b.date)).map((d) => [d.date, d.sessions]),
    );

    // The top organisations of the range: whole months from the monthly rollup, the ends from the
    // daily one, must equal the direct grouping.
    const top = await t.db
      .selectFrom('sessions as s')
      .innerJoin('organizations as o', 'o.id', 's.organization_id')
      .select([
        's.organization_id',
        'o.name as organization_name',
        countSql().as('total_sessions'),
        successRateSql('s').as('success_rate'),
      ])
      .where('s.started_at', '>=', from)
      .where('s.started_at', '<', new Date(to))
      .groupBy(['s.organization_id', 'o.name'])
      .orderBy('total_sessions', 'desc')
      .orderBy('o.name')
      .orderBy('s.organization_id')
      .limit(5)
      .execute();
    expect(range.top_organizations).toEqual(top);
  }

  const listed = await get<OrganizationList>(
    '/v1/admin/organizations?include_stats=true&limit=500',
  );
  for (const organizationId of organizationIds) {
    const stats = listed.organizations.find((o) => o.id === organizationId)?.stats;
    const own = await t.db
      .selectFrom('sessions as s')
      .select([
        countSql().as('total_sessions'),
        countWhereSql(sql`s.status = 'active'`).as('active_sessions'),
        successRateSql('s').as('success_rate'),
      ])
      .where('s.organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    expect(stats).toMatchObject(own);
  }
}

describe('statistics from rollups', () => {
  it('equal the direct aggregate over sessions, whatever wrote them', async () => {
    t.clock.set(new Date('2026-06-15T10:00:00Z'));
    const tenant = await makeTenant(t);
    const other = await makeOrganization(t.db);
    const organizationIds = [tenant.organization.id, other.id];
    const tree = await makeScenarioTree(t.db, { scenarioName: 'Fire drill' });
    const people = await Promise.all(
      ['Anna', 'Boris', 'Vera'].map((name) => makeVrUser(t.db, tenant.organization.id, { name })),
    );
    const device = await makeDevice(t.db, tenant.organization.id, { type: 'pico' });

    // Single rows through the factories, of every status, on several days.
    const statuses = ['completed', 'cancelled', 'disconnected', 'timeout', 'completed'] as const;
    for (const [index, status] of statuses.entries()) {
      await makeSession(t.db, {
        organizationId: tenant.organization.id,
        vrUserId: people[index % 3]!.id,
        scenarioId: tree.scenario.id,
        scenarioName: 'Fire drill',
        deviceType: 'pico',
        status,
        completedTasks: index % 4,
        maxTasks: 3,
        durationSeconds: 60 * (index + 1),
        startedAt: new Date(t.clock.now().getTime() - index * 5 * DAY_MS),
      });
    }
    // A plain-SQL bulk import, as a restore script or the scale benchmark writes them.
    await sql`
      INSERT INTO sessions (organization_id, vr_user_id, device_id, scenario_id, device_name,
        device_type, vr_user_name, scenario_name, module_name, level_name, level_number, max_tasks,
        status, completed_tasks, success, started_at, ended_at, duration_seconds)
      SELECT ${tenant.organization.id}::uuid,
        (ARRAY[${people[0]!.id}, ${people[1]!.id}, ${people[2]!.id}]::uuid[])[1 + g % 3],
        NULL, CASE WHEN g % 5 = 0 THEN NULL ELSE ${tree.scenario.id}::uuid END,
        'Imported', (ARRAY['oculus', 'pico', 'quest', 'other'])[1 + g % 4],
        'Imported person', CASE WHEN g % 5 = 0 THEN 'Old scenario' ELSE 'Fire drill' END,
        'Module', 'Level', 1, 1 + g % 5,
        (ARRAY['completed', 'cancelled', 'disconnected', 'timeout'])[1 + g % 4],
        g % 6, CASE WHEN g % 4 = 0 THEN g % 3 = 0 END,
        ${t.clock.now()}::timestamptz - g * interval '7 hours',
        ${t.clock.now()}::timestamptz - g * interval '7 hours' + interval '10 minutes',
        CASE WHEN g % 7 = 0 THEN NULL ELSE 30 * g END
      FROM generate_series(1, 400) AS g`.execute(t.db);
    await sql`
      INSERT INTO sessions (organization_id, device_name, device_type, vr_user_name,
        scenario_name, module_name, level_name, level_number, max_tasks, status, completed_tasks,
        started_at)
      SELECT ${other.id}::uuid, 'D', 'quest', 'P', 'Flood', 'M', 'L', 1, 4, 'completed', 4,
        ${t.clock.now()}::timestamptz - g * interval '1 day'
      FROM generate_series(1, 30) AS g`.execute(t.db);
    // Active sessions, then ended by hand; progress on an active one.
    const active = await makeSession(t.db, {
      organizationId: tenant.organization.id,
      deviceId: device.id,
      vrUserId: people[0]!.id,
      status: 'active',
      startedAt: t.clock.now(),
    });
    await t.db
      .updateTable('sessions')
      .set({ completed_tasks: 2 })
      .where('id', '=', active.id)
      .execute();
    await expectRollupsToMatchSessions(organizationIds);

    await t.db
      .updateTable('sessions')
      .set({ status: 'completed', success: true, completed_tasks: 3, duration_seconds: 90 })
      .where('id', '=', active.id)
      .execute();
    await t.db
      .updateTable('sessions')
      .set({ status: 'cancelled', success: null })
      .where('vr_user_name', '=', 'Imported person')
      .where('status', '=', 'timeout')
      .execute();
    await t.db
      .deleteFrom('sessions')
      .where('organization_id', '=', other.id)
      .where('started_at', '<', new Date(t.clock.now().getTime() - 20 * DAY_MS))
      .execute();
    // The scenario goes; its sessions keep its name and now group under it.
    await t.db.deleteFrom('scenarios').where('id', '=', tree.scenario.id).execute();
    await expectRollupsToMatchSessions(organizationIds);

    const listed = await get<VrUserList>('/v1/vr-users?limit=500', tenant.headers);
    const counts = await directVrUserCounts(tenant.organization.id);
    expect(listed.vr_users).toHaveLength(counts.size);
    for (const vrUser of listed.vr_users) {
      expect(vrUser).toMatchObject(counts.get(vrUser.id)!);
    }
  });
});
