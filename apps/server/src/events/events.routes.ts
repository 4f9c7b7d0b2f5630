import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { LiveStreams } from './live-streams.ts';

/**
 * GET /v1/events: the console's live stream (Server-Sent Events). The response is written by hand
 * (the reply is hijacked): it stays open, so the usual one-shot reply does not fit. Streams end
 * when the client goes, when the sign-in that opened them no longer speaks for the same identity
 * (live-streams.ts), or when the server closes (before it stops listening: preClose).
 */
export function liveEventRoutes(app: AppInstance, streams: LiveStreams) {
  app.addHook('preClose', async () => streams.endAll());

  registerRoute(app, routes.liveEvents, async (request, reply) => {
    await streams.open(callerOf(request), {
      start: () => {
        reply.hijack();
        return reply.raw;
      },
      onClientGone: (end) => request.raw.on('close', end),
    });
  });
}
