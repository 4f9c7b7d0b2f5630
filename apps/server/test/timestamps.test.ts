import crypto from 'node:crypto';
import { routes } from '@vrtc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';
import {
  grantAccess,
  makeScenarioTree,
  makeTenant,
  makeTenantInSession,
  makeVrUser,
} from './factories.ts';

/**
 * Every time a client can send, on every route of the contract: a valid one is accepted (and
 * read as the instant it names), an invalid one is refused with 400 naming the field, never a
 * 500. A leap second (`23:59:60`), which the RFC 3339 grammar admits but JavaScript's Date cannot
 * hold, became an Invalid Date and a 500; a headset retries a 5xx forever with the same key.
 * The walk over the route map below fails when a new time field has no case here.
 */

interface JsonSchema {
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}

type Part = 'querystring' | 'body' | 'params';

function timeFields(schema: JsonSchema | undefined, where: string, found: Set<string>) {
  if (!schema) return;
  if (schema.format === 'date-time' || schema.format === 'date') found.add(where);
  for (const [name, child] of Object.entries(schema.properties ?? {}))
    timeFields(child, `${where}.${name}`, found);
  if (schema.items) timeFields(schema.items, `${where}[]`, found);
  for (const branch of schema.anyOf ?? []) timeFields(branch, where, found);
}

/** Times the contract's formats admit whose instant exists (each a field's year apart). */
const validTimes = (year: number) => [
  `${year}-06-30T23:59:59.999Z`,
  `${year}-06-30T10:00:00+05:30`,
  `${year}-06-30t10:00:00z`,
  `${year}-06-30T10:00:00.123456789-01:00`,
  `${year}-02-28T23:59:59+00:00`,
];
const invalidTimes = (year: number) => [
  `${year}-06-30T23:59:60Z`,
  `${year}-12-31T23:59:60+00:00`,
  `${year}-06-30T22:59:60-01:00`,
  `${year}-02-30T10:00:00Z`,
  `${year - 1}-02-29T10:00:00Z`,
  `${year}-06-31T10:00:00Z`,
  `${year}-13-01T10:00:00Z`,
  `${year}-06-30T24:00:00Z`,
  `${year}-06-30T10:00:00+05`,
  `${year}-06-30T10:00:00`,
  `${year}-06-30T10:60:00Z`,
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59-23:59',
  `${year}-06-30`,
  'yesterday',
];
const validDates = ['2024-02-29', '2024-12-31', '2024-01-01'];
const invalidDates = [
  '2025-02-29',
  '2026-02-30',
  '2026-06-31',
  '2026-13-01',
  '2026-6-1',
  '0000-00-00',
];

let t: TestApp;
let admin: Awaited<ReturnType<typeof makeTenant>>;
let scenarioId: string;
let staff: Awaited<ReturnType<typeof makeTenant>>;
let qualificationId: string;
let vrUserId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await makeTenant(t, { role: 'admin' });
  scenarioId = (await makeScenarioTree(t.db)).scenario.id;
  // A qualification of staff's organisation, for the assignment's due date.
  staff = await makeTenant(t);
  const tree = await makeScenarioTree(t.db, { levelName: 'Due dates' });
  await grantAccess(t.db, tree.scenario.id, staff.organization.id, null, t.clock.now());
  const created = await t.app.inject({
    method: 'POST',
    url: '/v1/qualifications',
    headers: staff.headers,
    payload: { name: 'Погрузчик', level_ids: [tree.level.id], validity_days: 365 },
  });
  qualificationId = created.json<{ id: string }>().id;
  vrUserId = (await makeVrUser(t.db, staff.organization.id)).id;
});
afterAll(() => t.close());

interface Case {
  /** Edge values of this field, and whether each must be accepted. */
  kind: 'date-time' | 'date' | 'bound';
  send: (value: string) => Promise<LightMyRequestResponse>;
}

const query = (url: string, values: Record<string, string>) => () =>
  t.app.inject({ method: 'GET', url, query: values, headers: admin.headers });

async function headsetReport(kind: 'progress' | 'finish', occurredAt: string) {
  const { headset, session } = await makeTenantInSession(t, { maxTasks: 5 });
  return t.app.inject({
    method: 'POST',
    url: `/v1/headset/sessions/${session.id}/${kind}`,
    headers: { ...headset.headers, 'idempotency-key': crypto.randomUUID() },
    payload:
      kind === 'progress'
        ? { completed_tasks: 1, occurred_at: occurredAt }
        : { completed_tasks: 1, success: true, occurred_at: occurredAt },
  });
}

