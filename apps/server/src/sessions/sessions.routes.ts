import {
  ActiveSessionList,
  ErrorBody,
  HistorySession,
  IdParams,
  SessionExportQuery,
  SessionList,
  SessionListQuery,
  StartedSession,
  StartSessionBody,
} from '@vrtc/contract';
import { create as contentDisposition } from 'content-disposition';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import * as history from './history.ts';
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
        description:
          'The History tab: newest first (order=asc for oldest first); without status, ended ' +
          'sessions only. Filters: from/to (UTC days of started_at, inclusive), vr_user_id, ' +
          'device_id, scenario_id.',
        querystring: SessionListQuery,
        response: { 200: SessionList, 400: ErrorBody },
      },
    },
    (request) => history.listHistory(ctx, callerOf(request), request.query),
  );

  app.get(
    '/v1/sessions/export',
    {
      schema: {
        tags,
        description:
          'The History CSV of every session matching the same filters as GET /v1/sessions, ' +
          'newest first: UTF-8 with a byte-order mark, the specification’s 16 columns, cells ' +
          'safe from formula injection; the file name carries the organisation, the date and ' +
          'the filters. Streamed, whatever its size.',
        querystring: SessionExportQuery,
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await history.exportHistory(
        ctx,
        callerOf(request),
        request.query,
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(fileName))
        .send(stream);
    },
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
