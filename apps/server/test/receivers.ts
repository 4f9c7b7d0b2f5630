import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IntegrationWithSecret } from '@vrtc/contract';
import { Webhook } from 'standardwebhooks';
import { expect, vi } from 'vitest';
import validateStatement from 'xapi-validation';
import { recordOutbox } from '../src/outbox/outbox.ts';
import type { Tenant } from './factories.ts';
import type { TestApp } from './harness.ts';

/**
 * Real HTTP receivers on 127.0.0.1 for the integrations' tests: a webhook endpoint that checks
 * every signature with the `standardwebhooks` package, and a learning record store that checks
 * every statement with Learning Locker's `xapi-validation` and keeps them by id.
 */

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What the receiver answers next: a status, a body, headers; or 'hang' (never answers). */
export type Answer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

interface Listening {
  url: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

async function listen(
  handle: (request: Received, response: http.ServerResponse) => void,
  host = '127.0.0.1',
): Promise<Listening> {
  const received: Received[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      handle(entry, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Verifies a delivery's signature as a receiver would, with the standardwebhooks package. Its
 * timestamp check compares with the receiver's clock: here the test's clock, which tests move by
 * days, so Date is set to the delivery's own timestamp while the library checks.
 */
export function verifySignature(secret: string, delivery: Received): unknown {
  const timestamp = Number(delivery.headers['webhook-timestamp']) * 1000;
  vi.useFakeTimers({ toFake: ['Date'], now: timestamp });
  try {
    return new Webhook(secret).verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    });
  } finally {
    vi.useRealTimers();
  }
}

export interface WebhookReceiver extends Listening {
  /** Queue answers; when the queue is empty it answers 200 `ok`. */
  answer(...answers: Answer[]): void;
  /** Forgets what it received and what it was told to answer. */
  reset(): void;
}

/** `host`: another loopback address (127.0.0.2) is another receiving host to the dispatcher. */
export async function webhookReceiver(host?: string): Promise<WebhookReceiver> {
  const queue: Answer[] = [];
  const listening = await listen((_request, response) => {
    const next = queue.shift() ?? { status: 200, body: 'ok' };
    if (next === 'hang') return;
    response.writeHead(next.status, next.headers ?? {});
    response.end(next.body ?? '');
  }, host);
  return {
    ...listening,
    answer: (...answers) => queue.push(...answers),
    reset: () => {
      queue.length = 0;
      listening.received.length = 0;
    },
  };
}

export interface Lrs extends Listening {
  /** Statements stored, by id. */
  statements: Map<string, Record<string, unknown>>;
  /** Problems found in what was posted (validation warnings, a missing header or credential). */
  problems: string[];
}

/**
 * A learning record store as xAPI 1.0.3 has it, for what the dispatcher uses: POST /statements
 * with Basic auth and X-Experience-API-Version; every statement validated; a known id answered
 * 409 (nothing stored), new ones stored and their ids answered.
 */
export async function lrs(key: string, secret: string): Promise<Lrs> {
  const statements = new Map<string, Record<string, unknown>>();
  const problems: string[] = [];
  const expectedAuth = `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
  const listening = await listen((request, response) => {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== expectedAuth) return answer(401, { error: 'auth' });
    if (request.headers['x-experience-api-version'] !== '1.0.3') {
      problems.push(`version header ${String(request.headers['x-experience-api-version'])}`);
      return answer(400, { error: 'version' });
    }
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && path === '/xapi/statements') {
      return answer(200, { statements: [...statements.values()].slice(0, 1), more: '' });
    }
    if (request.method !== 'POST' || path !== '/xapi/statements') {
      return answer(404, { error: 'route' });
    }
    const posted = JSON.parse(request.body) as unknown;
    const list = (Array.isArray(posted) ? posted : [posted]) as Array<Record<string, unknown>>;
    for (const statement of list) {
      const warnings = validateStatement(statement);
      for (const warning of warnings) {
        problems.push(`${warning.name} at ${warning.path.join('.')}`);
      }
    }
    if (problems.length > 0) return answer(400, { error: 'invalid', problems });
    if (list.some((statement) => statements.has(String(statement.id)))) {
      return answer(409, { error: 'conflict' });
    }
    for (const statement of list) statements.set(String(statement.id), statement);
    return answer(
      200,
      list.map((statement) => statement.id),
    );
  });
  return { ...listening, statements, problems };
}

/** A webhook integration of `tenant` to `url` for `device.enrolled`, made through the API. */
export async function webhookTo(
  t: TestApp,
  tenant: Tenant,
  url: string,
): Promise<IntegrationWithSecret> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/integrations',
    headers: tenant.headers,
    payload: { kind: 'webhook', url, events: ['device.enrolled'] },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<IntegrationWithSecret>();
}

/** Commits a `device.enrolled` event of `tenant` to the outbox, as an enrolment does. */
export function recordEnrolled(t: TestApp, tenant: Tenant) {
  return t.db.transaction().execute((trx) =>
    recordOutbox(trx, {
      organizationId: tenant.organization.id,
      type: 'device.enrolled',
      at: t.clock.now(),
      data: {
        device_id: crypto.randomUUID(),
        organization_id: tenant.organization.id,
        name: 'Quest 7',
        type: 'quest',
        enrolled_at: t.clock.now().toISOString(),
      },
    }),
  );
}
