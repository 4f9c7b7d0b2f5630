import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../auth/auth.service.ts';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  makeDevice,
  makeOrganization,
  makeScenarioTree,
  makeSession,
  makeTenant,
} from '../../test/factories.ts';

/** Wednesday; the week started on Monday 2026-03-16, the month on 2026-03-01 (UTC). */
const NOW = '2026-03-18T12:00:00.000Z';

/**
 * Six sessions with known figures:
 *   1 today          completed   3/3  600 s  Fire   quest
 *   2 Mon 00:00      cancelled   1/4  120 s  Fire   pico   (first instant of the week)
 *   3 Mar 2          timeout     1/3  7200 s Flood  pico
 *   4 Feb 27         disconnected 0/3  60 s  Flood  oculus (last month)
 *   5 today          active                  Fire   quest
 *   6 Sun 23:59:59   completed   2/2  300 s  Flood  quest  (last instant of the previous week)
 */
async function seedKnownSessions(t: TestApp) {
  const organization = await makeOrganization(t.db, { name: 'Known Org' });
  const base = { organizationId: organization.id };
  await makeSession(t.db, {
    ...base,
    status: 'completed',
    completedTasks: 3,
    maxTasks: 3,
    durationSeconds: 600,
    scenarioName: 'Fire',
    deviceType: 'quest',
    startedAt: new Date('2026-03-18T08:00:00Z'),
  });
  await makeSession(t.db, {
    ...base,
    status: 'cancelled',
    completedTasks: 1,
    maxTasks: 4,
    durationSeconds: 120,
    scenarioName: 'Fire',
    deviceType: 'pico',
    startedAt: new Date('2026-03-16T00:00:00Z'),
  });
  await makeSession(t.db, {
    ...base,
    status: 'timeout',
    completedTasks: 1,
    maxTasks: 3,
    durationSeconds: 7200,
    scenarioName: 'Flood',
    deviceType: 'pico',
    startedAt: new Date('2026-03-02T10:00:00Z'),
  });
  await makeSession(t.db, {
    ...base,
    status: 'disconnected',
    completedTasks: 0,
    maxTasks: 3,
    durationSeconds: 60,
    scenarioName: 'Flood',
    deviceType: 'oculus',
    startedAt: new Date('2026-02-27T10:00:00Z'),
  });
  await makeSession(t.db, {
    ...base,
    status: 'active',
    completedTasks: 1,
    maxTasks: 3,
    scenarioName: 'Fire',
    deviceType: 'quest',
    startedAt: new Date('2026-03-18T11:00:00Z'),
  });
  await makeSession(t.db, {
    ...base,
    status: 'completed',
    completedTasks: 2,
    maxTasks: 2,
    durationSeconds: 300,
    scenarioName: 'Flood',
    deviceType: 'quest',
    startedAt: new Date('2026-03-15T23:59:59Z'),
  });
  return organization;
}

