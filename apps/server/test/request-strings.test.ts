import { NON_BLANK_TEXT_PATTERN, STORABLE_TEXT_PATTERN } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.ts';

/**
 * Every string a client can send, on every route of the OpenAPI document (console, admin and
 * headset alike), is either one of a closed set of values or goes through the contract's `Text`
 * schema: storable characters only and a maximum length. A new field written as a bare
 * `Type.String()` fails here.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

/** Formats whose Ajv check admits only ASCII digits, letters and punctuation. */
const STRICT_FORMATS = new Set(['uuid', 'date-time', 'date', 'email']);

function unsafeStrings(schema: JsonSchema, where: string): string[] {
  const found: string[] = [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('string') && schema.enum === undefined && schema.const === undefined) {
    const storable =
      (schema.format !== undefined && STRICT_FORMATS.has(schema.format)) ||
      schema.pattern === STORABLE_TEXT_PATTERN ||
      schema.pattern === NON_BLANK_TEXT_PATTERN;
    const bounded = schema.format === 'uuid' || schema.maxLength !== undefined;
    if (!storable) found.push(`${where}: admits characters the database cannot store`);
    if (!bounded) found.push(`${where}: has no maxLength`);
  }
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    found.push(...unsafeStrings(child, `${where}.${name}`));
  }
  if (schema.items) found.push(...unsafeStrings(schema.items, `${where}[]`));
  for (const branch of [
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    found.push(...unsafeStrings(branch, where));
  }
  return found;
}

interface Operation {
  parameters?: Array<{ in: string; name: string; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

describe('request strings', () => {
  it('are bounded and storable on every route', () => {
    const paths = (t.app.swagger() as { paths: Record<string, Record<string, Operation>> }).paths;
    const problems: string[] = [];
    let checked = 0;
    for (const [path, operations] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const route = `${method.toUpperCase()} ${path}`;
        for (const parameter of operation.parameters ?? []) {
          checked++;
          problems.push(
            ...unsafeStrings(parameter.schema, `${route} ${parameter.in}.${parameter.name}`),
          );
        }
        const json = operation.requestBody?.content['application/json'];
        if (json) {
          checked++;
          problems.push(...unsafeStrings(json.schema, `${route} body`));
        }
      }
    }
    expect(checked).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });

  it('refuse NUL and unpaired surrogates with 400 naming the field, on console routes too', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'a@b.c', password: 'pass\u0000word' },
    });
    expect(login.statusCode).toBe(400);
    expect(login.json()).toEqual({
      error: 'validation_error',
      message:
        'body.password contains a character that cannot be stored (NUL or an unpaired surrogate)',
      details: { field: 'body.password', rule: 'storable' },
    });
  });

  it('accept astral characters (a surrogate pair is one character)', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: 'nobody@example.com', password: 'emoji 😀 password' },
    });
    expect(login.statusCode).toBe(401);
  });
});
