import { AUDIT_CSV_COLUMNS, CSV_BOM, csvRecord, type AuditEventPage } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeTenant } from '../../test/factories.ts';

/**
 * GET /v1/audit-events and its CSV export: staff read their organisation's events and no other's,
 * admins every organisation's; the filters narrow, the cursor pages newest first.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
let north: Awaited<ReturnType<typeof makeTenant>>;
let south: Awaited<ReturnType<typeof makeTenant>>;
const created: Record<string, string> = {};
let startedAt: Date;

async function createVrUser(tenant: typeof north, name: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/vr-users',
    headers: tenant.headers,
    payload: { name },
  });
  expect(response.statusCode, response.body).toBe(201);
  created[name] = response.json<{ id: string }>().id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
  north = await makeTenant(t, { organizationName: 'North' });
  south = await makeTenant(t, { organizationName: 'South' });
  startedAt = t.clock.now();
  // One a minute, so times differ: N1, S1, N2, =HYPERLINK (a formula-looking name), N3.
  for (const [tenant, name] of [
    [north, 'N1'],
    [south, 'S1'],
    [north, 'N2'],
    [north, '=HYPERLINK("x")'],
    [north, 'N3'],
  ] as const) {
    await createVrUser(tenant, name);
    t.clock.advance(60_000);
  }
  await t.app.inject({
    method: 'PUT',
    url: `/v1/vr-users/${created.N1}`,
    headers: north.headers,
    payload: { name: 'N1 renamed' },
  });
});
afterAll(() => t.close());

async function list(query: string, headers: Record<string, string>) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/audit-events?${query}`,
    headers,
  });
  return response;
}

const page = async (query: string, headers: Record<string, string>) => {
  const response = await list(query, headers);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventPage>();
};

const labels = (result: AuditEventPage) => result.audit_events.map((event) => event.target.label);

describe('GET /v1/audit-events', () => {
  it('shows staff their own organisation’s events, newest first, and none of another’s', async () => {
    const own = await page('action=vr_user', north.headers);
    expect(labels(own)).toEqual(['N1 renamed', 'N3', '=HYPERLINK("x")', 'N2', 'N1']);
    expect(own.audit_events.every((e) => e.organization_id === north.organization.id)).toBe(true);
    expect(labels(await page('action=vr_user', south.headers))).toEqual(['S1']);
  });

  it('answers 404 to staff asking for another organisation’s events, in the list and the file', async () => {
    const listed = await list(`organization_id=${south.organization.id}`, north.headers);
    expect(listed.statusCode).toBe(404);
    const exported = await t.app.inject({
      method: 'GET',
      url: `/v1/audit-events/export?organization_id=${south.organization.id}`,
      headers: north.headers,
    });
    expect(exported.statusCode).toBe(404);
    // Their own organisation named is fine.
    expect((await list(`organization_id=${north.organization.id}`, north.headers)).statusCode).toBe(
      200,
    );
  });

  it('shows admins every organisation, or the one asked for', async () => {
    const all = labels(await page('action=vr_user.created', admin.headers));
    expect(all).toEqual(expect.arrayContaining(['N1', 'S1', 'N3']));
    const southOnly = await page(
      `action=vr_user.created&organization_id=${south.organization.id}`,
      admin.headers,
    );
    expect(labels(southOnly)).toEqual(['S1']);
  });

  it('filters by action prefix, actor, target and time', async () => {
    expect(labels(await page('action=vr_user.updated', north.headers))).toEqual(['N1 renamed']);
    // A prefix: "vr_user." and "vr_user" find the same events.
    expect((await page('action=vr_user.', north.headers)).audit_events).toHaveLength(5);
    expect((await page('action=session', north.headers)).audit_events).toHaveLength(0);
    expect(labels(await page(`target_id=${created.N1}`, north.headers))).toEqual([
      'N1 renamed',
      'N1',
    ]);
    const bySouth = await page(`actor_id=${south.account.id}`, admin.headers);
    expect(labels(bySouth)).toEqual(['S1']);
    // N2 was written two minutes in, =HYPERLINK three; `to` excludes its instant.
    const from = new Date(startedAt.getTime() + 2 * 60_000).toISOString();
    const to = new Date(startedAt.getTime() + 4 * 60_000).toISOString();
    expect(labels(await page(`action=vr_user&from=${from}&to=${to}`, north.headers))).toEqual([
      '=HYPERLINK("x")',
      'N2',
    ]);
    // A whole UTC day as `to` takes all of that day.
    const day = startedAt.toISOString().slice(0, 10);
    expect(
      (await page(`action=vr_user&from=${day}&to=${day}`, north.headers)).audit_events.length,
    ).toBeGreaterThan(0);
    expect((await list(`from=${to}&to=${from}`, north.headers)).statusCode).toBe(400);
  });

  it('pages by cursor without overlap or gap, newest first', async () => {
    const seen: string[] = [];
    let cursor: string | null = '';
    let pages = 0;
    while (cursor !== null) {
      const result: AuditEventPage = await page(
        `action=vr_user&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        north.headers,
      );
      expect(result.audit_events.length).toBeLessThanOrEqual(2);
      seen.push(...labels(result).map(String));
      cursor = result.next_cursor;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(['N1 renamed', 'N3', '=HYPERLINK("x")', 'N2', 'N1']);
    expect((await list('cursor=not-a-cursor', north.headers)).statusCode).toBe(400);
  });
});

describe('GET /v1/audit-events/export', () => {
  it('streams the same events as CSV, formula-safe, with the filters', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/audit-events/export?action=vr_user',
      headers: north.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toContain('audit_North_');
    const lines = response.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(`${CSV_BOM}${csvRecord(AUDIT_CSV_COLUMNS)}`);
    expect(lines).toHaveLength(1 + 5);
    expect(response.body).toContain(`"'=HYPERLINK(""x"")"`);
    expect(response.body).not.toContain('S1');
  });
});

describe('GET /v1/admin/audit/verify', () => {
  it('is for admins only', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v1/admin/audit/verify',
      headers: north.headers,
    });
    expect(response.statusCode).toBe(403);
  });
});
