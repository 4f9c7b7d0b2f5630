import type { SessionsContext } from './sessions.service.ts';
import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { csvReaderOf } from '../platform/http/request-facts.ts';
import { callerOf } from '../platform/http/caller.ts';
import { sendCsv } from '../platform/http/file-answer.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as history from './history.ts';
import * as sessions from './sessions.service.ts';

export function sessionsRoutes(app: AppInstance, ctx: SessionsContext) {
  registerRoute(app, routes.startSession, (request) =>
    sessions.startSession(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.listSessions, (request) =>
    history.listHistory(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.exportSessions, async (request, reply) => {
    const { fileName, stream } = await history.exportHistory(
      ctx,
      callerOf(request),
      request.query,
      csvReaderOf(request, request.query),
    );
    return sendCsv(reply, fileName, stream);
  });
  registerRoute(app, routes.listActiveSessions, (request) =>
    sessions.listActiveSessions(ctx, callerOf(request)),
  );
  registerRoute(app, routes.getSession, (request) =>
    sessions.getSession(ctx, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.cancelSession, (request) =>
    sessions.cancelSession(ctx, callerOf(request), request.params.id),
  );
}
