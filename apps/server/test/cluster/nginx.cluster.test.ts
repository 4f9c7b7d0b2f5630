import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, freePort, startNginx, type Nginx } from './cluster.ts';

/**
 * What deploy/nginx.conf does on its own, with a stand-in upstream whose timing the test controls:
 * a live stream (text/event-stream) passes event by event, and nginx's own errors come in the
 * API's { error, message } shape.
 */

const EVENT_GAP_MS = 1500;
let upstream: http.Server;
let upstreamPort: number;
let nginx: Nginx;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-nginx-'));

beforeAll(async () => {
  upstream = http.createServer((request, response) => {
    if (request.url === '/v1/live') {
      // An SSE stream: one event now, the next after a silence.
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      response.write('data: first\n\n');
      setTimeout(() => response.end('data: second\n\n'), EVENT_GAP_MS);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  upstreamPort = await freePort();
  await new Promise<void>((resolve) => upstream.listen(upstreamPort, '127.0.0.1', resolve));
  const { nginx: binary } = inject('cluster');
  // The second upstream never answers: nginx must go on to the first.
  nginx = await startNginx({
    nginx: binary,
    dir,
    port: await freePort(),
    upstreams: [`127.0.0.1:${upstreamPort}`, `127.0.0.1:${await freePort()}`],
  });
});

afterAll(async () => {
  await nginx?.stop();
  await new Promise((resolve) => upstream?.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('deploy/nginx.conf', () => {
  it('passes a text/event-stream through event by event, not when the stream ends', async () => {
    const started = Date.now();
    const arrivals: Array<{ at: number; text: string }> = [];
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${nginx.url}/v1/live`, (response) => {
          expect(response.headers['content-type']).toBe('text/event-stream');
          response.setEncoding('utf8');
          response.on('data', (text: string) => arrivals.push({ at: Date.now() - started, text }));
          response.on('end', resolve);
        })
        .on('error', reject);
    });
    expect(arrivals.map((arrival) => arrival.text).join('')).toBe(
      'data: first\n\ndata: second\n\n',
    );
    // The first event arrived well before the second was even written.
    expect(arrivals[0]!.text).toContain('data: first');
    expect(arrivals[0]!.at).toBeLessThan(EVENT_GAP_MS - 500);
  });

  it('answers with the API’s error shape when no node can answer or a body is too large', async () => {
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
    upstream.closeAllConnections();
    const down = await call(`${nginx.url}/v1/me`);
    expect(down.status).toBe(503);
    expect(down.headers['content-type']).toBe('application/json');
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body).toEqual({
      error: 'service_unavailable',
      message:
        'The service is unavailable right now (no server could answer). Try again in a moment.',
    });
    expect(down.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);

    const tooLarge = await call(`${nginx.url}/v1/vr-users`, {
      body: { name: 'x'.repeat(3 * 1024 * 1024) },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({
      error: 'payload_too_large',
      message: 'The request body is too large',
    });
  });
});
