import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/app.ts';
import { runSweep } from '../src/headset/sweeper.ts';
import {
  makeScenarioTree,
  makeTenant,
  makeVrUser,
  grantAccess,
  makeHeadsetInSession,
} from './factories.ts';
import { createTestApp, type TestApp, contextOf } from './harness.ts';

/**
 * Malformed requests, generated from the OpenAPI document, over every route: wrong types, NUL and
 * unpaired surrogates, huge strings and numbers, deep JSON, missing and extra fields, broken JSON.
 * None may answer 5xx, and the background jobs must still run cleanly afterwards.
 */

interface JsonSchema {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  minLength?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  default?: unknown;
}

interface Operation {
  parameters?: Array<{ in: 'path' | 'query'; name: string; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

const deep = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { nested: value };
  return value;
};

/** Values that are wrong for nearly every field, or right in type and hostile in content. */
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  -1,
  0,
  1.5,
  2 ** 31,
  2 ** 63,
  -1e308,
  1e308,
  '',
  '   ',
  'x\u0000y',
  '\uD800',
  'a\uDC00b',
  'x'.repeat(100_000),
  '9'.repeat(400),
  "'; DROP TABLE sessions; --",
  '2026-13-45T99:99:99Z',
  [],
  ['a', 1, null],
  {},
  { a: { b: { c: 1 } } },
  deep(500),
];

/** Query and path text: what a URL can carry. */
const HOSTILE_TEXT = [
  '',
  'x',
  '%00',
  '%ED%A0%80', // a surrogate half, UTF-8 encoded
  '-1',
  '1e400',
  '99999999999999999999999',
  'NaN',
  'true',
  '..%2F..%2Fetc%2Fpasswd',
  'x'.repeat(20_000),
  '00000000-0000-0000-0000-000000000000',
  '%FF%FE',
];

const RAW_BODIES = [
  '{',
  '{"a":',
  'null',
  '[]',
  '"text"',
  '\u0000',
  '{"__proto__":{"x":1}}',
  '1e999',
];

function sampleOf(schema: JsonSchema | undefined, ids: string[]): unknown {
  if (!schema) return undefined;
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sampleOf(schema.anyOf[0], ids);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, child] of Object.entries(schema.properties ?? {})) {
        value[name] = sampleOf(child, ids);
      }
      return value;
    }
    case 'array':
      return [sampleOf(schema.items, ids)];
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'uuid') return ids[0];
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      if (schema.format === 'date') return new Date().toISOString().slice(0, 10);
      if (schema.format === 'email')
        return `fuzz-${Math.random().toString(36).slice(2)}@example.com`;
      return 'fuzz'.padEnd(Math.max(schema.minLength ?? 1, 4), 'z');
    default:
      return null;
  }
}

let t: TestApp;
let ctx: AppContext;
beforeAll(async () => {
  t = await createTestApp();
  ctx = contextOf(t);
});
afterAll(() => t.close());

