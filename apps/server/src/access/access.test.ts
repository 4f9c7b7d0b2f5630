import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import {
  grantAccess,
  makeOrganization,
  makeScenarioTree,
  makeTenant,
} from '../../test/factories.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
let client: Record<string, string>;
const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
  client = (await makeTenant(t)).headers;
});
afterAll(() => t.close());

const post = (url: string, payload: object, headers = admin.headers) =>
  t.app.inject({ method: 'POST', url, headers, payload });
const inDays = (days: number) => new Date(t.clock.now().getTime() + days * DAY).toISOString();

async function grants(scenarioId: string) {
  return t.db
    .selectFrom('scenario_access')
    .selectAll()
    .where('scenario_id', '=', scenarioId)
    .orderBy('organization_id')
    .execute();
}

async function matrixEntry(scenarioId: string) {
  const response = await t.app.inject({
    url: '/v1/admin/scenarios/access',
    headers: admin.headers,
  });
  expect(response.statusCode).toBe(200);
  return response
    .json()
    .scenario_access.find((e: { scenario_id: string }) => e.scenario_id === scenarioId);
}

describe('grant and revoke', () => {
  it('grants, re-grants as an upsert, and revokes', async () => {
    const { scenario } = await makeScenarioTree(t.db);
    const one = await makeOrganization(t.db);
    const two = await makeOrganization(t.db);
    const expires = inDays(365);

    const granted = await post(`/v1/admin/scenarios/${scenario.id}/grant`, {
      organization_ids: [one.id, two.id],
      expires_at: expires,
    });
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toEqual({ granted: 2, expires_at: expires });
    const first = await grants(scenario.id);
    expect(first).toHaveLength(2);
    for (const row of first) {
      expect(row).toMatchObject({ granted_by: admin.account.email, expires_at: new Date(expires) });
      expect(row.granted_at.toISOString()).toBe(t.clock.now().toISOString());
    }

    // Re-granting replaces expiry, time and granter, without duplicating rows.
    t.clock.advance(DAY);
    const other = await makeTenant(t, { role: 'admin' });
    const newExpiry = '2099-12-31T23:59:59.000Z';
    const again = await post(
      `/v1/admin/scenarios/${scenario.id}/grant`,
      { organization_ids: [one.id], expires_at: newExpiry },
      other.headers,
    );
    expect(again.json()).toEqual({ granted: 1, expires_at: newExpiry });
    const rows = await grants(scenario.id);
    expect(rows).toHaveLength(2);
    const oneRow = rows.find((r) => r.organization_id === one.id)!;
    expect(oneRow).toMatchObject({
      granted_by: other.account.email,
      expires_at: new Date(newExpiry),
    });
    expect(oneRow.granted_at.toISOString()).toBe(t.clock.now().toISOString());
    expect(rows.find((r) => r.organization_id === two.id)!.granted_by).toBe(admin.account.email);

    const revoked = await post(`/v1/admin/scenarios/${scenario.id}/revoke`, {
      organization_ids: [one.id, UNKNOWN],
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ revoked: 1 });
    expect((await grants(scenario.id)).map((r) => r.organization_id)).toEqual([two.id]);
    const again2 = await post(`/v1/admin/scenarios/${scenario.id}/revoke`, {
      organization_ids: [one.id],
    });
    expect(again2.json()).toEqual({ revoked: 0 });
  });

  it('refuses a past expiry, unknown organisations and unknown scenarios without granting anything', async () => {
    const { scenario } = await makeScenarioTree(t.db);
    const organization = await makeOrganization(t.db);

    const past = await post(`/v1/admin/scenarios/${scenario.id}/grant`, {
      organization_ids: [organization.id],
      expires_at: new Date(t.clock.now().getTime() - 1000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toEqual({
      error: 'validation_error',
      message: 'Expiry date cannot be in the past',
    });

    const unknownOrg = await post(`/v1/admin/scenarios/${scenario.id}/grant`, {
      organization_ids: [organization.id, UNKNOWN],
      expires_at: inDays(30),
    });
    expect(unknownOrg.statusCode).toBe(404);
    expect(unknownOrg.json()).toEqual({
      error: 'not_found',
      message: `Organization ${UNKNOWN} not found`,
    });
    expect(await grants(scenario.id)).toEqual([]);

    for (const [url, payload] of [
      [
        `/v1/admin/scenarios/${UNKNOWN}/grant`,
        { organization_ids: [organization.id], expires_at: inDays(30) },
      ],
      [`/v1/admin/scenarios/${UNKNOWN}/revoke`, { organization_ids: [organization.id] }],
    ] as const) {
      const response = await post(url, payload);
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Scenario not found' });
    }
  });

  it('validates bodies, naming the field', async () => {
    const { scenario } = await makeScenarioTree(t.db);
    const organization = await makeOrganization(t.db);
    const grantUrl = `/v1/admin/scenarios/${scenario.id}/grant`;
    const revokeUrl = `/v1/admin/scenarios/${scenario.id}/revoke`;
    const many = Array.from(
      { length: 1001 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const cases: Array<[string, object, string]> = [
      [grantUrl, { expires_at: inDays(1) }, 'body.organization_ids is required'],
      [grantUrl, { organization_ids: [organization.id] }, 'body.expires_at is required'],
      [
        grantUrl,
        { organization_ids: [], expires_at: inDays(1) },
        'body.organization_ids must NOT have fewer than 1 items',
      ],
      [
        grantUrl,
        { organization_ids: many, expires_at: inDays(1) },
        'body.organization_ids must NOT have more than 1000 items',
      ],
      [
        grantUrl,
        { organization_ids: ['nope'], expires_at: inDays(1) },
        'body.organization_ids.0 must be a valid uuid',
      ],
      [
        grantUrl,
        { organization_ids: [organization.id, organization.id], expires_at: inDays(1) },
        'body.organization_ids',
      ],
      [
        grantUrl,
        { organization_ids: [organization.id], expires_at: '2030-01-01' },
        'body.expires_at must be a valid date-time',
      ],
      [
        grantUrl,
        { organization_ids: [organization.id], expires_at: inDays(1), note: 1 },
        'body.note is not allowed',
      ],
      [revokeUrl, {}, 'body.organization_ids is required'],
      [
        revokeUrl,
        { organization_ids: [] },
        'body.organization_ids must NOT have fewer than 1 items',
      ],
      [
        revokeUrl,
        { organization_ids: many },
        'body.organization_ids must NOT have more than 1000 items',
      ],
      [revokeUrl, { organization_ids: [organization.id], all_with_access: true }, 'body'],
      [revokeUrl, { all_with_access: false }, 'body'],
    ];
    for (const [url, payload, message] of cases) {
      const response = await post(url, payload);
      expect(response.statusCode, `${url} ${JSON.stringify(payload).slice(0, 100)}`).toBe(400);
      expect(response.json().message).toContain(message);
    }
    const badId = await post('/v1/admin/scenarios/x/grant', {
      organization_ids: [organization.id],
      expires_at: inDays(1),
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe('params.id must be a valid uuid');
  });

  it('grants to many organisations at once and revokes them all', async () => {
    const { scenario } = await makeScenarioTree(t.db);
    const organizations = [];
    for (let i = 0; i < 25; i++) organizations.push(await makeOrganization(t.db));
    const ids = organizations.map((o) => o.id);
    const granted = await post(`/v1/admin/scenarios/${scenario.id}/grant`, {
      organization_ids: ids,
      expires_at: inDays(5),
    });
    expect(granted.json().granted).toBe(25);
    const revoked = await post(`/v1/admin/scenarios/${scenario.id}/revoke`, {
      organization_ids: ids,
    });
    expect(revoked.json()).toEqual({ revoked: 25 });
    expect(await grants(scenario.id)).toEqual([]);
  });

  it('revokes every live grant at once, leaving the expired ones listed', async () => {
    const { scenario } = await makeScenarioTree(t.db);
    const { scenario: other } = await makeScenarioTree(t.db);
    const live = await makeOrganization(t.db);
    const forever = await makeOrganization(t.db);
    const lapsed = await makeOrganization(t.db);
    const now = t.clock.now().getTime();
    await grantAccess(t.db, scenario.id, live.id, new Date(now + DAY));
    await grantAccess(t.db, scenario.id, forever.id, null);
    await grantAccess(t.db, scenario.id, lapsed.id, new Date(now - DAY));
    await grantAccess(t.db, other.id, live.id, new Date(now + DAY));

    const revoked = await post(`/v1/admin/scenarios/${scenario.id}/revoke`, {
      all_with_access: true,
    });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ revoked: 2 });
    expect((await grants(scenario.id)).map((row) => row.organization_id)).toEqual([lapsed.id]);
    // Another scenario's grants are untouched.
    expect(await grants(other.id)).toHaveLength(1);
  });
});

describe('access matrix', () => {
  it('lists the organisations with a grant per scenario, live or expired, and counts them all', async () => {
    const { scenario } = await makeScenarioTree(t.db, { scenarioName: 'Matrix scenario' });
    const live = await makeOrganization(t.db, { name: 'Live org' });
    const forever = await makeOrganization(t.db, { name: 'Forever org' });
    const lapsed = await makeOrganization(t.db, { name: 'Lapsed org' });
    const none = await makeOrganization(t.db, { name: 'None org' });
    const grantedAt = new Date(t.clock.now().getTime() - 10 * DAY);
    const liveUntil = new Date(t.clock.now().getTime() + DAY);
    const lapsedAt = new Date(t.clock.now().getTime() - DAY);
    await grantAccess(t.db, scenario.id, live.id, liveUntil, grantedAt);
    await grantAccess(t.db, scenario.id, forever.id, null, grantedAt);
    await grantAccess(t.db, scenario.id, lapsed.id, lapsedAt, grantedAt);

    const entry = await matrixEntry(scenario.id);
    const { count } = await t.db
      .selectFrom('organizations')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      scenario_id: scenario.id,
      scenario_name: 'Matrix scenario',
      scenario_name_en: null,
      total_organizations: Number(count),
      organizations_with_access: 2,
    });
    // The English console shows an English name, and finds the scenario by it.
    await t.db
      .updateTable('scenarios')
      .set({ name_en: 'Matrix in English' })
      .where('id', '=', scenario.id)
      .execute();
    const found = await t.app.inject({
      url: '/v1/admin/scenarios/access?q=in%20english',
      headers: admin.headers,
    });
    expect(found.json().scenario_access).toEqual([
      expect.objectContaining({ scenario_id: scenario.id, scenario_name_en: 'Matrix in English' }),
    ]);
    // By name; the organisation without a grant is not listed.
    expect(
      entry.organizations.map((o: { organization_name: string }) => o.organization_name),
    ).toEqual(['Forever org', 'Lapsed org', 'Live org']);
    const byId = (id: string) =>
      entry.organizations.find((o: { organization_id: string }) => o.organization_id === id);
    expect(byId(live.id)).toEqual({
      organization_id: live.id,
      organization_name: 'Live org',
      has_access: true,
      granted_at: grantedAt.toISOString(),
      granted_by: 'admin@example.com',
      expires_at: liveUntil.toISOString(),
    });
    expect(byId(forever.id)).toMatchObject({ has_access: true, expires_at: null });
    expect(byId(lapsed.id)).toMatchObject({
      has_access: false,
      granted_at: grantedAt.toISOString(),
      expires_at: lapsedAt.toISOString(),
    });
    expect(byId(none.id)).toBeUndefined();

    // Time passing turns the live grant into an expired one.
    t.clock.advance(DAY);
    const later = await matrixEntry(scenario.id);
    expect(later.organizations_with_access).toBe(1);
    expect(
      later.organizations.find((o: { organization_id: string }) => o.organization_id === live.id)
        .has_access,
    ).toBe(false);
  });

  it("carries a scenario's first 10 grants by name and counts the rest, which come page by page", async () => {
    const { scenario } = await makeScenarioTree(t.db);
    const now = t.clock.now().getTime();
    // 12 organisations with a grant, the one named 'Grant 07' expired; one without a grant.
    const granted = [];
    for (let i = 12; i >= 1; i--) {
      const organization = await makeOrganization(t.db, {
        name: `Grant ${String(i).padStart(2, '0')}`,
      });
      const expiry = i === 7 ? now - DAY : now + i * DAY;
      await grantAccess(t.db, scenario.id, organization.id, new Date(expiry));
      granted.push(organization);
    }
    await makeOrganization(t.db, { name: 'Grant 00 without one' });
    const names = (organizations: Array<{ organization_name: string }>) =>
      organizations.map((o) => o.organization_name);
    const numbered = (...numbers: number[]) =>
      numbers.map((n) => `Grant ${String(n).padStart(2, '0')}`);

    const entry = await matrixEntry(scenario.id);
    expect(entry).toMatchObject({ organizations_with_grant: 12, organizations_with_access: 11 });
    expect(names(entry.organizations)).toEqual(numbered(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));

    const page = async (query: string) => {
      const response = await t.app.inject({
        url: `/v1/admin/scenarios/${scenario.id}/access?${query}`,
        headers: admin.headers,
      });
      expect(response.statusCode, query).toBe(200);
      return response.json();
    };
    const second = await page('limit=10&offset=10');
    expect(second).toMatchObject({ total: 12, limit: 10, offset: 10 });
    expect(names(second.organizations)).toEqual(numbered(11, 12));
    // The first page equals the entry's organisations, row for row.
    expect((await page('limit=10')).organizations).toEqual(entry.organizations);
    // Sorted by expiry, latest first; searched by organisation name.
    expect(names((await page('sort=expires_at&order=desc&limit=3')).organizations)).toEqual(
      numbered(12, 11, 10),
    );
    const searched = await page('q=grant%201');
    expect(searched.total).toBe(3);
    expect(names(searched.organizations)).toEqual(numbered(10, 11, 12));
    const expired = (await page('q=07')).organizations[0];
    expect(expired).toMatchObject({ has_access: false, organization_name: 'Grant 07' });

    const unknown = await t.app.inject({
      url: `/v1/admin/scenarios/${UNKNOWN}/access`,
      headers: admin.headers,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'not_found', message: 'Scenario not found' });
    const badSort = await t.app.inject({
      url: `/v1/admin/scenarios/${scenario.id}/access?sort=granted_by`,
      headers: admin.headers,
    });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().message).toContain('querystring.sort must be one of');
  });

  it('refuses every access route to a client token (403)', async () => {
    const { scenario } = await makeScenarioTree(t.db);
    const organization = await makeOrganization(t.db);
    const routes: Array<['GET' | 'POST', string, object?]> = [
      ['GET', '/v1/admin/scenarios/access'],
      ['GET', `/v1/admin/scenarios/${scenario.id}/access`],
      ['POST', `/v1/admin/scenarios/${scenario.id}/revoke`, { all_with_access: true }],
      [
        'POST',
        `/v1/admin/scenarios/${scenario.id}/grant`,
        { organization_ids: [organization.id], expires_at: inDays(3) },
      ],
      [
        'POST',
        `/v1/admin/scenarios/${scenario.id}/revoke`,
        { organization_ids: [organization.id] },
      ],
    ];
    for (const [method, url, payload] of routes) {
      const response = await t.app.inject({
        method,
        url,
        headers: client,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, url).toBe(403);
    }
    expect(await grants(scenario.id)).toEqual([]);
  });
});
