import crypto from 'node:crypto';
import Papa from 'papaparse';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  grantAccess,
  makeAccount,
  makeDevice,
  makeOrganization,
  makeScenarioTree,
  makeSession,
  makeTenant,
  makeVrUser,
} from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * Every list is paged, sorted and searched on the server, and keeps its specification key with
 * `total`, `limit` and `offset` beside it.
 */

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

interface Page {
  total: number;
  limit: number;
  offset: number;
  [key: string]: unknown;
}

async function get(url: string, headers: Record<string, string>): Promise<Page> {
  const response = await t.app.inject({ url, headers });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<Page>();
}

/** A fresh, unique word to name and find this test's rows. */
const word = () => `w${crypto.randomBytes(3).toString('hex')}`;

/**
 * Twelve rows named `${prefix} 01`…`${prefix} 12` are listed by `base` under `key`; checks paging,
 * the total, sorting by `sortField` both ways, and `q`.
 */
async function expectPagedList(options: {
  base: string;
  key: string;
  headers: Record<string, string>;
  prefix: string;
  nameOf: (row: Record<string, unknown>) => string;
  sortField: string;
  /** How a row's name is typed into the search (default: as it is). */
  searchFor?: (name: string) => string;
}) {
  const { base, key, headers, prefix, nameOf, sortField, searchFor = (name) => name } = options;
  const join = base.includes('?') ? '&' : '?';
  const url = (query: string) => `${base}${join}${query}`;
  const names = (page: Page) => (page[key] as Array<Record<string, unknown>>).map(nameOf);
  const expected = Array.from(
    { length: 12 },
    (_, i) => `${prefix} ${String(i + 1).padStart(2, '0')}`,
  );

  const first = await get(url(`q=${prefix}&limit=5&sort=${sortField}`), headers);
  expect(first).toMatchObject({ total: 12, limit: 5, offset: 0 });
  expect(names(first)).toEqual(expected.slice(0, 5));
  const last = await get(url(`q=${prefix}&limit=5&offset=10&sort=${sortField}`), headers);
  expect(names(last)).toEqual(expected.slice(10));
  expect(last.total).toBe(12);
  const descending = await get(url(`q=${prefix}&limit=3&sort=${sortField}&order=desc`), headers);
  expect(names(descending)).toEqual([...expected].reverse().slice(0, 3));
  const beyond = await get(url(`q=${prefix}&offset=100`), headers);
  expect(beyond).toMatchObject({ total: 12, offset: 100, [key]: [] });
  const one = await get(
    url(`q=${encodeURIComponent(searchFor(`${prefix} 07`).toUpperCase())}`),
    headers,
  );
  expect(names(one)).toEqual([`${prefix} 07`]);
  // LIKE's wildcards are taken literally.
  const wildcard = await get(url(`q=${encodeURIComponent(`${prefix}%`)}`), headers);
  expect(wildcard.total).toBe(0);
}

const twelve = async (make: (name: string, index: number) => Promise<unknown>, prefix: string) => {
  // Created out of order, so the sort is the server's, not the insertion's.
  for (const i of [7, 2, 11, 0, 5, 9, 3, 10, 1, 8, 6, 4]) {
    await make(`${prefix} ${String(i + 1).padStart(2, '0')}`, i);
  }
};