describe('malformed requests', () => {
  it('never get a 5xx on any route, and leave the background jobs healthy', async () => {
    const client = await makeTenant(t);
    const admin = await makeTenant(t, { role: 'admin' });
    const organizationId = client.organization.id;
    const vrUser = await makeVrUser(t.db, organizationId, { name: 'Fuzzed person' });
    const tree = await makeScenarioTree(t.db, {});
    await grantAccess(t.db, tree.scenario.id, organizationId, null, t.clock.now());
    const { headset, session } = await makeHeadsetInSession(t.db, organizationId, {
      at: t.clock.now(),
      vrUserId: vrUser.id,
    });
    /** Real ids for each route family, so well-formed parts of a request reach the service. */
    const idsFor = (path: string): string[] => {
      if (path.includes('/vr-users')) return [vrUser.id];
      if (path.includes('/headset/sessions') || path.includes('/sessions/')) return [session.id];
      if (path.includes('/devices')) return [headset.device.id];
      if (path.includes('/organizations')) return [organizationId];
      if (path.includes('/users')) return [client.account.id];
      if (path.includes('/modules')) return [tree.module.id];
      if (path.includes('/levels')) return [tree.level.id];
      if (path.includes('/level-options')) return [tree.options[0]!.id];
      if (path.includes('/scenarios')) return [tree.scenario.id];
      return [organizationId];
    };
    const headersFor = (path: string): Record<string, string> => {
      if (path === '/v1/headset/enroll' || path.startsWith('/v1/auth/login')) return {};
      if (path.startsWith('/v1/headset/')) return headset.headers;
      if (path.startsWith('/v1/admin/')) return admin.headers;
      return client.headers;
    };

    const paths = (t.app.swagger() as { paths: Record<string, Record<string, Operation>> }).paths;
    const failures: string[] = [];
    let sent = 0;
    const send = async (
      method: string,
      path: string,
      url: string,
      body: { json?: unknown; raw?: string } | undefined,
    ) => {
      sent++;
      const response = await t.app.inject({
        method: method.toUpperCase() as 'GET',
        url,
        headers: {
          ...headersFor(path),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { payload: body.raw ?? JSON.stringify(body.json) } : {}),
      });
      if (response.statusCode >= 500) {
        const shown = body ? (body.raw ?? JSON.stringify(body.json)).slice(0, 120) : '';
        failures.push(
          `${method.toUpperCase()} ${url.slice(0, 120)} ${shown} → ${response.statusCode} ${response.body.slice(0, 200)}`,
        );
      }
    };

    for (const [path, operations] of Object.entries(paths)) {
      if (path.startsWith('/docs')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        if (path.includes('/vr-app/builds/')) continue; // the raw-APK body is fuzzed in downloads.test.ts
        const ids = idsFor(path);
        const pathParams = (operation.parameters ?? []).filter((p) => p.in === 'path');
        const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
        const fill = (overrides: Record<string, string> = {}) =>
          path.replace(
            /\{(\w+)\}/g,
            (_, name: string) =>
              overrides[name] ??
              String(sampleOf(pathParams.find((p) => p.name === name)?.schema, ids)),
          );
        const query = (values: Record<string, string>) => {
          const text = Object.entries(values)
            .map(([name, value]) => `${name}=${value}`)
            .join('&');
          return text ? `?${text}` : '';
        };
        const baseQuery = Object.fromEntries(
          queryParams.map((p) => [p.name, encodeURIComponent(String(sampleOf(p.schema, ids)))]),
        );
        const bodySchema = operation.requestBody?.content['application/json']?.schema;
        const baseBody = bodySchema ? sampleOf(bodySchema, ids) : undefined;
        const withBody = bodySchema ? { json: baseBody } : undefined;

        for (const param of pathParams) {
          for (const text of HOSTILE_TEXT) {
            await send(method, path, fill({ [param.name]: text }) + query(baseQuery), withBody);
          }
        }
        for (const param of queryParams) {
          for (const text of HOSTILE_TEXT) {
            await send(
              method,
              path,
              fill() + query({ ...baseQuery, [param.name]: text }),
              withBody,
            );
          }
        }
        await send(method, path, fill() + query({ ...baseQuery, unexpected: '1' }), withBody);
        if (!bodySchema) continue;
        const url = fill() + query(baseQuery);
        const fields = Object.keys(bodySchema.properties ?? {});
        for (const field of fields) {
          for (const value of HOSTILE_VALUES) {
            await send(method, path, url, { json: { ...(baseBody as object), [field]: value } });
          }
          const without = { ...(baseBody as Record<string, unknown>) };
          delete without[field];
          await send(method, path, url, { json: without });
        }
        await send(method, path, url, { json: { ...(baseBody as object), unexpected: 'x\u0000' } });
        for (const value of HOSTILE_VALUES) await send(method, path, url, { json: value });
        for (const raw of RAW_BODIES) await send(method, path, url, { raw });
      }
    }

    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(2000);
    // Nothing a request left behind breaks the jobs that run after it.
    expect((await t.app.lastSeen.flush()).dropped).toEqual([]);
    expect((await runSweep(ctx)).ran).toBe(true);
  }, 300_000);
});
