import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantAccess, makeEnrolledDevice, makeScenarioTree, makeTenant } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * A level's revision (migration 0011): any change to the level, its module, scenario or options
 * raises it, a session keeps the one it ran, and what was trained still reads as it was trained
 * after the content changed.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function revisionOf(levelId: string): Promise<number> {
  const row = await t.db
    .selectFrom('levels')
    .select('revision')
    .where('id', '=', levelId)
    .executeTakeFirstOrThrow();
  return row.revision;
}

describe('content revision', () => {
  it('raises on every content change, and sessions keep what they ran', async () => {
    const staff = await makeTenant(t);
    const admin = await makeTenant(t, { role: 'admin' });
    const headset = await makeEnrolledDevice(t.db, staff.organization.id, {
      last_seen_at: t.clock.now(),
    });
    const tree = await makeScenarioTree(t.db, {
      scenarioName: 'Пожарная безопасность',
      moduleName: 'Эвакуация',
      levelName: 'Склад',
      optionNames: ['Ночь', 'Дождь'],
    });
    await grantAccess(t.db, tree.scenario.id, staff.organization.id, null, t.clock.now());
    // Adding its options while it was authored raised it already.
    const authored = await revisionOf(tree.level.id);

    const start = async () => {
      const started = await t.app.inject({
        method: 'POST',
        url: '/v1/sessions/start',
        headers: staff.headers,
        payload: {
          device_id: headset.device.id,
          level_id: tree.level.id,
          vr_user_name: 'Ivan Petrov',
          selected_options: [tree.options[0]!.id],
        },
      });
      expect(started.statusCode).toBe(201);
      const session = started.json();
      const finish = await t.app.inject({
        method: 'POST',
        url: `/v1/headset/sessions/${session.id}/finish`,
        headers: headset.headers,
        payload: { completed_tasks: 3, success: true },
      });
      expect(finish.statusCode).toBe(200);
      return session;
    };
    const first = await start();
    expect(first).toMatchObject({ level_revision: authored, level_name: 'Склад' });

    // Each kind of change raises the level's revision by one, whoever's row it is.
    const changes: Array<[string, string, object?]> = [
      ['PUT', `/v1/admin/scenarios/${tree.scenario.id}`, { name: 'Пожарная безопасность 2024' }],
      ['PUT', `/v1/admin/scenarios/${tree.scenario.id}`, { name_en: 'Fire safety' }],
      ['PUT', `/v1/admin/modules/${tree.module.id}`, { description: 'Новый порядок' }],
      ['PUT', `/v1/admin/levels/${tree.level.id}`, { name: 'Склад ГСМ' }],
      ['PUT', `/v1/admin/levels/${tree.level.id}`, { max_tasks: 5 }],
      ['PUT', `/v1/admin/levels/${tree.level.id}`, { name_en: 'Fuel depot' }],
      ['PUT', `/v1/admin/level-options/${tree.options[0]!.id}`, { name: 'Сумерки' }],
      ['POST', `/v1/admin/levels/${tree.level.id}/options`, { name: 'Туман', order_index: 2 }],
      ['DELETE', `/v1/admin/level-options/${tree.options[1]!.id}`],
    ];
    let expected = authored;
    for (const [method, url, payload] of changes) {
      const response = await t.app.inject({
        method: method as 'PUT' | 'POST' | 'DELETE',
        url,
        headers: admin.headers,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBeLessThan(300);
      expected += 1;
      expect(await revisionOf(tree.level.id), `${method} ${url}`).toBe(expected);
    }
    // Switching the scenario off and on decides who may start it, not what it trains; saving the
    // same values changes nothing.
    for (const active of [false, true]) {
      await t.app.inject({
        method: 'PUT',
        url: `/v1/admin/scenarios/${tree.scenario.id}`,
        headers: admin.headers,
        payload: { active },
      });
    }
    await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/levels/${tree.level.id}`,
      headers: admin.headers,
      payload: { name: 'Склад ГСМ', max_tasks: 5 },
    });
    expect(await revisionOf(tree.level.id)).toBe(expected);

    // What the first session trained still reads as it was: names, options, max tasks, revision.
    const detail = await t.app.inject({ url: `/v1/sessions/${first.id}`, headers: staff.headers });
    expect(detail.json()).toMatchObject({
      scenario_name: 'Пожарная безопасность',
      scenario_name_en: null,
      module_name: 'Эвакуация',
      level_name: 'Склад',
      level_name_en: null,
      total_tasks: 3,
      level_revision: authored,
      selected_options: [{ id: tree.options[0]!.id, name: 'Ночь' }],
    });

    t.clock.advance(1000);
    const second = await start();
    expect(second).toMatchObject({
      level_revision: expected,
      scenario_name: 'Пожарная безопасность 2024',
      scenario_name_en: 'Fire safety',
      level_name: 'Склад ГСМ',
      level_name_en: 'Fuel depot',
      max_tasks: 5,
      selected_options: [{ id: tree.options[0]!.id, name: 'Сумерки' }],
    });

    const history = await t.app.inject({ url: '/v1/sessions', headers: staff.headers });
    expect(
      history
        .json()
        .sessions.map((s: { id: string; level_name: string; level_revision: number }) => [
          s.id,
          s.level_name,
          s.level_revision,
        ]),
    ).toEqual([
      [second.id, 'Склад ГСМ', expected],
      [first.id, 'Склад', authored],
    ]);

    const timeline = await t.app.inject({
      url: `/v1/vr-users/${first.vr_user_id}/sessions`,
      headers: staff.headers,
    });
    expect(
      timeline
        .json()
        .sessions.map((s: { level_number: number; level_revision: number }) => [
          s.level_number,
          s.level_revision,
        ]),
    ).toEqual([
      [1, expected],
      [1, authored],
    ]);

    // Today's file (no language named: names in Russian) and an English reader's.
    const files = [
      { query: '', level: 'Склад ГСМ', columns: ['Level', 'Level Revision', 'Total Tasks'] },
      {
        query: '?lang=en',
        level: 'Fuel depot',
        columns: ['Level', 'Level revision', 'Total tasks'],
      },
    ];
    for (const file of files) {
      const csv = await t.app.inject({
        url: `/v1/sessions/export${file.query}`,
        headers: staff.headers,
      });
      const [header, ...rows] = csv.body.slice(1).trimEnd().split('\r\n');
      const columns = header!.split(',');
      const [level, revision, total] = file.columns.map((name) => columns.indexOf(name));
      const cells = rows.map((row) => row.split(','));
      expect(revision).toBeGreaterThan(0);
      expect(cells.map((row) => [row[level!], row[revision!]])).toEqual([
        [file.level, String(expected)],
        ['Склад', String(authored)],
      ]);
      expect(cells[1]![total!]).toBe('3');
    }
  });

  it('raises only the levels under the change, and works for writes outside the API', async () => {
    const a = await makeScenarioTree(t.db, { scenarioName: 'A', optionNames: ['Ночь'] });
    const b = await makeScenarioTree(t.db, { scenarioName: 'B', optionNames: [] });
    const [a0, b0] = [await revisionOf(a.level.id), await revisionOf(b.level.id)];
    expect(b0).toBe(1);
    await t.db
      .updateTable('modules')
      .set({ name: 'A module' })
      .where('id', '=', a.module.id)
      .execute();
    expect([await revisionOf(a.level.id), await revisionOf(b.level.id)]).toEqual([a0 + 1, b0]);
    // An option moved from A's level to B's changes both.
    await t.db
      .updateTable('level_options')
      .set({ level_id: b.level.id })
      .where('id', '=', a.options[0]!.id)
      .execute();
    expect([await revisionOf(a.level.id), await revisionOf(b.level.id)]).toEqual([a0 + 2, b0 + 1]);
    // A level moved to another module.
    await t.db
      .updateTable('levels')
      .set({ module_id: a.module.id, level_number: 2 })
      .where('id', '=', b.level.id)
      .execute();
    expect(await revisionOf(b.level.id)).toBe(b0 + 2);
    // Deleting a level with its options fails nothing and raises no other level.
    await t.db.deleteFrom('levels').where('id', '=', b.level.id).execute();
    expect(await revisionOf(a.level.id)).toBe(a0 + 2);
  });
});
