import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundPolicy } from '../src/integrations/outbound.ts';
import { createTestApp, type TestApp } from './harness.ts';
import { makeTenant } from './factories.ts';

/**
 * An IPv4 address written in IPv6's deprecated IPv4-compatible form (::/96, `[::127.0.0.1]`)
 * reaches the IPv4 address on many stacks: it is refused like the address it names.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the outbound block list', () => {
  it('refuses IPv4-compatible IPv6 addresses (::/96)', () => {
    const policy = new OutboundPolicy([]);
    for (const address of ['::127.0.0.1', '::7f00:1', '::10.0.0.1', '::169.254.169.254', '::1'])
      expect(policy.permits('receiver.example', address), address).toBe(false);
    expect(policy.permits('receiver.example', '2001:db8::1')).toBe(true);
  });

  it('refuses an integration URL naming one', async () => {
    const tenant = await makeTenant(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/integrations',
      headers: tenant.headers,
      payload: {
        kind: 'webhook',
        url: 'http://[::127.0.0.1]:8080/hook',
        events: ['device.enrolled'],
      },
    });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({ error: 'outbound_address_refused' });
  });
});
