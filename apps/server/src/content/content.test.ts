import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeOrganization,
  makeScenarioTree,
  makeSession,
  makeTenant,
} from '../../test/factories.ts';

let t: TestApp;
let admin: Record<string, string>;
let client: Record<string, string>;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  t = await createTestApp();
  admin = (await makeTenant(t, { role: 'admin' })).headers;
  client = (await makeTenant(t)).headers;
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: object, headers = admin) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

async function created(url: string, payload: object) {
  const response = await call('POST', url, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('scenarios', () => {
  it('creates, lists with module counts, reads, updates and deletes', async () => {
    const scenario = await created('/v1/admin/scenarios', {
      name: '  Fire safety ',
      description: ' Drills ',
    });
    expect(scenario).toMatchObject({
      name: 'Fire safety',
      description: 'Drills',
      active: true,
      module_count: 0,
      created_at: t.clock.now().toISOString(),
    });
    const bare = await created('/v1/admin/scenarios', { name: 'Another' });
    expect(bare.description).toBe('');
    await created(`/v1/admin/scenarios/${scenario.id}/modules`, { name: 'M1' });
    await created(`/v1/admin/scenarios/${scenario.id}/modules`, { name: 'M2' });

    const list = await call('GET', '/v1/admin/scenarios');
    expect(list.statusCode).toBe(200);
    const listed = list.json().scenarios;
    expect(listed.find((s: { id: string }) => s.id === scenario.id)).toEqual({
      ...scenario,
      module_count: 2,
    });
    expect(listed.find((s: { id: string }) => s.id === bare.id)).toMatchObject({ module_count: 0 });

    const updated = await call('PUT', `/v1/admin/scenarios/${scenario.id}`, {
      active: false,
      description: null,
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Fire safety',
      description: '',
      active: false,
      module_count: 2,
    });
    const renamed = await call('PUT', `/v1/admin/scenarios/${scenario.id}`, { name: 'Fire' });
    expect(renamed.json()).toMatchObject({ name: 'Fire', active: false });
    const unchanged = await call('PUT', `/v1/admin/scenarios/${scenario.id}`, {});
    expect(unchanged.json()).toMatchObject({ name: 'Fire', active: false });

    const deleted = await call('DELETE', `/v1/admin/scenarios/${bare.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ ok: true });
    expect((await call('GET', `/v1/admin/scenarios/${bare.id}`)).statusCode).toBe(404);
  });

  it('returns one scenario with its tree in display order', async () => {
    const scenario = await created('/v1/admin/scenarios', { name: 'Ordered' });
    const base = `/v1/admin/scenarios/${scenario.id}/modules`;
    const second = await created(base, { name: 'Second', order_index: 5 });
    const first = await created(base, { name: 'First', order_index: 1 });
    const third = await created(base, { name: 'Third' });
    expect(third.order_index).toBe(6); // next after the last
    const level2 = await created(`/v1/admin/modules/${first.id}/levels`, {
      name: 'L2',
      level_number: 2,
    });
    const level1 = await created(`/v1/admin/modules/${first.id}/levels`, {
      name: 'L1',
      level_number: 1,
      max_tasks: 7,
      description: 'Easy',
    });
    expect(level2.max_tasks).toBe(3);
    await created(`/v1/admin/levels/${level1.id}/options`, { name: 'Rain', order_index: 2 });
    await created(`/v1/admin/levels/${level1.id}/options`, { name: 'Night', order_index: 0 });

    const response = await call('GET', `/v1/admin/scenarios/${scenario.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ id: scenario.id, name: 'Ordered', module_count: 3 });
    expect(body.modules.map((m: { name: string }) => m.name)).toEqual(['First', 'Second', 'Third']);
    expect(body.modules[0].levels.map((l: { name: string }) => l.name)).toEqual(['L1', 'L2']);
    expect(body.modules[0].levels[0]).toMatchObject({
      id: level1.id,
      module_id: first.id,
      level_number: 1,
      max_tasks: 7,
      description: 'Easy',
    });
    expect(body.modules[0].levels[0].options.map((o: { name: string }) => o.name)).toEqual([
      'Night',
      'Rain',
    ]);
    expect(body.modules[1]).toMatchObject({ id: second.id, levels: [] });
  });

  it('deleting a scenario removes its content and grants but keeps session history', async () => {
    const tree = await makeScenarioTree(t.db, {
      scenarioName: 'Doomed',
      moduleName: 'Mod',
      levelName: 'Lev',
    });
    const organization = await makeOrganization(t.db);
    await grantAccess(t.db, tree.scenario.id, organization.id, null);
    const session = await makeSession(t.db, {
      organizationId: organization.id,
      scenarioId: tree.scenario.id,
      levelId: tree.level.id,
      scenarioName: 'Doomed',
      moduleName: 'Mod',
      levelName: 'Lev',
    });

    const response = await call('DELETE', `/v1/admin/scenarios/${tree.scenario.id}`);
    expect(response.statusCode).toBe(200);

    const db = t.db;
    expect(
      await db
        .selectFrom('modules')
        .select('id')
        .where('scenario_id', '=', tree.scenario.id)
        .execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('levels').select('id').where('module_id', '=', tree.module.id).execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('level_options')
        .select('id')
        .where('level_id', '=', tree.level.id)
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('scenario_access')
        .select('organization_id')
        .where('scenario_id', '=', tree.scenario.id)
        .execute(),
    ).toEqual([]);
    const kept = await t.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(kept).toMatchObject({
      scenario_id: null,
      level_id: null,
      scenario_name: 'Doomed',
      module_name: 'Mod',
      level_name: 'Lev',
    });
  });

  it('validates scenario input and answers 404 for unknown ids', async () => {
    const cases = [
      [{}, 'body.name is required'],
      [{ name: '   ' }, 'body.name must not be blank'],
      [{ name: 'x'.repeat(201) }, 'body.name must NOT have more than 200 characters'],
      [{ name: 'A', description: 'x'.repeat(5001) }, 'body.description'],
      [{ name: 'A', extra: 1 }, 'body.extra is not allowed'],
    ] as const;
    for (const [payload, message] of cases) {
      const response = await call('POST', '/v1/admin/scenarios', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    const badActive = await call('PUT', `/v1/admin/scenarios/${UNKNOWN}`, { active: 'yes' });
    expect(badActive.statusCode).toBe(400);
    expect(badActive.json().message).toContain('body.active');
    const badId = await call('GET', '/v1/admin/scenarios/nope');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe('params.id must be a valid uuid');

    for (const [method, url, payload] of [
      ['GET', `/v1/admin/scenarios/${UNKNOWN}`],
      ['PUT', `/v1/admin/scenarios/${UNKNOWN}`, { name: 'A' }],
      ['PUT', `/v1/admin/scenarios/${UNKNOWN}`, {}],
      ['DELETE', `/v1/admin/scenarios/${UNKNOWN}`],
    ] as const) {
      const response = await call(method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Scenario not found' });
    }
  });
});

describe('modules, levels and options', () => {
  it('lists, updates and deletes each kind, cascading downwards', async () => {
    const scenario = await created('/v1/admin/scenarios', { name: 'Parent' });
    const module = await created(`/v1/admin/scenarios/${scenario.id}/modules`, {
      name: 'Mod',
      description: 'd',
    });
    expect(module).toMatchObject({
      scenario_id: scenario.id,
      name: 'Mod',
      description: 'd',
      order_index: 0,
    });
    const level = await created(`/v1/admin/modules/${module.id}/levels`, {
      name: 'Lev',
      level_number: 1,
    });
    const option = await created(`/v1/admin/levels/${level.id}/options`, {
      name: 'Opt',
      order_index: 0,
    });
    expect(option).toMatchObject({
      level_id: level.id,
      name: 'Opt',
      description: '',
      order_index: 0,
    });

    const modules = await call('GET', `/v1/admin/scenarios/${scenario.id}/modules`);
    expect(modules.json()).toEqual({ modules: [module], total: 1, limit: 50, offset: 0 });
    const levels = await call('GET', `/v1/admin/modules/${module.id}/levels`);
    expect(levels.json()).toEqual({ levels: [level], total: 1, limit: 50, offset: 0 });
    const options = await call('GET', `/v1/admin/levels/${level.id}/options`);
    expect(options.json()).toEqual({ options: [option], total: 1, limit: 50, offset: 0 });

    const m = await call('PUT', `/v1/admin/modules/${module.id}`, {
      name: 'Mod 2',
      order_index: 4,
    });
    expect(m.statusCode).toBe(200);
    expect(m.json()).toMatchObject({
      id: module.id,
      name: 'Mod 2',
      description: 'd',
      order_index: 4,
    });
    const l = await call('PUT', `/v1/admin/levels/${level.id}`, {
      level_number: 3,
      max_tasks: 9,
      description: 'x',
    });
    expect(l.json()).toMatchObject({
      id: level.id,
      name: 'Lev',
      level_number: 3,
      max_tasks: 9,
      description: 'x',
    });
    const o = await call('PUT', `/v1/admin/level-options/${option.id}`, {
      name: 'Opt 2',
      order_index: 2,
    });
    expect(o.json()).toMatchObject({ id: option.id, name: 'Opt 2', order_index: 2 });
    const noop = await call('PUT', `/v1/admin/level-options/${option.id}`, {});
    expect(noop.json()).toMatchObject({ name: 'Opt 2' });

    expect((await call('DELETE', `/v1/admin/level-options/${option.id}`)).json()).toEqual({
      ok: true,
    });
    expect((await call('GET', `/v1/admin/levels/${level.id}/options`)).json()).toEqual({
      options: [],
      total: 0,
      limit: 50,
      offset: 0,
    });

    const other = await created(`/v1/admin/levels/${level.id}/options`, {
      name: 'Other',
      order_index: 0,
    });
    expect((await call('DELETE', `/v1/admin/modules/${module.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/v1/admin/modules/${module.id}/levels`)).statusCode).toBe(404);
    expect((await call('PUT', `/v1/admin/levels/${level.id}`, { name: 'x' })).statusCode).toBe(404);
    expect(
      (await call('PUT', `/v1/admin/level-options/${other.id}`, { name: 'x' })).statusCode,
    ).toBe(404);

    const module2 = await created(`/v1/admin/scenarios/${scenario.id}/modules`, { name: 'Again' });
    expect(module2.order_index).toBe(0); // the scenario has no module left
    const level2 = await created(`/v1/admin/modules/${module2.id}/levels`, {
      name: 'L',
      level_number: 1,
    });
    await created(`/v1/admin/levels/${level2.id}/options`, { name: 'O', order_index: 0 });
    expect((await call('DELETE', `/v1/admin/levels/${level2.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/v1/admin/levels/${level2.id}/options`)).statusCode).toBe(404);
    expect((await call('GET', `/v1/admin/modules/${module2.id}/levels`)).json()).toEqual({
      levels: [],
      total: 0,
      limit: 50,
      offset: 0,
    });
  });

  it('validates bodies, naming the field', async () => {
    const { scenario, module, level, options } = await makeScenarioTree(t.db);
    const cases: Array<[Method, string, object, string]> = [
      [
        'POST',
        `/v1/admin/scenarios/${scenario.id}/modules`,
        { name: ' ' },
        'body.name must not be blank',
      ],
      [
        'POST',
        `/v1/admin/scenarios/${scenario.id}/modules`,
        { name: 'M', order_index: -1 },
        'body.order_index must be >= 0',
      ],
      [
        'POST',
        `/v1/admin/scenarios/${scenario.id}/modules`,
        { name: 'M', order_index: 1.5 },
        'body.order_index must be integer',
      ],
      [
        'PUT',
        `/v1/admin/modules/${module.id}`,
        { order_index: -1 },
        'body.order_index must be >= 0',
      ],
      ['PUT', `/v1/admin/modules/${module.id}`, { name: '' }, 'body.name'],
      [
        'POST',
        `/v1/admin/modules/${module.id}/levels`,
        { name: 'L' },
        'body.level_number is required',
      ],
      [
        'POST',
        `/v1/admin/modules/${module.id}/levels`,
        { name: 'L', level_number: 0 },
        'body.level_number must be >= 1',
      ],
      [
        'POST',
        `/v1/admin/modules/${module.id}/levels`,
        { name: 'L', level_number: 1, max_tasks: 0 },
        'body.max_tasks must be >= 1',
      ],
      [
        'POST',
        `/v1/admin/modules/${module.id}/levels`,
        { name: 'L', level_number: 1, max_tasks: 1001 },
        'body.max_tasks must be <= 1000',
      ],
      ['POST', `/v1/admin/modules/${module.id}/levels`, { name: '', level_number: 1 }, 'body.name'],
      [
        'PUT',
        `/v1/admin/levels/${level.id}`,
        { level_number: 0 },
        'body.level_number must be >= 1',
      ],
      [
        'PUT',
        `/v1/admin/levels/${level.id}`,
        { level_number: '2' },
        'body.level_number must be integer',
      ],
      [
        'POST',
        `/v1/admin/levels/${level.id}/options`,
        { name: 'O' },
        'body.order_index is required',
      ],
      [
        'POST',
        `/v1/admin/levels/${level.id}/options`,
        { name: 'O', order_index: -1 },
        'body.order_index must be >= 0',
      ],
      [
        'POST',
        `/v1/admin/levels/${level.id}/options`,
        { name: '\t', order_index: 0 },
        'body.name must not be blank',
      ],
      [
        'PUT',
        `/v1/admin/level-options/${options[0]!.id}`,
        { order_index: -1 },
        'body.order_index must be >= 0',
      ],
      [
        'PUT',
        `/v1/admin/level-options/${options[0]!.id}`,
        { level_id: level.id },
        'body.level_id is not allowed',
      ],
    ];
    for (const [method, url, payload, message] of cases) {
      const response = await call(method, url, payload);
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(response.json()).toMatchObject({ error: 'validation_error' });
      expect(response.json().message).toContain(message);
    }
  });

  it('answers 404 for unknown parents and ids', async () => {
    const cases: Array<[Method, string, object | undefined, string]> = [
      ['GET', `/v1/admin/scenarios/${UNKNOWN}/modules`, undefined, 'Scenario not found'],
      ['POST', `/v1/admin/scenarios/${UNKNOWN}/modules`, { name: 'M' }, 'Scenario not found'],
      ['PUT', `/v1/admin/modules/${UNKNOWN}`, { name: 'M' }, 'Module not found'],
      ['PUT', `/v1/admin/modules/${UNKNOWN}`, {}, 'Module not found'],
      ['DELETE', `/v1/admin/modules/${UNKNOWN}`, undefined, 'Module not found'],
      ['GET', `/v1/admin/modules/${UNKNOWN}/levels`, undefined, 'Module not found'],
      [
        'POST',
        `/v1/admin/modules/${UNKNOWN}/levels`,
        { name: 'L', level_number: 1 },
        'Module not found',
      ],
      ['PUT', `/v1/admin/levels/${UNKNOWN}`, { name: 'L' }, 'Level not found'],
      ['DELETE', `/v1/admin/levels/${UNKNOWN}`, undefined, 'Level not found'],
      ['GET', `/v1/admin/levels/${UNKNOWN}/options`, undefined, 'Level not found'],
      [
        'POST',
        `/v1/admin/levels/${UNKNOWN}/options`,
        { name: 'O', order_index: 0 },
        'Level not found',
      ],
      ['PUT', `/v1/admin/level-options/${UNKNOWN}`, { name: 'O' }, 'Level option not found'],
      ['DELETE', `/v1/admin/level-options/${UNKNOWN}`, undefined, 'Level option not found'],
    ];
    for (const [method, url, payload, message] of cases) {
      const response = await call(method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message });
    }
  });

  it('refuses every content route to a client token (403)', async () => {
    const { scenario, module, level, options } = await makeScenarioTree(t.db);
    const routes: Array<[Method, string, object?]> = [
      ['GET', '/v1/admin/scenarios'],
      ['POST', '/v1/admin/scenarios', { name: 'X' }],
      ['GET', `/v1/admin/scenarios/${scenario.id}`],
      ['PUT', `/v1/admin/scenarios/${scenario.id}`, { name: 'X' }],
      ['DELETE', `/v1/admin/scenarios/${scenario.id}`],
      ['GET', `/v1/admin/scenarios/${scenario.id}/modules`],
      ['POST', `/v1/admin/scenarios/${scenario.id}/modules`, { name: 'X' }],
      ['PUT', `/v1/admin/modules/${module.id}`, { name: 'X' }],
      ['DELETE', `/v1/admin/modules/${module.id}`],
      ['GET', `/v1/admin/modules/${module.id}/levels`],
      ['POST', `/v1/admin/modules/${module.id}/levels`, { name: 'X', level_number: 1 }],
      ['PUT', `/v1/admin/levels/${level.id}`, { name: 'X' }],
      ['DELETE', `/v1/admin/levels/${level.id}`],
      ['GET', `/v1/admin/levels/${level.id}/options`],
      ['POST', `/v1/admin/levels/${level.id}/options`, { name: 'X', order_index: 0 }],
      ['PUT', `/v1/admin/level-options/${options[0]!.id}`, { name: 'X' }],
      ['DELETE', `/v1/admin/level-options/${options[0]!.id}`],
    ];
    for (const [method, url, payload] of routes) {
      const response = await call(method, url, payload, client);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error).toBe('forbidden');
    }
    const still = await call('GET', `/v1/admin/scenarios/${scenario.id}`);
    expect(still.json().modules[0].levels[0].options).toHaveLength(2);
  });
});

describe('content in two languages, and level numbers', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    headers = (await makeTenant(t, { role: 'admin' })).headers;
  });
  afterAll(() => t.close());

  const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
    t.app.inject({ method, url, headers, payload });

  it('stores an optional English name and description beside the primary ones', async () => {
    const created = await call('POST', '/v1/admin/scenarios', {
      name: 'Работа на высоте',
      name_en: ' Working at Height ',
      description_en: 'Harness and ladders',
    });
    expect(created.statusCode).toBe(201);
    const scenario = created.json();
    expect(scenario).toMatchObject({
      name: 'Работа на высоте',
      name_en: 'Working at Height',
      description: '',
      description_en: 'Harness and ladders',
    });
    // Absent leaves the English text; blank or null removes it.
    const renamed = await call('PUT', `/v1/admin/scenarios/${scenario.id}`, { name: 'Высота' });
    expect(renamed.json()).toMatchObject({ name: 'Высота', name_en: 'Working at Height' });
    const cleared = await call('PUT', `/v1/admin/scenarios/${scenario.id}`, {
      name_en: '  ',
      description_en: null,
    });
    expect(cleared.json()).toMatchObject({ name_en: null, description_en: null });

    const module = (
      await call('POST', `/v1/admin/scenarios/${scenario.id}/modules`, {
        name: 'Лестницы',
        name_en: 'Ladders',
      })
    ).json();
    const level = (
      await call('POST', `/v1/admin/modules/${module.id}/levels`, {
        name: 'Основы',
        name_en: 'Basics',
        level_number: 1,
      })
    ).json();
    const option = (
      await call('POST', `/v1/admin/levels/${level.id}/options`, {
        name: 'Ветер',
        name_en: 'Wind',
        order_index: 0,
      })
    ).json();
    expect([module.name_en, level.name_en, option.name_en]).toEqual(['Ladders', 'Basics', 'Wind']);
    const found = await t.app.inject({
      url: `/v1/admin/scenarios?q=${encodeURIComponent('Working at')}`,
      headers,
    });
    expect(found.json().total).toBe(0); // cleared above
    const byModule = await t.app.inject({
      url: `/v1/admin/scenarios/${scenario.id}/modules?q=ladd`,
      headers,
    });
    expect(byModule.json().total).toBe(1);
  });

  it('refuses a second level with the same number in one module', async () => {
    const scenario = (await call('POST', '/v1/admin/scenarios', { name: 'S' })).json();
    const module = (
      await call('POST', `/v1/admin/scenarios/${scenario.id}/modules`, { name: 'M' })
    ).json();
    const first = await call('POST', `/v1/admin/modules/${module.id}/levels`, {
      name: 'One',
      level_number: 1,
    });
    const second = await call('POST', `/v1/admin/modules/${module.id}/levels`, {
      name: 'Two',
      level_number: 2,
    });
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const taken = {
      error: 'level_number_taken',
      message: 'Level number 1 is already used in this module',
      details: { level_number: 1 },
    };
    const duplicate = await call('POST', `/v1/admin/modules/${module.id}/levels`, {
      name: 'Again',
      level_number: 1,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual(taken);
    const moved = await call('PUT', `/v1/admin/levels/${second.json().id}`, { level_number: 1 });
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toEqual(taken);
    // Another module may use the number.
    const other = (
      await call('POST', `/v1/admin/scenarios/${scenario.id}/modules`, { name: 'N' })
    ).json();
    expect(
      (await call('POST', `/v1/admin/modules/${other.id}/levels`, { name: 'One', level_number: 1 }))
        .statusCode,
    ).toBe(201);
    // Zero is refused, never rewritten.
    const zero = await call('POST', `/v1/admin/modules/${other.id}/levels`, {
      name: 'Zero',
      level_number: 0,
    });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().message).toBe('body.level_number must be >= 1');
  });
});
