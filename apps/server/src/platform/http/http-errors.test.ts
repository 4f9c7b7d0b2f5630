import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness.ts';
import { makeDevice, makeTenant } from '../../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('error bodies', () => {
  it('name the allowed values of a field that must be one of a list', async () => {
    const { headers, organization } = await makeTenant(t);
    const device = await makeDevice(t.db, organization.id);
    const response = await t.app.inject({
      method: 'PUT',
      url: `/v1/devices/${device.id}/movement-type`,
      headers,
      payload: { movement_type: 'fly' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'validation_error',
      message: 'body.movement_type must be one of: slide, teleport',
      details: { field: 'body.movement_type', rule: 'enum', allowed: 'slide, teleport' },
    });
  });

  it('answer malformed JSON, unknown routes and wrong methods with { error, message }', async () => {
    const { headers } = await makeTenant(t);
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(Object.keys(malformed.json()).sort()).toEqual(['error', 'message']);

    const nul = await t.app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers,
      payload: { name: 'a\u0000b' },
    });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error).toBe('validation_error');

    const unknown = await t.app.inject({ url: '/v1/nothing-here', headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');

    const huge = await t.app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('payload_too_large');
  });
});