describe('lists', () => {
  it('VR users: paged, sorted by name or by their session counts, searched by name and notes', async () => {
    const tenant = await makeTenant(t);
    const prefix = word();
    const people: Record<string, string> = {};
    await twelve(async (name) => {
      people[name] = (await makeVrUser(t.db, tenant.organization.id, { name })).id;
    }, prefix);
    await expectPagedList({
      base: '/v1/vr-users',
      key: 'vr_users',
      headers: tenant.headers,
      prefix,
      nameOf: (row) => String(row.name),
      sortField: 'name',
    });
    for (let i = 0; i < 3; i++) {
      await makeSession(t.db, {
        organizationId: tenant.organization.id,
        vrUserId: people[`${prefix} 04`]!,
      });
    }
    await makeSession(t.db, {
      organizationId: tenant.organization.id,
      vrUserId: people[`${prefix} 09`]!,
    });
    const busiest = await get('/v1/vr-users?sort=session_count&order=desc&limit=2', tenant.headers);
    expect(
      (busiest.vr_users as Array<{ name: string; session_count: number }>).map((v) => [
        v.name,
        v.session_count,
      ]),
    ).toEqual([
      [`${prefix} 04`, 3],
      [`${prefix} 09`, 1],
    ]);
    // Pages past the middle are read from the far end: walked page by page, every order (nulls
    // last either way) gives the same rows as one page of all.
    for (const order of ['sort=last_session_at', 'sort=last_session_at&order=desc', 'order=desc']) {
      const whole = await get(`/v1/vr-users?${order}&limit=100`, tenant.headers);
      const walked: unknown[] = [];
      for (let offset = 0; offset < 12; offset += 5) {
        const page = await get(`/v1/vr-users?${order}&limit=5&offset=${offset}`, tenant.headers);
        expect(page.total).toBe(12);
        walked.push(...(page.vr_users as Array<{ id: string }>).map((v) => v.id));
      }
      const ids = (whole.vr_users as Array<{ id: string; last_session_at: string | null }>).map(
        (v) => v.id,
      );
      expect(walked, order).toEqual(ids);
    }
    const lastSeen = await get(
      '/v1/vr-users?sort=last_session_at&limit=5&offset=10',
      tenant.headers,
    );
    expect(
      (lastSeen.vr_users as Array<{ last_session_at: string | null }>).map(
        (v) => v.last_session_at,
      ),
    ).toEqual([null, null]);
    await makeVrUser(t.db, tenant.organization.id, {
      name: 'Someone',
      notes: `met at ${prefix}-day`,
    });
    const byNotes = await get(`/v1/vr-users?q=${prefix}-day`, tenant.headers);
    expect((byNotes.vr_users as Array<{ name: string }>).map((v) => v.name)).toEqual(['Someone']);
    // Shorter than a trigram: the search indexes cannot serve it, the scan still does.
    await makeVrUser(t.db, tenant.organization.id, { name: `${prefix} Qx` });
    const twoLetters = await get('/v1/vr-users?q=qX', tenant.headers);
    expect((twoLetters.vr_users as Array<{ name: string }>).map((v) => v.name)).toEqual([
      `${prefix} Qx`,
    ]);
  });

  it('devices: paged within the organisation and by status', async () => {
    const tenant = await makeTenant(t);
    const prefix = word();
    await twelve(
      (name, i) =>
        makeDevice(t.db, tenant.organization.id, {
          name,
          last_seen_at: i % 2 ? t.clock.now() : null,
        }),
      prefix,
    );
    await expectPagedList({
      base: '/v1/devices',
      key: 'devices',
      headers: tenant.headers,
      prefix,
      nameOf: (row) => String(row.name),
      sortField: 'name',
    });
    const waiting = await get('/v1/devices?status=waiting&limit=2', tenant.headers);
    expect(waiting.total).toBe(6);
  });

  it('admin devices: paged across organisations, searched by organisation too, with status counts', async () => {
    const organization = await makeOrganization(t.db, { name: `Fleet ${word()}` });
    const prefix = word();
    await twelve(
      (name, i) =>
        makeDevice(t.db, organization.id, { name, last_seen_at: i < 4 ? t.clock.now() : null }),
      prefix,
    );
    await expectPagedList({
      base: '/v1/admin/devices/all',
      key: 'devices',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.name),
      sortField: 'name',
    });
    const page = await get(
      `/v1/admin/devices/all?organization_id=${organization.id}&status=waiting&limit=1`,
      admin.headers,
    );
    expect(page.total).toBe(4);
    // The stat cards count by status under every filter but status and q.
    expect(page.summary).toEqual({ total: 12, waiting: 4, in_session: 0, offline: 8 });
    const byOrganization = await get(
      `/v1/admin/devices/all?q=${encodeURIComponent(organization.name)}`,
      admin.headers,
    );
    expect(byOrganization.total).toBe(12);
    // Walked page by page (pages past the middle are read from the far end), each order gives the
    // rows of one page of all, last-seen nulls last either way.
    const scope = `organization_id=${organization.id}`;
    for (const order of ['sort=last_seen', 'sort=last_seen&order=desc', 'sort=status&order=desc']) {
      const whole = await get(`/v1/admin/devices/all?${scope}&${order}&limit=100`, admin.headers);
      const walked: unknown[] = [];
      for (let offset = 0; offset < 12; offset += 5) {
        const part = await get(
          `/v1/admin/devices/all?${scope}&${order}&limit=5&offset=${offset}`,
          admin.headers,
        );
        walked.push(...(part.devices as Array<{ id: string }>).map((d) => d.id));
      }
      expect(walked, order).toEqual((whole.devices as Array<{ id: string }>).map((d) => d.id));
      if (order === 'sort=last_seen') {
        expect((whole.devices as Array<{ last_seen: unknown }>).at(-1)!.last_seen).toBeNull();
      }
    }
  });

  it('accounts: paged, sorted, searched by email', async () => {
    const prefix = word();
    await twelve(
      (name) => makeAccount(t.db, { email: `${name.replace(' ', '.')}@example.com` }),
      prefix,
    );
    await expectPagedList({
      base: '/v1/admin/users',
      key: 'users',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.email).replace('@example.com', '').replace('.', ' '),
      sortField: 'email',
      searchFor: (name) => name.replace(' ', '.'),
    });
  });

  it('organisations: paged with figures and a summary, sortable by a figure', async () => {
    const prefix = word();
    const ids: Record<string, string> = {};
    await twelve(async (name) => {
      ids[name] = (await makeOrganization(t.db, { name })).id;
    }, prefix);
    await expectPagedList({
      base: '/v1/admin/organizations?include_stats=true',
      key: 'organizations',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.name),
      sortField: 'name',
    });
    await makeDevice(t.db, ids[`${prefix} 05`]!, { last_seen_at: t.clock.now() });
    await makeDevice(t.db, ids[`${prefix} 05`]!, {});
    await makeSession(t.db, { organizationId: ids[`${prefix} 11`]! });
    const byDevices = await get(
      `/v1/admin/organizations?include_stats=true&q=${prefix}&sort=total_devices&order=desc&limit=1`,
      admin.headers,
    );
    expect(byDevices.organizations).toEqual([
      expect.objectContaining({
        name: `${prefix} 05`,
        stats: expect.objectContaining({ total_devices: 2, online_devices: 1 }),
      }),
    ]);
    const bySessions = await get(
      `/v1/admin/organizations?include_stats=true&q=${prefix}&sort=total_sessions&order=desc&limit=1`,
      admin.headers,
    );
    expect((bySessions.organizations as Array<{ name: string }>)[0]!.name).toBe(`${prefix} 11`);
    const totals = await t.db
      .selectNoFrom([
        sql<number>`(SELECT count(*)::int FROM organizations)`.as('total'),
        sql<number>`(SELECT count(*)::int FROM sessions)`.as('total_sessions'),
        sql<number>`(SELECT count(*)::int FROM devices)`.as('total_devices'),
      ])
      .executeTakeFirstOrThrow();
    expect(bySessions.summary).toMatchObject(totals);
    const refused = await t.app.inject({
      url: '/v1/admin/organizations?sort=total_devices',
      headers: admin.headers,
    });
    expect(refused.statusCode).toBe(400);
  });

  it('content: scenarios, modules, levels and options, paged and searched', async () => {
    const prefix = word();
    await twelve(
      (name) => t.db.insertInto('scenarios').values({ name, description: '' }).execute(),
      prefix,
    );
    await expectPagedList({
      base: '/v1/admin/scenarios',
      key: 'scenarios',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.name),
      sortField: 'name',
    });
    const tree = await makeScenarioTree(t.db, {});
    await twelve(
      (name, i) =>
        t.db
          .insertInto('modules')
          .values({ scenario_id: tree.scenario.id, name, description: '', order_index: i + 1 })
          .execute(),
      prefix,
    );
    await expectPagedList({
      base: `/v1/admin/scenarios/${tree.scenario.id}/modules`,
      key: 'modules',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.name),
      sortField: 'order_index',
    });
    await twelve(
      (name, i) =>
        t.db
          .insertInto('levels')
          .values({ module_id: tree.module.id, name, description: '', level_number: i + 2 })
          .execute(),
      prefix,
    );
    await expectPagedList({
      base: `/v1/admin/modules/${tree.module.id}/levels`,
      key: 'levels',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.name),
      sortField: 'level_number',
    });
    await twelve(
      (name, i) =>
        t.db
          .insertInto('level_options')
          .values({ level_id: tree.level.id, name, description: '', order_index: i + 10 })
          .execute(),
      prefix,
    );
    await expectPagedList({
      base: `/v1/admin/levels/${tree.level.id}/options`,
      key: 'options',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.name),
      sortField: 'order_index',
    });
  });

  it('scenario access: paged by scenario, each with the organisations holding a grant', async () => {
    const prefix = word();
    await twelve(
      (name) => t.db.insertInto('scenarios').values({ name, description: '' }).execute(),
      prefix,
    );
    await expectPagedList({
      base: '/v1/admin/scenarios/access',
      key: 'scenario_access',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.scenario_name),
      sortField: 'scenario_name',
    });
    const page = await get(`/v1/admin/scenarios/access?q=${prefix}&limit=1`, admin.headers);
    expect(page.scenario_access).toEqual([
      expect.objectContaining({ scenario_name: `${prefix} 01`, organizations: [] }),
    ]);

    // One scenario's grants, paged by organisation name.
    const { scenario } = await makeScenarioTree(t.db);
    await twelve(async (name) => {
      const organization = await makeOrganization(t.db, { name });
      await grantAccess(t.db, scenario.id, organization.id, null);
    }, prefix);
    await expectPagedList({
      base: `/v1/admin/scenarios/${scenario.id}/access`,
      key: 'organizations',
      headers: admin.headers,
      prefix,
      nameOf: (row) => String(row.organization_name),
      sortField: 'organization_name',
    });
  });
});

