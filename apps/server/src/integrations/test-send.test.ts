import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  INTEGRATION_TEST_MAX,
  type IntegrationTestResult,
  type IntegrationWithSecret,
} from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeTenant, type Tenant } from '../../test/factories.ts';
import {
  webhookReceiver,
  webhookTo as webhookToOf,
  type WebhookReceiver,
} from '../../test/receivers.ts';
import { OutboundPolicy, isPrivateAddress } from './outbound.ts';

/**
 * The test send (issue 40): it reads no more of an answer than it keeps, is limited per
 * integration, and shows the status and headers of a receiver at a private address but not what
 * it says.
 */

const TIMEOUT_MS = 5000;
let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await createTestApp({
    config: { outboundAllowPrivate: ['127.0.0.1'], deliveryTimeoutMs: TIMEOUT_MS },
  });
  receiver = await webhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const webhookTo = (tenant: Tenant, url: string) => webhookToOf(t, tenant, url);

const testSend = (tenant: Tenant, id: string) =>
  t.app.inject({ method: 'POST', url: `/v1/integrations/${id}/test`, headers: tenant.headers });

/** Answers 200 and then a body that never ends; notes how much it wrote before the caller left. */
async function endlessReceiver() {
  const state = { written: 0, closed: false };
  const server = http.createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (!response.destroyed && response.write(chunk)) state.written += chunk.length;
    };
    response.on('drain', pump);
    response.on('close', () => {
      state.closed = true;
    });
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the test send', () => {
  it('stops reading an answer past what it keeps', async () => {
    const endless = await endlessReceiver();
    try {
      const tenant = await makeTenant(t);
      const { integration } = await webhookTo(tenant, `${endless.url}/hook`);
      const started = performance.now();
      const response = await testSend(tenant, integration.id);
      expect(response.statusCode, response.body).toBe(200);
      // Answered as soon as the first kilobyte was in, not at the timeout (nor never).
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS / 2);
      expect(response.json<IntegrationTestResult>()).toMatchObject({
        ok: true,
        status_code: 200,
        error: null,
      });
      await expect.poll(() => endless.state.closed).toBe(true);
      // What the socket's buffers took, not an endless stream.
      expect(endless.state.written).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await endless.close();
    }
  });

  it('allows a handful of test sends a minute per integration', async () => {
    const tenant = await makeTenant(t);
    const { integration } = await webhookTo(tenant, `${receiver.url}/limited`);
    const other = await webhookTo(tenant, `${receiver.url}/other`);
    for (let i = 0; i < INTEGRATION_TEST_MAX; i++) {
      expect((await testSend(tenant, integration.id)).statusCode).toBe(200);
    }
    const refused = await testSend(tenant, integration.id);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another integration has its own allowance; a minute later this one has its own again.
    expect((await testSend(tenant, other.integration.id)).statusCode).toBe(200);
    t.clock.advance(61_000);
    expect((await testSend(tenant, integration.id)).statusCode).toBe(200);
    expect(receiver.received.filter((r) => r.url === '/limited')).toHaveLength(
      INTEGRATION_TEST_MAX + 1,
    );
  });

  it('tells private addresses, mapped ones too, from public ones', () => {
    for (const address of ['127.0.0.1', '10.0.0.7', '::1', '::ffff:192.168.1.1', 'fd00::1']) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['93.184.216.34', '2606:2800:220:1::1', '::ffff:93.184.216.34']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('keeps OUTBOUND_ALLOW_PRIVATE to what it names: a metadata address only by itself', () => {
    const broad = new OutboundPolicy(['169.254.0.0/16', 'hooks.internal']);
    expect(broad.permits('x', '169.254.10.1')).toBe(true);
    expect(broad.permits('x', '169.254.169.254')).toBe(false);
    expect(broad.permits('hooks.internal', '169.254.169.254')).toBe(false);
    expect(broad.permits('hooks.internal', '10.1.2.3')).toBe(true);
    expect(new OutboundPolicy(['169.254.169.254']).permits('x', '169.254.169.254')).toBe(true);
  });
});

describe('learning record store URLs', () => {
  it('refuses a query or a fragment in an LRS base URL, and builds its URLs on the path', async () => {
    const tenant = await makeTenant(t);
    const create = (url: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/integrations',
        headers: tenant.headers,
        payload: { kind: 'xapi', url, key: 'k', secret: 's' },
      });
    for (const url of [`${receiver.url}/xapi?`, `${receiver.url}/xapi#`, `${receiver.url}/x?a=1`]) {
      const refused = await create(url);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json()).toMatchObject({
        error: 'validation_error',
        details: { field: 'body.url' },
      });
    }
    const created = await create(`${receiver.url}/xapi/`);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<IntegrationWithSecret>().integration.id;
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/integrations/${id}`,
      headers: tenant.headers,
      payload: { url: `${receiver.url}/other#x` },
    });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().details).toEqual({ field: 'body.url' });
    receiver.reset();
    expect((await testSend(tenant, id)).statusCode).toBe(200);
    expect(receiver.received.map((request) => request.url)).toEqual(['/xapi/statements?limit=1']);
  });
});