describe('GET /v1/admin/stats', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof makeTenant>>;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    admin = await makeTenant(t, { role: 'admin' });
  });
  afterAll(() => t.close());
  const get = () => t.app.inject({ url: '/v1/admin/stats', headers: admin.headers });

  it('answers zeros without sessions', async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      total_sessions: 0,
      active_sessions: 0,
      completed_sessions: 0,
      cancelled_sessions: 0,
      disconnected_sessions: 0,
      timeout_sessions: 0,
      sessions_today: 0,
      sessions_this_week: 0,
      sessions_this_month: 0,
      average_duration_seconds: 0,
      success_rate: 0,
      average_completion: 0,
      scenario_stats: [],
    });
  });

  it('computes exact figures over every session', async () => {
    await seedKnownSessions(t);
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      total_sessions: 6,
      active_sessions: 1,
      completed_sessions: 2,
      cancelled_sessions: 1,
      disconnected_sessions: 1,
      timeout_sessions: 1,
      sessions_today: 2, // 1 and 5
      sessions_this_week: 3, // 1, 2 and 5; 6 was the Sunday before
      sessions_this_month: 5, // all but 4
      average_duration_seconds: 1656, // (600 + 120 + 7200 + 60 + 300) / 5 ended
      success_rate: 40, // 2 of 5 ended
      average_completion: 51.7, // (1 + 0.25 + 0.333 + 0 + 1) / 5
      scenario_stats: [
        {
          scenario_name: 'Fire',
          scenario_name_en: null,
          total_sessions: 3,
          completed_sessions: 1,
          success_rate: 50,
          average_completion: 62.5,
        },
        {
          scenario_name: 'Flood',
          scenario_name_en: null,
          total_sessions: 3,
          completed_sessions: 1,
          success_rate: 33.3,
          average_completion: 44.4,
        },
      ],
    });
  });

  it('moves today, this week and this month with the clock (UTC, weeks from Monday)', async () => {
    t.clock.set('2026-03-15T23:00:00Z'); // Sunday: the week began on Monday 2026-03-09
    // Periods are whole calendar periods around the clock's now.
    expect((await get()).json()).toMatchObject({
      sessions_today: 1,
      sessions_this_week: 1,
      sessions_this_month: 5,
    });
    t.clock.set('2026-03-22T23:59:59Z'); // the Sunday ending the week of sessions 1, 2 and 5
    expect((await get()).json()).toMatchObject({
      sessions_today: 0,
      sessions_this_week: 3,
      sessions_this_month: 5,
    });
    t.clock.set('2026-03-23T00:00:00Z'); // next Monday
    expect((await get()).json()).toMatchObject({
      sessions_today: 0,
      sessions_this_week: 0,
      sessions_this_month: 5,
    });
    t.clock.set('2026-02-27T18:00:00Z');
    expect((await get()).json()).toMatchObject({
      sessions_today: 1,
      sessions_this_week: 1,
      sessions_this_month: 1,
    });
    t.clock.set('2026-04-01T00:00:00Z'); // past the admin token's expiry: sign in afresh
    const { token } = await issueToken(t, admin.account.id);
    const april = await t.app.inject({ url: '/v1/admin/stats', headers: bearer(token) });
    expect(april.json()).toMatchObject({
      sessions_today: 0,
      sessions_this_month: 0,
      total_sessions: 6,
    });
    t.clock.set(NOW);
  });

  it('groups scenarios by identity under their current name', async () => {
    const tree = await makeScenarioTree(t.db, { scenarioName: 'Evacuation' });
    const organization = await makeOrganization(t.db);
    for (const recorded of ['Evacuation v1', 'Evacuation']) {
      await makeSession(t.db, {
        organizationId: organization.id,
        scenarioId: tree.scenario.id,
        scenarioName: recorded,
        startedAt: new Date('2025-01-10T10:00:00Z'),
      });
    }
    const stats = (await get()).json().scenario_stats;
    expect(
      stats.filter((s: { scenario_name: string }) => s.scenario_name.startsWith('Evacuation')),
    ).toEqual([
      {
        scenario_name: 'Evacuation',
        scenario_name_en: null,
        total_sessions: 2,
        completed_sessions: 2,
        success_rate: 100,
        average_completion: 100,
      },
    ]);
  });

  it('keeps a deleted scenario under its recorded names, a live one under its current ones', async () => {
    const organization = await makeOrganization(t.db);
    const live = await makeScenarioTree(t.db, { scenarioName: 'Ladder work' });
    const gone = await makeScenarioTree(t.db, { scenarioName: 'Crane signals' });
    for (const tree of [live, gone]) {
      const session = await makeSession(t.db, {
        organizationId: organization.id,
        scenarioId: tree.scenario.id,
        scenarioName: tree.scenario.name,
        startedAt: new Date('2025-01-11T10:00:00Z'),
      });
      await t.db
        .updateTable('sessions')
        .set({ scenario_name_en: `${tree.scenario.name} (recorded)` })
        .where('id', '=', session.id)
        .execute();
    }
    // The live scenario's admin removed its English name; the other scenario was deleted.
    await t.db
      .updateTable('scenarios')
      .set({ name: 'Ladder safety', name_en: null })
      .where('id', '=', live.scenario.id)
      .execute();
    await t.db.deleteFrom('scenarios').where('id', '=', gone.scenario.id).execute();
    const stats = (await get()).json().scenario_stats as Array<Record<string, unknown>>;
    const names = stats
      .filter((s) => ['Ladder safety', 'Crane signals'].includes(s.scenario_name as string))
      .map((s) => [s.scenario_name, s.scenario_name_en, s.total_sessions]);
    expect(names.sort()).toEqual([
      ['Crane signals', 'Crane signals (recorded)', 1],
      ['Ladder safety', null, 1],
    ]);
  });
});

