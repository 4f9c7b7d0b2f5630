import { lastDays, type OrganizationAnalytics, type OrganizationStatsRange } from '@vrtc/contract';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../auth/auth.service.ts';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  makeAccount,
  makeDevice,
  makeScenarioTree,
  makeSession,
  makeTenant,
  type Tenant,
} from '../../test/factories.ts';

/**
 * One period, one count (issue #42): for an organisation, its staff's statistics, the admin's
 * analytics of it, the global statistics (its row among the top organisations, and the total
 * over all of them) and every CSV of them count the same sessions over the same 30 days: whole
 * UTC calendar days ending today, 2026-02-17..2026-03-18.
 */
const NOW = '2026-03-18T12:00:00.000Z';
const PERIOD = lastDays(30, new Date(NOW));

let t: TestApp;
let admin: Tenant;
let staffA: Tenant;
let staffB: Tenant;
let auditorA: { headers: Record<string, string> };

/** Organisation A's sessions: 5 inside the period, 3 at its edges outside it. */
async function seedA(t: TestApp, organizationId: string) {
  const fire = await makeScenarioTree(t.db, { scenarioName: 'First Aid' });
  const at = (iso: string, more: Partial<Parameters<typeof makeSession>[1]> = {}) =>
    makeSession(t.db, {
      organizationId,
      scenarioId: fire.scenario.id,
      scenarioName: 'First Aid',
      startedAt: new Date(iso),
      ...more,
    });
  // Just inside: the first instant of the period's first day, and today.
  await at('2026-02-17T00:00:00.000Z');
  await at('2026-03-18T11:59:00.000Z', { status: 'active' });
  await at('2026-03-10T08:00:00.000Z', { status: 'cancelled', completedTasks: 1, maxTasks: 4 });
  await at('2026-03-01T09:00:00.000Z', { deviceType: 'pico', scenarioName: 'Flood' });
  // Moscow's 2026-02-18 02:30 is still 2026-02-17 in UTC: inside, counted on its UTC day.
  await at('2026-02-17T23:30:00.000Z', { status: 'timeout', completedTasks: 1, maxTasks: 3 });
  // Just outside: the last instant before the period, 30 × 24 h ago (inside a rolling window,
  // which the admin's analytics used, and 57 did not match 55), and Moscow's first hours of
  // 2026-02-17, still 2026-02-16 in UTC.
  await at('2026-02-16T23:59:59.999Z');
  await at('2026-02-16T12:00:00.000Z');
  await at('2026-02-16T22:00:00.000Z');
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  admin = await makeTenant(t, { role: 'admin', organizationName: 'Platform' });
  staffA = await makeTenant(t, { organizationName: 'Alpha Centre' });
  staffB = await makeTenant(t, { organizationName: 'Beta Centre' });
  const auditor = await makeAccount(t.db, {
    role: 'auditor',
    organization_id: staffA.organization.id,
  });
  auditorA = { headers: bearer((await issueToken(t, auditor.id)).token) };
  await makeDevice(t.db, staffA.organization.id, { type: 'quest' });
  await makeDevice(t.db, staffB.organization.id, { type: 'pico' });
  await seedA(t, staffA.organization.id);
  // Organisation B: two sessions inside, one outside.
  for (const iso of ['2026-03-18T00:00:00Z', '2026-02-20T10:00:00Z', '2026-01-01T10:00:00Z']) {
    await makeSession(t.db, { organizationId: staffB.organization.id, startedAt: new Date(iso) });
  }
});
afterAll(() => t.close());

const range = `start_date=${PERIOD.start_date}&end_date=${PERIOD.end_date}`;

async function get<T>(url: string, headers: Record<string, string>, status = 200): Promise<T> {
  const response = await t.app.inject({ url, headers });
  expect(response.statusCode, response.body).toBe(status);
  return response.json<T>();
}

