import {
  LIVE_KEEPALIVE_SECONDS,
  LIVE_STREAMS_PER_ACCOUNT,
  routes,
  type LiveEvent,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { type ServiceContext } from '../platform/service/context.ts';
import { callerOf, type Caller } from '../auth/caller.ts';
import { AppError } from '../platform/service/errors.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { LiveEvents } from './live-events.ts';

/** Whether the caller's screens show what the event is about. */
export function concerns(caller: Caller, event: LiveEvent): boolean {
  if (event.organization_id === caller.organizationId) return true;
  // The admin device list shows every organisation's devices.
  return caller.role === 'admin' && event.type === 'device';
}

const tooMany = (limit: number, scope: 'account' | 'server') =>
  new AppError(
    'too_many_streams',
    scope === 'account'
      ? `At most ${limit} live streams per account at once; close one (another tab) or rely on refreshes`
      : `The server holds its ${limit} live streams already; the console refreshes instead`,
    { details: { limit, scope } },
  );

/**
 * GET /v1/events: the console's live stream (Server-Sent Events). The response is written by hand
 * (the reply is hijacked): it stays open, so the usual one-shot reply does not fit. Streams end
 * when the client goes, or when the server closes (before it stops listening: preClose).
 */
export function liveEventRoutes(app: AppInstance, ctx: ServiceContext, live: LiveEvents) {
  const streams = new Set<() => void>();
  const perAccount = new Map<string, number>();
  app.addHook('preClose', async () => {
    for (const end of [...streams]) end();
  });

  registerRoute(app, routes.liveEvents, async (request, reply) => {
    const caller = callerOf(request);
    const mine = perAccount.get(caller.accountId) ?? 0;
    if (mine >= LIVE_STREAMS_PER_ACCOUNT) throw tooMany(LIVE_STREAMS_PER_ACCOUNT, 'account');
    if (streams.size >= ctx.config.liveMaxStreams)
      throw tooMany(ctx.config.liveMaxStreams, 'server');

    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // nginx: pass each event on at once rather than buffering the response.
      'x-accel-buffering': 'no',
    });
    let id = 0;
    const send = (name: string, data: unknown) =>
      response.write(`id: ${++id}\nevent: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
    // A reconnecting EventSource-like client waits this long; the console's own client backs off.
    response.write('retry: 2000\n\n');
    send('ready', { keepalive_seconds: LIVE_KEEPALIVE_SECONDS });

    const unsubscribe = live.subscribe((event) => {
      if (concerns(caller, event)) send(event.type, event);
    });
    const keepalive = setInterval(
      () => response.write(': keepalive\n\n'),
      LIVE_KEEPALIVE_SECONDS * 1000,
    );
    keepalive.unref();
    perAccount.set(caller.accountId, mine + 1);

    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepalive);
      unsubscribe();
      streams.delete(end);
      const left = (perAccount.get(caller.accountId) ?? 1) - 1;
      if (left > 0) perAccount.set(caller.accountId, left);
      else perAccount.delete(caller.accountId);
      response.end();
    };
    streams.add(end);
    request.raw.on('close', end);
    response.on('error', end);
  });
}