describe('GET /v1/admin/stats/range', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof makeTenant>>;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    admin = await makeTenant(t, { role: 'admin' });
  });
  afterAll(() => t.close());
  const range = (query: string) =>
    t.app.inject({ url: `/v1/admin/stats/range?${query}`, headers: admin.headers });

  it('computes the figures over sessions started in the range, with every day and the device types', async () => {
    const organization = await seedKnownSessions(t);
    await makeDevice(t.db, organization.id, { type: 'quest' });
    await makeDevice(t.db, organization.id, { type: 'quest' });
    await makeDevice(t.db, organization.id, { type: 'oculus' });

    const response = await range('start_date=2026-03-15&end_date=2026-03-18');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      start_date: '2026-03-15',
      end_date: '2026-03-18',
      total_sessions: 4, // 1, 2, 5, 6
      active_sessions: 1,
      completed_sessions: 2,
      cancelled_sessions: 1,
      disconnected_sessions: 0,
      timeout_sessions: 0,
      sessions_today: 2,
      sessions_this_week: 3,
      sessions_this_month: 4,
      average_duration_seconds: 340, // (600 + 120 + 300) / 3
      success_rate: 66.7,
      average_completion: 75, // (1 + 0.25 + 1) / 3
      scenario_stats: [
        {
          scenario_name: 'Fire',
          scenario_name_en: null,
          total_sessions: 3,
          completed_sessions: 1,
          success_rate: 50,
          average_completion: 62.5,
        },
        {
          scenario_name: 'Flood',
          scenario_name_en: null,
          total_sessions: 1,
          completed_sessions: 1,
          success_rate: 100,
          average_completion: 100,
        },
      ],
      daily: [
        { date: '2026-03-15', sessions: 1, completed: 1 },
        { date: '2026-03-16', sessions: 1, completed: 0 },
        { date: '2026-03-17', sessions: 0, completed: 0 },
        { date: '2026-03-18', sessions: 2, completed: 1 },
      ],
      device_types: [
        { device_type: 'quest', sessions: 3, devices: 2 },
        { device_type: 'pico', sessions: 1, devices: 0 },
        { device_type: 'oculus', sessions: 0, devices: 1 },
        { device_type: 'other', sessions: 0, devices: 0 },
      ],
      top_organizations: [
        {
          organization_id: organization.id,
          organization_name: 'Known Org',
          total_sessions: 4,
          success_rate: 66.7,
        },
      ],
    });

    // Every day of the range with sessions: the rollup's rows, in order.
    const twoDays = (await range('start_date=2026-03-15&end_date=2026-03-16')).json();
    expect(twoDays.daily).toEqual([
      { date: '2026-03-15', sessions: 1, completed: 1 },
      { date: '2026-03-16', sessions: 1, completed: 0 },
    ]);

    const oneDay = (await range('start_date=2026-03-17&end_date=2026-03-17')).json();
    expect(oneDay.daily).toEqual([{ date: '2026-03-17', sessions: 0, completed: 0 }]);
    expect(oneDay).toMatchObject({
      total_sessions: 0,
      success_rate: 0,
      scenario_stats: [],
      top_organizations: [],
    });
  });

  it('ranks the top 5 organisations by sessions in the range', async () => {
    const counts = [3, 6, 1, 5, 2, 4];
    const organizations = [];
    for (const [index, count] of counts.entries()) {
      const organization = await makeOrganization(t.db, { name: `Rank ${index}` });
      organizations.push(organization);
      for (let n = 0; n < count; n++) {
        await makeSession(t.db, {
          organizationId: organization.id,
          status: n === 0 ? 'cancelled' : 'completed',
          startedAt: new Date(`2025-06-0${1 + (n % 7)}T12:00:00Z`),
        });
      }
    }
    // Outside the range: does not count.
    await makeSession(t.db, {
      organizationId: organizations[2]!.id,
      startedAt: new Date('2025-06-08T00:00:00Z'),
    });
    const body = (await range('start_date=2025-06-01&end_date=2025-06-07')).json();
    expect(body.top_organizations).toEqual([
      {
        organization_id: organizations[1]!.id,
        organization_name: 'Rank 1',
        total_sessions: 6,
        success_rate: 83.3,
      },
      {
        organization_id: organizations[3]!.id,
        organization_name: 'Rank 3',
        total_sessions: 5,
        success_rate: 80,
      },
      {
        organization_id: organizations[5]!.id,
        organization_name: 'Rank 5',
        total_sessions: 4,
        success_rate: 75,
      },
      {
        organization_id: organizations[0]!.id,
        organization_name: 'Rank 0',
        total_sessions: 3,
        success_rate: 66.7,
      },
      {
        organization_id: organizations[4]!.id,
        organization_name: 'Rank 4',
        total_sessions: 2,
        success_rate: 50,
      },
    ]);
    expect(body.total_sessions).toBe(21);
    expect(body.daily).toHaveLength(7);
  });

  it('accepts up to 366 days and refuses bad ranges with a message', async () => {
    const leapYear = await range('start_date=2024-01-01&end_date=2024-12-31');
    expect(leapYear.statusCode).toBe(200);
    expect(leapYear.json().daily).toHaveLength(366);
    expect(leapYear.json().daily.at(-1)).toEqual({ date: '2024-12-31', sessions: 0, completed: 0 });

    const cases = [
      [
        'start_date=2025-01-01&end_date=2026-01-02',
        'querystring.end_date: the range may cover at most 366 days',
      ],
      [
        'start_date=2026-03-10&end_date=2026-03-09',
        'querystring.start_date must not be after end_date',
      ],
      ['start_date=2026-02-30&end_date=2026-03-09', 'querystring.start_date must be a valid date'],
      ['start_date=18.03.2026&end_date=2026-03-09', 'querystring.start_date must be a valid date'],
      ['start_date=2026-03-01', 'querystring.end_date is required'],
      ['end_date=2026-03-01', 'querystring.start_date is required'],
      [
        'start_date=0000-01-01&end_date=0000-01-02',
        'querystring.start_date must be between 1970-01-01 and 2999-12-31',
      ],
      [
        'start_date=2026-03-01&end_date=9999-12-31',
        'querystring.end_date must be between 1970-01-01 and 2999-12-31',
      ],
      ['start_date=2026-03-01&end_date=2026-03-02&org=1', 'querystring.org is not allowed'],
    ] as const;
    for (const [query, message] of cases) {
      const response = await range(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({
        error: 'validation_error',
        message: expect.stringContaining(message),
      });
    }
    expect((await range('start_date=2025-01-01&end_date=2026-01-01')).statusCode).toBe(200);
    expect((await range('start_date=2025-01-01&end_date=2026-01-02')).json().message).toBe(
      'querystring.end_date: the range may cover at most 366 days (it covers 367)',
    );
  });
});