/** A CSV as Excel reads it: the byte-order mark off, split on the file's separator. */
async function csv(url: string, headers: Record<string, string>, delimiter = ',') {
  const response = await t.app.inject({ url, headers });
  expect(response.statusCode, response.body).toBe(200);
  const text = response.rawPayload.toString('utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  return Papa.parse<string[]>(text.slice(1), { delimiter, skipEmptyLines: true }).data;
}
const valueOf = (rows: string[][], label: string) => rows.find((row) => row[0] === label)?.[1];

describe('the statistics period, one for every figure', () => {
  it('counts the same sessions for an organisation on every screen and in every CSV', async () => {
    const own = await get<OrganizationStatsRange>(`/v1/stats?${range}`, staffA.headers);
    expect(own).toMatchObject({
      organization_id: staffA.organization.id,
      organization_name: 'Alpha Centre',
      start_date: '2026-02-17',
      end_date: '2026-03-18',
      total_sessions: 5,
      active_sessions: 1,
      completed_sessions: 2,
      cancelled_sessions: 1,
      timeout_sessions: 1,
      sessions_today: 1,
    });
    // Without dates: the same 30 days.
    expect(await get('/v1/stats', staffA.headers)).toEqual(own);
    expect(own.daily).toHaveLength(30);
    expect(own.daily.reduce((sum, day) => sum + day.sessions, 0)).toBe(5);
    expect(own.daily[0]).toEqual({ date: '2026-02-17', sessions: 2, completed: 1 });
    expect(own.scenario_stats.map((s) => [s.scenario_name, s.total_sessions])).toEqual([
      ['First Aid', 5],
    ]);
    expect(own.device_types.slice(0, 2)).toEqual([
      { device_type: 'quest', sessions: 4, devices: 1 },
      { device_type: 'pico', sessions: 1, devices: 0 },
    ]);

    // The admin's analytics of the organisation, over its default 30 days.
    const analytics = await get<OrganizationAnalytics>(
      `/v1/admin/organizations/${staffA.organization.id}/analytics`,
      admin.headers,
    );
    expect(analytics).toMatchObject({ days: 30, ...PERIOD });
    expect(analytics.scenario_stats.map((s) => [s.scenario_name, s.session_count])).toEqual([
      ['First Aid', 5],
    ]);
    expect(analytics.top_vr_users.reduce((sum, u) => sum + u.session_count, 0)).toBe(5);
    expect(analytics.scenario_stats[0]!.success_rate).toBe(own.scenario_stats[0]!.success_rate);
    expect(analytics.scenario_stats[0]!.average_completion).toBe(
      own.scenario_stats[0]!.average_completion,
    );

    // The global statistics: the organisation's row, and the total over both organisations.
    const global = await get<{
      total_sessions: number;
      top_organizations: Array<{ organization_id: string; total_sessions: number }>;
    }>(`/v1/admin/stats/range?${range}`, admin.headers);
    expect(global.total_sessions).toBe(5 + 2);
    expect(
      global.top_organizations.find((o) => o.organization_id === staffA.organization.id),
    ).toMatchObject({ total_sessions: 5, success_rate: own.success_rate });

    // The CSVs: the staff's (today's columns, and in Russian as Excel splits it), the global.
    const plain = await csv(`/v1/stats/export`, staffA.headers);
    expect(valueOf(plain, 'Organization')).toBe('Alpha Centre');
    expect(valueOf(plain, 'Start date')).toBe('2026-02-17');
    expect(valueOf(plain, 'End date')).toBe('2026-03-18');
    expect(valueOf(plain, 'Total sessions')).toBe('5');
    const russian = await csv(`/v1/stats/export?${range}&lang=ru`, staffA.headers, ';');
    expect(valueOf(russian, 'Организация')).toBe('Alpha Centre');
    expect(valueOf(russian, 'Всего сессий')).toBe('5');
    expect(russian.find((row) => row[0] === 'First Aid')?.[1]).toBe('5');
    expect(russian.some((row) => row[0] === 'Организация' && row[1] === 'Сессии')).toBe(false);
    const globalCsv = await csv(`/v1/admin/stats/export`, admin.headers);
    expect(valueOf(globalCsv, 'Total sessions')).toBe('7');
    expect(valueOf(globalCsv, 'Alpha Centre')).toBe('5');
  });

  it('moves with the calendar day, not with the hour', async () => {
    // One day: today's sessions alone, on every screen, whatever the hour.
    const today = lastDays(1, new Date(NOW));
    const own = await get<OrganizationStatsRange>(
      `/v1/stats?start_date=${today.start_date}&end_date=${today.end_date}`,
      staffA.headers,
    );
    const analytics = await get<OrganizationAnalytics>(
      `/v1/admin/organizations/${staffA.organization.id}/analytics?days=1`,
      admin.headers,
    );
    expect(own.total_sessions).toBe(1);
    expect(analytics).toMatchObject({ start_date: '2026-03-18', end_date: '2026-03-18' });
    expect(analytics.top_vr_users.reduce((sum, u) => sum + u.session_count, 0)).toBe(1);
  });
});

describe('GET /v1/stats: the caller’s own organisation', () => {
  it('shows staff of another organisation only theirs, and names no other by a parameter', async () => {
    const own = await get<OrganizationStatsRange>(`/v1/stats?${range}`, staffB.headers);
    expect(own).toMatchObject({
      organization_id: staffB.organization.id,
      organization_name: 'Beta Centre',
      total_sessions: 2,
    });
    expect(own.device_types.find((d) => d.device_type === 'quest')).toMatchObject({ devices: 0 });
    expect(own.device_types.find((d) => d.device_type === 'pico')).toMatchObject({ devices: 1 });
    const foreign = await t.app.inject({
      url: `/v1/stats?${range}&organization_id=${staffA.organization.id}`,
      headers: staffB.headers,
    });
    expect(foreign.statusCode).toBe(400);
    const file = await csv(`/v1/stats/export?${range}`, staffB.headers);
    expect(valueOf(file, 'Organization')).toBe('Beta Centre');
    expect(valueOf(file, 'Total sessions')).toBe('2');
    expect(file.flat()).not.toContain('Alpha Centre');
  });

  it('lets the auditor read and export their organisation’s figures', async () => {
    const read = await get<OrganizationStatsRange>(`/v1/stats?${range}`, auditorA.headers);
    expect(read).toEqual(await get(`/v1/stats?${range}`, staffA.headers));
    const file = await csv(`/v1/stats/export?${range}`, auditorA.headers);
    expect(valueOf(file, 'Total sessions')).toBe('5');
  });

  it('refuses the signed-out and a range the API refuses', async () => {
    expect((await t.app.inject({ url: `/v1/stats?${range}` })).statusCode).toBe(401);
    const backwards = await get<{ error: string }>(
      '/v1/stats?start_date=2026-03-18&end_date=2026-03-01',
      staffA.headers,
      400,
    );
    expect(backwards.error).toBe('validation_error');
  });
});
