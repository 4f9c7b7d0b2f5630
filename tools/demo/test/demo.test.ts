import type {
  CompliancePage,
  GlobalStats,
  LoginResponse,
  OrganizationList,
  ScenarioTreeList,
  SessionList,
  StatsRange,
} from '@vrtc/contract';
import { bearer, createTestApp, type TestApp } from '@vrtc/server/test/harness.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_ADMIN,
  DEMO_HEADSETS,
  DEMO_ORGANIZATION,
  DEMO_PARTNER,
  DEMO_STAFF,
  PARTNER_ORGANIZATION,
} from '../src/demo-content.ts';
import {
  HISTORY_DAYS,
  planHistory,
  seedDemo,
  seedHistory,
  type DemoSeed,
  type HistoryDevice,
  type HistorySummary,
} from '../src/demo.seed.ts';
import {
  DEMO_QUALIFICATIONS,
  DEMO_QUALIFIED_TRAINEES,
  seedQualifications,
} from '../src/demo.qualifications.ts';

/**
 * The demo seed on a test database, read back through the API: logins, organisations, content a
 * client can run, and a history the statistics screens show. The clock is fixed (a Wednesday), so
 * the seeded random history has the same figures on every run.
 */

const NOW = '2026-03-18T12:00:00.000Z';

let t: TestApp;
let seed: DemoSeed;
let headsets: HistoryDevice[];
let summary: HistorySummary;

async function login(email: string, password: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    payload: { email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  // No Origin: a script's sign-in, whose answer carries the token.
  return response.json<Required<LoginResponse>>();
}

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  seed = await seedDemo(t.db, t.clock);
  // The demo headsets enrol as the simulators do: a code from the console, then /v1/headset/enroll.
  const staff = await login(DEMO_STAFF.email, DEMO_STAFF.password);
  const code = await t.app.inject({
    method: 'POST',
    url: '/v1/devices/enrollment-code',
    headers: bearer(staff.token),
  });
  expect(code.statusCode).toBe(200);
  headsets = [];
  for (const spec of DEMO_HEADSETS) {
    const enrolled = await t.app.inject({
      method: 'POST',
      url: '/v1/headset/enroll',
      payload: { code: code.json<{ code: string }>().code, name: spec.name, type: spec.type },
    });
    expect(enrolled.statusCode, enrolled.body).toBe(201);
    headsets.push({ ...spec, id: enrolled.json<{ device_id: string }>().device_id });
  }
  summary = await seedHistory(t.db, t.clock, seed, headsets);
});
afterAll(async () => {
  await t?.close();
});

