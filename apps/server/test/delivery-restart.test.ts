import fs from 'node:fs';
import type { DeliveryPage, IntegrationWithSecret } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../src/platform/database/db.ts';
import { createTestDatabase, migratedDataDir } from './harness.ts';
import { verifySignature, webhookReceiver, type WebhookReceiver } from './receivers.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './server-process.ts';
import { waitFor } from './wait-for.ts';

/**
 * A server killed between the commit of an event and its delivery delivers it after a restart
 * (issue 26): a real server process (PGlite on its data directory; PostgreSQL in the PostgreSQL
 * run) sends a headset's enrolment to a receiver that holds the request open without answering,
 * is killed with SIGKILL mid-send, and is started again on the same database. The claim it left
 * expires with the send's timeout (DELIVERY_TIMEOUT_MS, set low here), and the new process sends
 * the event again with the same webhook-id.
 */

const kind = inject('dbTemplate').kind;
const ADMIN = { email: 'restart@example.com', password: 'restart-password' };
/**
 * The send's timeout: the claim a dead process left expires a few of these later. Not 2 s: on a
 * host half as fast, the restarted server's send to this process took longer, timed out and was
 * recorded as a second attempt.
 */
const DELIVERY_TIMEOUT_MS = 4000;

let receiver: WebhookReceiver;
let database: DatabaseHandle | undefined;
let server: ServerProcess | undefined;
const dataDir = migratedDataDir('vrtc-delivery-restart-');

beforeAll(async () => {
  receiver = await webhookReceiver();
  if (kind === 'postgres') database = await createTestDatabase();
});
afterAll(async () => {
  if (server) await stopServerProcess(server, 'SIGKILL');
  await receiver?.close();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = () => ({
  DATA_DIR: dataDir,
  DATABASE_URL: database?.databaseUrl ?? '',
  SIGNING_SECRET: 'delivery-restart-secret',
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  OUTBOUND_ALLOW_PRIVATE: '127.0.0.1',
  DELIVERY_TIMEOUT_MS: String(DELIVERY_TIMEOUT_MS),
  DELIVERY_POLL_MS: '100',
});

async function call(
  path: string,
  options: { method?: string; token?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server!.url}${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe(`a server killed between commit and delivery (${kind})`, () => {
  it('delivers the event after a restart, with the same webhook-id', async () => {
    server = await startServerProcess(env());
    const login = await call('/v1/auth/login', { body: ADMIN });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    const created = await call('/v1/integrations', {
      token,
      body: { kind: 'webhook', url: `${receiver.url}/hook`, events: ['device.enrolled'] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { integration, secret } = created.body as unknown as IntegrationWithSecret;

    // The receiver takes the first request and never answers it.
    receiver.answer('hang');
    const code = await call('/v1/devices/enrollment-code', { method: 'POST', token });
    expect(code.status).toBe(200);
    const enrolled = await call('/v1/headset/enroll', {
      body: { code: code.body.code, name: 'Quest by the door', type: 'quest' },
    });
    expect(enrolled.status).toBe(201);
    await waitFor(() => receiver.received.length === 1, {
      timeout: 10_000,
      what: 'the first send',
    });
    const first = receiver.received[0]!;
    expect(verifySignature(secret!, first)).toMatchObject({
      type: 'device.enrolled',
      data: { device_id: enrolled.body.device_id, name: 'Quest by the door' },
    });

    // Killed mid-send: the attempt is never recorded, its claim is left behind.
    await stopServerProcess(server, 'SIGKILL');
    server = await startServerProcess(env());
    await waitFor(() => receiver.received.length === 2, {
      timeout: 8 * DELIVERY_TIMEOUT_MS,
      what: 'the send after the restart',
    });
    const second = receiver.received[1]!;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    verifySignature(secret!, second);

    // The delivery log says so (the attempt is recorded once it is answered).
    const log = await waitFor(
      async () => {
        const page = await call(`/v1/integrations/${integration.id}/deliveries`, {
          token,
        });
        const [delivery] = (page.body as unknown as DeliveryPage).deliveries;
        return delivery?.status === 'delivered' ? delivery : undefined;
      },
      { timeout: 5000, what: 'the delivery recorded' },
    );
    expect(log).toMatchObject({
      event_id: first.headers['webhook-id'],
      event_type: 'device.enrolled',
      status: 'delivered',
      attempts: 1,
      last_status_code: 200,
      last_response: 'ok',
      last_error: null,
    });
    expect(receiver.received).toHaveLength(2);
  }, 90_000);
});
