import {
  ActiveSessionList,
  ErrorBody,
  HistorySession,
  IdParams,
  SessionList,
  SessionListQuery,
  StartedSession,
  StartSessionBody,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import * as sessions from './sessions.service.ts';

const tags = ['sessions'];

export function sessionsRoutes(app: AppInstance, ctx: ServiceContext) {
  app.post(
    '/v1/sessions/start',
    {
      schema: {
        tags,
        description:
          'Starts a session on a waiting device of the organisation. 404 unknown device, level ' +
          '(or no live grant) or VR user; 409 device_busy or device_not_waiting; 400 for an ' +
          'option that is not of the level. The VR user is matched by name or created.',
        body: StartSessionBody,
        response: { 201: StartedSession, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return sessions.startSession(ctx, callerOf(request), request.body);
    },
  );

  app.get(
    '/v1/sessions',
    {
      schema: {
        tags,
        description: 'Newest first. Without status, ended sessions only (the History tab).',
        querystring: SessionListQuery,
        response: { 200: SessionList },
      },
    },
    (request) => sessions.listSessions(ctx, callerOf(request), request.query),
  );

  app.get(
    '/v1/sessions/active',
    { schema: { tags, response: { 200: ActiveSessionList } } },
    async (request) => ({
      active_sessions: await sessions.listActiveSessions(ctx, callerOf(request)),
    }),
  );

  app.post(
    '/v1/sessions/:id/cancel',
    {
      schema: {
        tags,
        description: 'Ends an active session as cancelled; 409 session_not_active once ended.',
        params: IdParams,
        response: { 200: HistorySession, 404: ErrorBody, 409: ErrorBody },
      },
    },
    (request) => sessions.cancelSession(ctx, callerOf(request), request.params.id),
  );
}