describe('session history', () => {
  it('pages newest first however deep, with exact totals, filters and oldest first on request', async () => {
    const tenant = await makeTenant(t);
    const [anna, boris] = await Promise.all([
      makeVrUser(t.db, tenant.organization.id, { name: 'Anna' }),
      makeVrUser(t.db, tenant.organization.id, { name: 'Boris' }),
    ]);
    const device = await makeDevice(t.db, tenant.organization.id, {});
    const tree = await makeScenarioTree(t.db, {});
    const start = new Date('2026-02-01T00:00:00Z');
    // 120 sessions, one an hour; several share a start time (ids break the tie).
    await sql`
      INSERT INTO sessions (organization_id, vr_user_id, device_id, scenario_id, device_name,
        device_type, vr_user_name, scenario_name, module_name, level_name, level_number, max_tasks,
        status, completed_tasks, started_at, ended_at, duration_seconds)
      SELECT ${tenant.organization.id}::uuid,
        CASE WHEN g % 3 = 0 THEN ${anna.id}::uuid ELSE ${boris.id}::uuid END,
        CASE WHEN g % 4 = 0 THEN ${device.id}::uuid END,
        CASE WHEN g % 5 = 0 THEN ${tree.scenario.id}::uuid END,
        'H', 'quest', 'P', 'S', 'M', 'L', 1, 3,
        CASE WHEN g % 10 = 0 THEN 'cancelled' ELSE 'completed' END, 3,
        ${start}::timestamptz + (g / 2) * interval '1 hour',
        ${start}::timestamptz + (g / 2) * interval '1 hour' + interval '5 minutes', 300
      FROM generate_series(1, 120) AS g`.execute(t.db);
    await makeSession(t.db, {
      organizationId: tenant.organization.id,
      status: 'active',
      startedAt: new Date('2026-03-01T00:00:00Z'),
    });
    const all = await t.db
      .selectFrom('sessions')
      .select(['id', 'started_at'])
      .where('organization_id', '=', tenant.organization.id)
      .where('status', '<>', 'active')
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const boriss = () =>
      t.db
        .selectFrom('sessions')
        .select(['id', 'started_at'])
        .where('organization_id', '=', tenant.organization.id)
        .where('status', '<>', 'active')
        .where('vr_user_id', '=', boris.id)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
    const seen: string[] = [];
    for (let offset = 0; offset < 120; offset += 25) {
      const page = await get(`/v1/sessions?limit=25&offset=${offset}`, tenant.headers);
      expect(page.total).toBe(120);
      seen.push(...(page.sessions as Array<{ id: string }>).map((s) => s.id));
    }
    expect(seen).toEqual(all.map((row) => row.id));
    // Deep pages are read from the far end (offset 113 of 120 skips 0 entries, not 113): every
    // page size and order walks the same rows, filtered (counted by index) or not (rollup total).
    for (const [filter, expected] of [
      ['', all],
      [`vr_user_id=${boris.id}`, await boriss()],
    ] as const) {
      for (const [order, ids] of [
        ['', expected.map((row) => row.id)],
        ['order=asc', expected.map((row) => row.id).reverse()],
      ] as const) {
        const walked: string[] = [];
        for (let offset = 0; offset < ids.length; offset += 7) {
          const page = await get(
            `/v1/sessions?limit=7&offset=${offset}&${filter}&${order}`,
            tenant.headers,
          );
          walked.push(...(page.sessions as Array<{ id: string }>).map((s) => s.id));
        }
        expect(walked, `${filter} ${order}`).toEqual(ids);
      }
    }
    const oldest = await get('/v1/sessions?limit=3&order=asc', tenant.headers);
    expect((oldest.sessions as Array<{ id: string }>).map((s) => s.id)).toEqual(
      all
        .slice(-3)
        .reverse()
        .map((row) => row.id),
    );

    const count = async (where: (q: ReturnType<typeof base>) => ReturnType<typeof base>) =>
      Number(
        (
          await where(base())
            .select(sql<string>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const base = () =>
      t.db
        .selectFrom('sessions')
        .where('organization_id', '=', tenant.organization.id)
        .where('status', '<>', 'active');
    for (const [query, expected] of [
      ['status=cancelled', await count((q) => q.where('status', '=', 'cancelled'))],
      ['status=active', 1],
      [`vr_user_id=${anna.id}`, await count((q) => q.where('vr_user_id', '=', anna.id))],
      [`device_id=${device.id}`, await count((q) => q.where('device_id', '=', device.id))],
      [
        `scenario_id=${tree.scenario.id}`,
        await count((q) => q.where('scenario_id', '=', tree.scenario.id)),
      ],
      [
        'from=2026-02-02&to=2026-02-02',
        await count((q) =>
          q
            .where('started_at', '>=', new Date('2026-02-02T00:00:00Z'))
            .where('started_at', '<', new Date('2026-02-03T00:00:00Z')),
        ),
      ],
    ] as const) {
      const page = await get(`/v1/sessions?limit=5&${query}`, tenant.headers);
      expect(page.total, query).toBe(expected);
    }
    const backwards = await t.app.inject({
      url: '/v1/sessions?from=2026-02-03&to=2026-02-02',
      headers: tenant.headers,
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('querystring.from must not be after to');
  });

  it('exports the filtered history as the specification’s CSV, streamed', async () => {
    const tenant = await makeTenant(t, { organizationName: 'Нордик / Logistics' });
    const anna = await makeVrUser(t.db, tenant.organization.id, { name: '=HYPERLINK("x")' });
    await sql`
      INSERT INTO sessions (organization_id, vr_user_id, device_name, device_type, vr_user_name,
        scenario_name, module_name, level_name, level_number, max_tasks, status, completed_tasks,
        success, started_at, ended_at, duration_seconds, started_by_email)
      SELECT ${tenant.organization.id}::uuid, ${anna.id}::uuid, 'Quest, 2', 'quest',
        '=HYPERLINK("x")', 'Fire', 'Evacuation', 'Level "1"', 1, 4,
        CASE WHEN g % 2 = 0 THEN 'completed' ELSE 'cancelled' END, 2,
        CASE WHEN g % 2 = 0 THEN true END,
        timestamptz '2026-04-01T08:00:00Z' + g * interval '1 minute',
        timestamptz '2026-04-01T08:00:00Z' + g * interval '1 minute' + interval '125 seconds',
        125, 'staff@example.com'
      FROM generate_series(1, 2500) AS g`.execute(t.db);
    const response = await t.app.inject({
      url: '/v1/sessions/export?status=completed&from=2026-04-01',
      headers: tenant.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="sessions_??????_Logistics_${today}_completed_2026-04-01...csv"; ` +
        `filename*=UTF-8''sessions_%D0%9D%D0%BE%D1%80%D0%B4%D0%B8%D0%BA_Logistics_${today}_completed_2026-04-01...csv`,
    );
    const text = response.body;
    expect(text.startsWith('\uFEFFNo,VR User,Device,Scenario,Module,Level,Status,')).toBe(true);
    const rows = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true }).data;
    expect(rows[0]).toHaveLength(18);
    expect(rows).toHaveLength(1 + 1250);
    expect(rows[1]).toEqual([
      '1',
      `'=HYPERLINK("x")`,
      'Quest, 2',
      'Fire',
      'Evacuation',
      'Level "1"',
      'completed',
      '2',
      '4',
      '50',
      '125',
      '2m 5s',
      'staff@example.com',
      '2026-04-03T01:40:00.000Z',
      '2026-04-03T01:42:05.000Z',
      'Yes',
      'No',
      '1',
    ]);
    expect(rows.at(-1)![0]).toBe('1250');
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('exports every session when many start within one millisecond', async () => {
    // Plain-SQL imports stamp sessions to the microsecond; a JavaScript Date holds milliseconds.
    // The export reads in batches of 1,000, so these 1,003 sessions cross a batch boundary inside
    // one millisecond.
    const tenant = await makeTenant(t);
    await sql`
      INSERT INTO sessions (organization_id, device_name, device_type, vr_user_name,
        scenario_name, module_name, level_name, level_number, max_tasks, status, completed_tasks,
        started_at, ended_at)
      SELECT ${tenant.organization.id}::uuid, 'Quest', 'quest', 'Trainee ' || g, 'Fire',
        'Evacuation', 'Level 1', 1, 4, 'completed', 4,
        timestamptz '2026-04-01T08:00:00Z' + g * interval '1 microsecond',
        timestamptz '2026-04-01T08:05:00Z'
      FROM generate_series(1, 1003) AS g`.execute(t.db);
    const response = await t.app.inject({ url: '/v1/sessions/export', headers: tenant.headers });
    const rows = Papa.parse<string[]>(response.body.slice(1), { skipEmptyLines: true }).data;
    const trainees = new Set(rows.slice(1).map((row) => row[1]));
    expect(trainees.size).toBe(1003);
    expect(rows.at(-1)![0]).toBe('1003');
  });
});