describe('demo seed', () => {
  it('creates the two organisations and logins that work', async () => {
    const admin = await login(DEMO_ADMIN.email, DEMO_ADMIN.password);
    expect(admin).toMatchObject({ role: 'admin', organization_name: DEMO_ORGANIZATION });
    const staff = await login(DEMO_STAFF.email, DEMO_STAFF.password);
    expect(staff).toMatchObject({ role: 'client', organization_name: DEMO_ORGANIZATION });
    const partner = await login(DEMO_PARTNER.email, DEMO_PARTNER.password);
    expect(partner).toMatchObject({ role: 'client', organization_name: PARTNER_ORGANIZATION });

    const organizations = await t.app.inject({
      url: '/v1/admin/organizations?include_stats=true',
      headers: bearer(admin.token),
    });
    expect(organizations.statusCode).toBe(200);
    const names = organizations.json<OrganizationList>().organizations.map((o) => o.name);
    expect(names.sort()).toEqual([DEMO_ORGANIZATION, PARTNER_ORGANIZATION].sort());
  });

  it('gives the client live scenarios with modules, levels and options, in every expiry state', async () => {
    const staff = await login(DEMO_STAFF.email, DEMO_STAFF.password);
    const response = await t.app.inject({
      url: '/v1/scenarios-full',
      headers: bearer(staff.token),
    });
    expect(response.statusCode).toBe(200);
    const list = response.json<ScenarioTreeList>().scenarios;
    // Four scenarios, one of whose grants expired nine days ago: three can be run.
    expect(list.map((s) => s.name).sort()).toEqual(
      ['Работы на высоте', 'Первая помощь', 'Пожарная безопасность'].sort(),
    );
    expect(list.map((s) => s.name_en).sort()).toEqual(
      ['Working at Height', 'First Aid', 'Fire Safety'].sort(),
    );
    const now = new Date(NOW).getTime();
    const expiries = list.map((s) =>
      s.access_expires_at ? new Date(s.access_expires_at).getTime() : null,
    );
    expect(expiries).toContain(null);
    expect(expiries.some((at) => at !== null && at - now < 30 * 86_400_000)).toBe(true);
    expect(expiries.some((at) => at !== null && at - now > 30 * 86_400_000)).toBe(true);
    for (const scenario of list) {
      expect(scenario.modules.length).toBeGreaterThanOrEqual(2);
      for (const module of scenario.modules) {
        expect(module.levels.length).toBeGreaterThanOrEqual(2);
        for (const level of module.levels) {
          expect(level.max_tasks).toBeGreaterThanOrEqual(3);
          expect(level.max_tasks).toBeLessThanOrEqual(6);
        }
      }
    }
    expect(
      list.flatMap((s) =>
        s.modules.flatMap((m) => m.levels.flatMap((l) => l.options.map((o) => o.name))),
      ),
    ).toEqual(expect.arrayContaining(['Ночь', 'Задымление', 'Дождь', 'Ветер']));
  });

  it('names and describes every scenario, module, level and option in Russian and in English', async () => {
    const staff = await login(DEMO_STAFF.email, DEMO_STAFF.password);
    const response = await t.app.inject({
      url: '/v1/scenarios-full',
      headers: bearer(staff.token),
    });
    const texts = response
      .json<ScenarioTreeList>()
      .scenarios.flatMap((scenario) => [
        scenario,
        ...scenario.modules.flatMap((module) => [
          module,
          ...module.levels.flatMap((level) => [level, ...level.options]),
        ]),
      ]);
    expect(texts.length).toBeGreaterThan(40);
    const cyrillic = /[а-яё]/i;
    for (const text of texts) {
      // The primary text is Russian, the English one is there and has no Russian in it.
      expect(text.name, text.name).toMatch(cyrillic);
      expect(text.description, text.name).toMatch(cyrillic);
      expect(text.name_en, text.name).toMatch(/^[^а-яё]+$/i);
      expect(text.description_en, text.name).toMatch(/^[^а-яё]+$/i);
    }
  });

  it('writes a history the statistics screens show', async () => {
    const admin = await login(DEMO_ADMIN.email, DEMO_ADMIN.password);
    const stats = await t.app.inject({ url: '/v1/admin/stats', headers: bearer(admin.token) });
    expect(stats.statusCode).toBe(200);
    const figures = stats.json<GlobalStats>();
    expect(figures.total_sessions).toBe(summary.total);
    expect(figures.completed_sessions).toBe(summary.byStatus.completed);
    expect(figures.cancelled_sessions).toBe(summary.byStatus.cancelled);
    expect(figures.active_sessions).toBe(0);
    expect(figures.success_rate).toBeGreaterThan(50);
    expect(figures.success_rate).toBeLessThan(95);
    expect(figures.average_duration_seconds).toBeGreaterThanOrEqual(180);
    expect(figures.scenario_stats).toHaveLength(4);

    const end = NOW.slice(0, 10);
    const start = new Date(new Date(NOW).getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
    const range = await t.app.inject({
      url: `/v1/admin/stats/range?start_date=${start}&end_date=${end}`,
      headers: bearer(admin.token),
    });
    expect(range.statusCode).toBe(200);
    const daily = range.json<StatsRange>().daily;
    expect(daily).toHaveLength(30);
    const busyDays = daily.filter((day) => day.sessions > 0);
    expect(busyDays.length).toBeGreaterThanOrEqual(20);
    // Weekdays are busier than weekends.
    const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();
    const mean = (days: typeof daily) => days.reduce((sum, d) => sum + d.sessions, 0) / days.length;
    const weekend = daily.filter((d) => [0, 6].includes(weekday(d.date)));
    const working = daily.filter((d) => ![0, 6].includes(weekday(d.date)));
    expect(mean(working)).toBeGreaterThan(3 * mean(weekend));
    expect(range.json<StatsRange>().top_organizations.map((o) => o.organization_name)).toEqual([
      DEMO_ORGANIZATION,
      PARTNER_ORGANIZATION,
    ]);
  });

  it('shows the history to the client, started by the staff account on the demo headsets', async () => {
    const staff = await login(DEMO_STAFF.email, DEMO_STAFF.password);
    const response = await t.app.inject({
      url: '/v1/sessions?limit=500',
      headers: bearer(staff.token),
    });
    expect(response.statusCode).toBe(200);
    const { sessions, total } = response.json<SessionList>();
    expect(total).toBe(summary.byOrganization[seed.demo.id]);
    expect(sessions.length).toBe(Math.min(total, 500));
    expect(new Set(sessions.map((s) => s.started_by_email))).toEqual(new Set([DEMO_STAFF.email]));
    expect(new Set(sessions.map((s) => s.status))).toEqual(
      new Set(['completed', 'cancelled', 'disconnected', 'timeout']),
    );
    const names = new Set(sessions.map((s) => s.device_name));
    for (const headset of DEMO_HEADSETS) expect(names).toContain(headset.name);
    // Each past session recorded what it ran in both languages, so history reads right in each.
    for (const session of sessions) {
      expect(session.scenario_name_en).toBeTruthy();
      expect(session.module_name_en).toBeTruthy();
      expect(session.level_name_en).toBeTruthy();
      for (const option of session.selected_options) expect(option.name_en).toBeTruthy();
    }
    expect(sessions.some((s) => s.selected_options.length > 0)).toBe(true);
  });

  it('is deterministic: a few hundred sessions, the same for the same clock', () => {
    const again = planHistory(seed, new Date(NOW), headsets);
    expect(again.length).toBe(summary.total);
    expect(again.map((row) => [row.started_at.getTime(), row.status, row.completed_tasks])).toEqual(
      planHistory(seed, new Date(NOW), headsets).map((row) => [
        row.started_at.getTime(),
        row.status,
        row.completed_tasks,
      ]),
    );
    expect(summary.total).toBeGreaterThanOrEqual(250);
    expect(summary.total).toBeLessThanOrEqual(500);
    expect(summary.byStatus.completed / summary.total).toBeGreaterThan(0.7);
    for (const status of ['cancelled', 'disconnected', 'timeout'] as const) {
      expect(summary.byStatus[status]).toBeGreaterThan(0);
    }
    const oldest = Math.min(...again.map((row) => row.started_at.getTime()));
    expect(new Date(NOW).getTime() - oldest).toBeGreaterThan((HISTORY_DAYS - 2) * 86_400_000);
    // The figures for this clock and seed; they change only when the seed's rules change.
    expect({ total: summary.total, ...summary.byStatus }).toEqual({
      total: 464,
      completed: 377,
      cancelled: 51,
      disconnected: 28,
      timeout: 8,
    });
  });
});

/**
 * The qualifications (seeded after the history, so the history's figures above stay its own):
 * read back through GET /v1/compliance, every status the rules derive, and an overdue row.
 */
describe('the demo qualifications', () => {
  let ids: Record<keyof typeof DEMO_QUALIFICATIONS, string>;
  let rows: CompliancePage['rows'];
  beforeAll(async () => {
    ids = await seedQualifications(t.db, t.clock, seed);
    const staff = await login(DEMO_STAFF.email, DEMO_STAFF.password);
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/compliance?limit=100',
      headers: bearer(staff.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    rows = response.json<CompliancePage>().rows;
  });

  it('holds two qualifications, one with a signed evaluation', async () => {
    const qualifications = await t.db
      .selectFrom('qualifications')
      .select(['id', 'evaluation_required'])
      .where('organization_id', '=', seed.demo.id)
      .execute();
    expect(qualifications).toHaveLength(2);
    expect(qualifications.find((q) => q.id === ids.forklift)?.evaluation_required).toBe(true);
    expect(qualifications.find((q) => q.id === ids.fire)?.evaluation_required).toBe(false);
  });

  it('shows a trainee in every status, and an overdue assignment', () => {
    const seen = rows.map((row) => [row.vr_user_name, row.status, row.overdue]);
    expect(seen.sort()).toEqual(
      DEMO_QUALIFIED_TRAINEES.map((spec) => [spec.name, spec.status, 'dueDaysAgo' in spec]).sort(),
    );
    const statuses = new Set(rows.map((row) => row.status));
    for (const status of [
      'qualified',
      'expiring',
      'expired',
      'pending_evaluation',
      'not_qualified',
      'revoked',
    ]) {
      expect(statuses.has(status as never), status).toBe(true);
    }
    expect(rows.filter((row) => row.overdue)).toHaveLength(1);
    expect(rows.find((row) => row.status === 'qualified')?.certificate_code).toMatch(/^[\w-]{43}$/);
  });
});
