import type { TrainingRecord } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  grantAccess,
  makeEnrolledDevice,
  makeScenarioTree,
  makeTenant,
  markDeviceSeen,
} from '../../test/factories.ts';
import { createTestApp, sweepNow, type TestApp } from '../../test/harness.ts';

/**
 * A trainee's training record (GET /v1/vr-users/:id/record and its CSV) agrees with the History,
 * its CSV and the statistics, to the session, whatever the sessions' endings.
 */
const DAY = 24 * 3600 * 1000;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { lateResultWindowMs: DAY } });
});
afterAll(() => t.close());

async function setup() {
  const staff = await makeTenant(t, { organizationName: 'Depot North' });
  const admin = await makeTenant(t, { role: 'admin' });
  const headset = await makeEnrolledDevice(t.db, staff.organization.id, {
    last_seen_at: t.clock.now(),
  });
  const fire = await makeScenarioTree(t.db, {
    scenarioName: 'Пожар',
    moduleName: 'Эвакуация',
    levelName: 'Склад',
    maxTasks: 3,
  });
  const first = await makeScenarioTree(t.db, {
    scenarioName: 'Первая помощь',
    moduleName: 'Основы',
    levelName: 'Перевязка',
    maxTasks: 2,
  });
  for (const tree of [fire, first]) {
    await grantAccess(t.db, tree.scenario.id, staff.organization.id, null, t.clock.now());
  }

  async function start(levelId: string, vrUserName = 'Ivan Petrov'): Promise<string> {
    t.clock.advance(60_000);
    await markDeviceSeen(t.db, headset.device.id, t.clock.now());
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/sessions/start',
      headers: staff.headers,
      payload: { device_id: headset.device.id, level_id: levelId, vr_user_name: vrUserName },
    });
    expect(response.statusCode).toBe(201);
    t.clock.advance(30_000);
    return response.json().id;
  }
  async function finish(id: string, completed_tasks: number, success: boolean) {
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${id}/finish`,
      headers: headset.headers,
      payload: { completed_tasks, success },
    });
    expect(response.statusCode).toBe(200);
  }
  async function disconnect(id: string) {
    t.clock.advance(t.config.disconnectAfterMs + 1);
    expect((await sweepNow(t)).disconnected).toContain(id);
  }
  return { staff, admin, headset, fire, first, start, finish, disconnect };
}

describe('training record', () => {
  it('agrees with the History, its CSV and the statistics, and keeps what was trained', async () => {
    const { staff, admin, fire, first, start, finish, disconnect } = await setup();
    const fireRevision = (
      await t.db
        .selectFrom('levels')
        .select('revision')
        .where('id', '=', fire.level.id)
        .executeTakeFirstOrThrow()
    ).revision;

    const passed = await start(fire.level.id);
    await finish(passed, 3, true);
    const failed = await start(fire.level.id);
    await finish(failed, 1, false);
    // The level is renamed between attempts: the record names it as its latest attempt ran it.
    await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/levels/${fire.level.id}`,
      headers: admin.headers,
      payload: { name: 'Склад ГСМ' },
    });
    const cancelled = await start(fire.level.id);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${cancelled}/cancel`,
      headers: staff.headers,
    });
    expect(cancel.statusCode).toBe(200);
    const lost = await start(first.level.id);
    await disconnect(lost);
    const late = await start(first.level.id);
    await disconnect(late);
    await finish(late, 2, true);
    // Someone else's session, and the trainee's running one, are no attempts.
    await finish(await start(first.level.id, 'Anna Smirnova'), 2, true);
    await start(first.level.id);
    // The first level is renamed after every attempt: the record keeps the names it ran under.
    await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/levels/${first.level.id}`,
      headers: admin.headers,
      payload: { name: 'Жгут' },
    });

    const vrUser = await t.db
      .selectFrom('vr_users')
      .select('id')
      .where('name', '=', 'Ivan Petrov')
      .executeTakeFirstOrThrow();
    const response = await t.app.inject({
      url: `/v1/vr-users/${vrUser.id}/record`,
      headers: staff.headers,
    });
    expect(response.statusCode).toBe(200);
    const record: TrainingRecord = response.json();
    const history = await t.app.inject({
      url: `/v1/sessions?vr_user_id=${vrUser.id}&limit=500`,
      headers: staff.headers,
    });
    const sessions: Array<{
      id: string;
      level_name: string;
      success: boolean | null;
      ended_at: string;
      duration_seconds: number;
    }> = history.json().sessions;
    const byId = new Map(sessions.map((session) => [session.id, session]));

    expect(record.vr_user).toEqual({ id: vrUser.id, name: 'Ivan Petrov' });
    expect(record.organization_name).toBe('Depot North');
    expect(record.levels).toMatchObject([
      {
        level_id: first.level.id,
        level_name: 'Перевязка',
        level_number: 1,
        attempts: 2,
        completions: 1,
        revisions: [expect.any(Number)],
        best: { session_id: late, completed_tasks: 2, max_tasks: 2, success: true },
        last: { session_id: late, success: true },
        first_completed_at: byId.get(late)!.ended_at,
        last_completed_at: byId.get(late)!.ended_at,
      },
      {
        level_id: fire.level.id,
        scenario_name: 'Пожар',
        level_name: 'Склад ГСМ',
        attempts: 3,
        completions: 1,
        revisions: [fireRevision, fireRevision + 1],
        best: { session_id: passed, completed_tasks: 3, max_tasks: 3, success: true },
        last: { session_id: cancelled, completed_tasks: 0, success: false },
        first_completed_at: byId.get(passed)!.ended_at,
        last_completed_at: byId.get(passed)!.ended_at,
      },
    ]);

    // The History: the same attempts, successes and time, session by session.
    expect(history.json().total).toBe(5);
    expect(new Set(sessions.map((session) => session.id))).toEqual(
      new Set([passed, failed, cancelled, lost, late]),
    );
    const successes = sessions.filter((session) => session.success === true);
    const seconds = sessions.reduce((total, session) => total + session.duration_seconds, 0);
    expect(record.totals).toEqual({
      attempts: sessions.length,
      completions: successes.length,
      levels_attempted: 2,
      levels_completed: 2,
      training_seconds: seconds,
    });
    expect(record.levels.map((level) => level.training_seconds)).toEqual([
      byId.get(lost)!.duration_seconds + byId.get(late)!.duration_seconds,
      seconds - byId.get(lost)!.duration_seconds - byId.get(late)!.duration_seconds,
    ]);

    // The History CSV: the same rows and successes.
    const historyCsv = await t.app.inject({
      url: `/v1/sessions/export?vr_user_id=${vrUser.id}`,
      headers: staff.headers,
    });
    const [header, ...rows] = historyCsv.body.slice(1).trimEnd().split('\r\n');
    const success = header!.split(',').indexOf('Success');
    expect(rows).toHaveLength(record.totals.attempts);
    expect(rows.filter((row) => row.split(',')[success] === 'Yes')).toHaveLength(
      record.totals.completions,
    );

    // The statistics (the organisation's 30 days): sessions (the running one too) and success rate.
    const analytics = await t.app.inject({
      url: `/v1/admin/organizations/${staff.organization.id}/analytics`,
      headers: admin.headers,
    });
    const figures = analytics
      .json()
      .top_vr_users.find((user: { vr_user_id: string }) => user.vr_user_id === vrUser.id);
    expect(figures).toEqual({
      vr_user_id: vrUser.id,
      name: 'Ivan Petrov',
      session_count: record.totals.attempts + 1,
      success_rate: Math.round((1000 * record.totals.completions) / record.totals.attempts) / 10,
    });

    // The record's CSV for a client naming no language: a row per level, then the totals, as the
    // file always was (csv-language.test.ts reads it in a reader's language).
    const csv = await t.app.inject({
      url: `/v1/vr-users/${vrUser.id}/record/export`,
      headers: staff.headers,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toContain('training-record_Ivan_Petrov_');
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    const [columns, ...lines] = csv.body.slice(1).trimEnd().split('\r\n');
    const cell = (line: string, name: string) => line.split(',')[columns!.split(',').indexOf(name)];
    expect(lines.map((line) => cell(line, 'Level'))).toEqual([
      'Перевязка',
      'Склад ГСМ',
      '2 completed',
    ]);
    expect(lines.map((line) => cell(line, 'Attempts'))).toEqual(['2', '3', '5']);
    expect(lines.map((line) => cell(line, 'Completions'))).toEqual(['1', '1', '2']);
    expect(cell(lines[1]!, 'Revisions')).toBe(`${fireRevision} ${fireRevision + 1}`);
  });

  it("answers 404 for another organisation's trainee, and an empty record for one not trained", async () => {
    const { staff } = await setup();
    const other = await makeTenant(t, { role: 'admin' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers: staff.headers,
      payload: { name: 'New hire' },
    });
    const id = created.json().id;
    for (const url of [`/v1/vr-users/${id}/record`, `/v1/vr-users/${id}/record/export`]) {
      const refused = await t.app.inject({ url, headers: other.headers });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().error).toBe('not_found');
    }
    const empty = await t.app.inject({ url: `/v1/vr-users/${id}/record`, headers: staff.headers });
    expect(empty.json()).toMatchObject({
      levels: [],
      totals: { attempts: 0, completions: 0, levels_attempted: 0, levels_completed: 0 },
    });
  });
});
