import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A route called so often that a log line and a latency sample per request would cost more
     * than they tell: `heartbeat` (every headset, every few seconds) is only counted
     * (vrtc_heartbeats_total), `probe` (balancers polling /healthz, /readyz) not even that.
     */
    hotPath?: 'heartbeat' | 'probe';
  }
}

/**
 * An id handed over by the proxy in front (nginx's $request_id is 32 hex digits), or by any
 * client: sane ones are logged as `client_request_id`, so the proxy's access log and ours name a
 * request alike; anything longer or stranger is dropped.
 */
const FORWARDED_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Fastify's `genReqId`: always an id of our own (a UUID). A client's X-Request-Id is its to
 * choose, so it is never taken as ours: the audit log's request id, which ties an event to the
 * log's lines, must not be one a client can forge or repeat.
 */
export function requestIdOf(): string {
  return crypto.randomUUID();
}

/** The X-Request-Id the client (or the proxy) sent, when it is a sane one. */
export function clientRequestIdOf(request: IncomingMessage): string | undefined {
  const forwarded = request.headers['x-request-id'];
  return typeof forwarded === 'string' && FORWARDED_REQUEST_ID.test(forwarded)
    ? forwarded
    : undefined;
}

/**
 * Never written to the log, whatever a log call passes by mistake (pino's `redact`). The access
 * line below holds none of them anyway: no headers, no body, no query string.
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'password',
  'new_password',
  'token',
  'device_token',
  '*.password',
  '*.new_password',
  '*.token',
  '*.device_token',
  'body',
  '*.body',
];

/**
 * One JSON line per request once it is answered (`"msg":"request"`), with the request id pino
 * already adds as `reqId`, and one latency sample per route and status. Only the path is written,
 * never the query string (list searches hold people's names, download links their signature),
 * headers or body. Heartbeats and probes (`hotPath`) are skipped after a single map lookup, so
 * the heartbeat's hot path pays for neither (docs/operations.md says why, and what to watch
 * instead).
 *
 * Fastify's own two lines per request are turned off (`disableRequestLogging`) in buildApp.
 */
export function registerRequestLog(app: FastifyInstance, metrics: Metrics): void {
  // Hot routes have fixed paths, so the raw URL finds them without building routeOptions.
  const hot = new Map<string, 'heartbeat' | 'probe'>();
  app.addHook('onRoute', (route) => {
    const kind = route.config?.hotPath;
    if (kind) hot.set(route.url, kind);
  });

  app.addHook('onResponse', (request, reply, done) => {
    const kind = hot.get(request.url);
    if (kind !== undefined) {
      if (kind === 'heartbeat') {
        (reply.statusCode === 200 ? metrics.heartbeatsOk : metrics.heartbeatsRefused).inc();
      }
      return done();
    }
    const ms = reply.elapsedTime;
    const clientRequestId = clientRequestIdOf(request.raw);
    // The declared route, never the URL: a label per distinct URL would grow without bound.
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observeRequest(request.method, route, reply.statusCode, ms / 1000);
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?', 1)[0],
        route,
        status: reply.statusCode,
        ms: Math.round(ms * 10) / 10,
        ip: request.ip,
        ...(clientRequestId ? { client_request_id: clientRequestId } : {}),
        ...(request.caller ? { account_id: request.caller.accountId } : {}),
        ...(request.device ? { device_id: request.device.id } : {}),
      },
      'request',
    );
    done();
  });
}