describe('GET /v1/admin/stats/export', () => {
  let t: TestApp;
  let admin: Awaited<ReturnType<typeof makeTenant>>;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    admin = await makeTenant(t, { role: 'admin' });
  });
  afterAll(() => t.close());
  const exportCsv = (query = '') =>
    t.app.inject({
      url: `/v1/admin/stats/export${query ? `?${query}` : ''}`,
      headers: admin.headers,
    });

  it('sends a UTF-8 CSV with a byte-order mark, the summary and every day, formulas neutralised', async () => {
    const organization = await seedKnownSessions(t);
    const evil = await makeOrganization(t.db, { name: '+SUM(A1:A9)' });
    await makeSession(t.db, {
      organizationId: evil.id,
      scenarioName: '=HYPERLINK("http://evil.example","click")',
      startedAt: new Date('2026-03-17T09:00:00Z'),
    });

    const response = await exportCsv('format=csv&start_date=2026-03-15&end_date=2026-03-18');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="global-stats_2026-03-15_2026-03-18.csv"',
    );
    expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);

    const text = response.rawPayload.toString('utf8').slice(1);
    const lines = text.split('\r\n');
    expect(lines.slice(0, 6)).toEqual([
      'Global statistics',
      'Metric,Value',
      'Start date,2026-03-15',
      'End date,2026-03-18',
      'Total sessions,5',
      'Active sessions,1',
    ]);
    expect(lines).toContain('Success rate %,75');
    const daily = lines.indexOf('Date,Sessions,Completed');
    expect(lines.slice(daily, daily + 5)).toEqual([
      'Date,Sessions,Completed',
      '2026-03-15,1,1',
      '2026-03-16,1,0',
      '2026-03-17,1,1',
      '2026-03-18,2,1',
    ]);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")",1,1,100,100`);
    expect(lines).toContain("'+SUM(A1:A9),1,100");
    expect(lines).toContain('Known Org,4,66.7');

    const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true }).data;
    const cells = parsed.flat();
    expect(cells).toContain(`'=HYPERLINK("http://evil.example","click")`);
    expect(cells.filter((cell) => /^[=+@]/.test(cell) || /^-[^\d]/.test(cell))).toEqual([]);
    expect(organization.name).toBe('Known Org');
  });

  it('writes a Russian reader’s file: words, decimal commas, `;`, read as Excel reads it', async () => {
    const response = await t.app.inject({
      url: '/v1/admin/stats/export?start_date=2026-03-15&end_date=2026-03-18',
      headers: { ...admin.headers, 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' },
    });
    expect(response.statusCode).toBe(200);
    const text = response.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const rows = Papa.parse<string[]>(text.slice(1), { delimiter: ';', skipEmptyLines: true }).data;
    expect(rows.slice(0, 5)).toEqual([
      ['Статистика'],
      ['Показатель', 'Значение'],
      ['Начало периода', '2026-03-15'],
      ['Конец периода', '2026-03-18'],
      ['Всего сессий', '5'],
    ]);
    expect(rows).toContainEqual(['Доля успешных, %', '75']);
    expect(rows).toContainEqual(['Known Org', '4', '66,7']);
    const english = await exportCsv('start_date=2026-03-15&end_date=2026-03-18&lang=en');
    const englishRows = Papa.parse<string[]>(english.rawPayload.toString('utf8').slice(1)).data;
    expect(englishRows).toContainEqual(['Success rate (%)', '75']);
    expect(englishRows).toContainEqual(['Known Org', '4', '66.7']);
  });

  it('defaults to csv over the last 30 days ending today', async () => {
    const response = await exportCsv();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="global-stats_2026-02-17_2026-03-18.csv"',
    );
    const lines = response.rawPayload.toString('utf8').split('\r\n');
    const daily = lines.indexOf('Date,Sessions,Completed');
    const end = lines.indexOf('', daily);
    expect(end - daily - 1).toBe(30);
    expect(lines[daily + 1]).toBe('2026-02-17,0,0');
  });

  it('refuses other formats and bad dates', async () => {
    for (const [query, message] of [
      ['format=xlsx', 'querystring.format'],
      ['format=', 'querystring.format'],
      [
        'start_date=2026-04-01&end_date=2026-03-01',
        'querystring.start_date must not be after end_date',
      ],
      ['start_date=2020-01-01', 'at most 366 days'],
      ['end_date=yesterday', 'querystring.end_date must be a valid date'],
    ] as const) {
      const response = await exportCsv(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error).toBe('validation_error');
      expect(response.json().message, query).toContain(message);
    }
  });
});

describe('access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is admin-only on every route', async () => {
    const client = await makeTenant(t);
    for (const url of [
      '/v1/admin/stats',
      '/v1/admin/stats/range?start_date=2026-01-01&end_date=2026-01-02',
      '/v1/admin/stats/export',
    ]) {
      const response = await t.app.inject({ url, headers: client.headers });
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error).toBe('forbidden');
      expect((await t.app.inject({ url })).statusCode).toBe(401);
    }
  });
});