/** One case per time field of every route: a request that differs only in that field. */
const cases: Record<string, Case> = {
  'listSessions querystring.from': {
    kind: 'date',
    send: (v) => query('/v1/sessions', { from: v })(),
  },
  'listSessions querystring.to': { kind: 'date', send: (v) => query('/v1/sessions', { to: v })() },
  'exportSessions querystring.from': {
    kind: 'date',
    send: (v) => query('/v1/sessions/export', { from: v })(),
  },
  'exportSessions querystring.to': {
    kind: 'date',
    send: (v) => query('/v1/sessions/export', { to: v })(),
  },
  'reportProgress body.occurred_at': {
    kind: 'date-time',
    send: (v) => headsetReport('progress', v),
  },
  'finishSession body.occurred_at': { kind: 'date-time', send: (v) => headsetReport('finish', v) },
  'grantAccess body.expires_at': {
    kind: 'date-time',
    send: (v) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/admin/scenarios/${scenarioId}/grant`,
        headers: admin.headers,
        payload: { organization_ids: [admin.organization.id], expires_at: v },
      }),
  },
  'rangeStats querystring.start_date': {
    kind: 'date',
    send: (v) => query('/v1/admin/stats/range', { start_date: v, end_date: '2024-12-31' })(),
  },
  'rangeStats querystring.end_date': {
    kind: 'date',
    send: (v) => query('/v1/admin/stats/range', { start_date: '2024-01-01', end_date: v })(),
  },
  'exportStats querystring.start_date': {
    kind: 'date',
    send: (v) => query('/v1/admin/stats/export', { start_date: v, end_date: '2024-12-31' })(),
  },
  'exportStats querystring.end_date': {
    kind: 'date',
    send: (v) => query('/v1/admin/stats/export', { start_date: '2024-01-01', end_date: v })(),
  },
  'organizationStats querystring.start_date': {
    kind: 'date',
    send: (v) => query('/v1/stats', { start_date: v, end_date: '2024-12-31' })(),
  },
  'organizationStats querystring.end_date': {
    kind: 'date',
    send: (v) => query('/v1/stats', { start_date: '2024-01-01', end_date: v })(),
  },
  'exportOrganizationStats querystring.start_date': {
    kind: 'date',
    send: (v) => query('/v1/stats/export', { start_date: v, end_date: '2024-12-31' })(),
  },
  'exportOrganizationStats querystring.end_date': {
    kind: 'date',
    send: (v) => query('/v1/stats/export', { start_date: '2024-01-01', end_date: v })(),
  },
  'listAuditEvents querystring.from': {
    kind: 'bound',
    send: (v) => query('/v1/audit-events', { from: v })(),
  },
  'listAuditEvents querystring.to': {
    kind: 'bound',
    send: (v) => query('/v1/audit-events', { to: v })(),
  },
  'exportAuditEvents querystring.from': {
    kind: 'bound',
    send: (v) => query('/v1/audit-events/export', { from: v })(),
  },
  'exportAuditEvents querystring.to': {
    kind: 'bound',
    send: (v) => query('/v1/audit-events/export', { to: v })(),
  },
  'listCompliance querystring.as_of': {
    kind: 'date-time',
    send: (v) =>
      t.app.inject({ url: '/v1/compliance', query: { as_of: v }, headers: staff.headers }),
  },
  'exportCompliance querystring.as_of': {
    kind: 'date-time',
    send: (v) =>
      t.app.inject({ url: '/v1/compliance/export', query: { as_of: v }, headers: staff.headers }),
  },
  'assignQualification body.due_at': {
    kind: 'date-time',
    send: (v) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/qualifications/${qualificationId}/assignments`,
        headers: staff.headers,
        payload: { vr_user_ids: [vrUserId], due_at: v },
      }),
  },
  'createApiToken body.expires_at': {
    kind: 'date-time',
    send: (v) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/me/api-tokens',
        headers: staff.headers,
        payload: { name: 'Nightly export', expires_at: v },
      }),
  },
};

function edgeValues(kind: Case['kind']) {
  // A grant and an API token must expire in the future; the other fields take any year.
  const year = 2096;
  if (kind === 'date') return { valid: validDates, invalid: invalidDates };
  if (kind === 'date-time') return { valid: validTimes(year), invalid: invalidTimes(year) };
  return {
    valid: [...validTimes(year), ...validDates],
    invalid: [...invalidTimes(year).filter((v) => v !== `${year}-06-30`), ...invalidDates],
  };
}

describe('time fields of the contract', () => {
  it('each has a case here', () => {
    const found = new Set<string>();
    for (const [name, route] of Object.entries(routes)) {
      for (const part of ['params', 'querystring', 'body'] as Part[]) {
        timeFields((route as Partial<Record<Part, JsonSchema>>)[part], `${name} ${part}`, found);
      }
    }
    expect([...found].sort()).toEqual(Object.keys(cases).sort());
  });

  for (const [field, { kind, send }] of Object.entries(cases)) {
    it(`${field}: valid times are accepted, invalid ones answer 400 naming the field`, async () => {
      const { valid, invalid } = edgeValues(kind);
      const wrong: string[] = [];
      for (const value of valid) {
        const response = await send(value);
        if (response.statusCode >= 300)
          wrong.push(`${value}: ${response.statusCode} ${response.body}`);
      }
      const named = field.split(' ')[1]!;
      for (const value of invalid) {
        const response = await send(value);
        if (
          response.statusCode !== 400 ||
          !response.json<{ message: string }>().message.startsWith(named)
        )
          wrong.push(`${value}: ${response.statusCode} ${response.body}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  it('a valid time with an offset is read as the instant it names', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/v1/admin/scenarios/${scenarioId}/grant`,
      headers: admin.headers,
      payload: {
        organization_ids: [admin.organization.id],
        expires_at: '2096-06-30t10:00:00+05:30',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ expires_at: string }>().expires_at).toBe('2096-06-30T04:30:00.000Z');
  });
});
