import {
  ErrorBody,
  IdParams,
  OkBody,
  VrUser,
  VrUserBody,
  VrUserList,
  VrUserListQuery,
  VrUserSessionList,
  VrUserSessionsQuery,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import * as vrUsers from './vr-users.service.ts';

const tags = ['vr-users'];

export function vrUsersRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/vr-users',
    {
      schema: {
        tags,
        description:
          'The organisation’s VR users, a page at a time; `q` matches the name or the notes.',
        querystring: VrUserListQuery,
        response: { 200: VrUserList },
      },
    },
    (request) => vrUsers.listVrUsers(ctx, callerOf(request), request.query),
  );

  app.post(
    '/v1/vr-users',
    { schema: { tags, body: VrUserBody, response: { 201: VrUser } } },
    async (request, reply) => {
      reply.status(201);
      return vrUsers.createVrUser(ctx, callerOf(request), request.body);
    },
  );

  app.put(
    '/v1/vr-users/:id',
    {
      schema: {
        tags,
        params: IdParams,
        body: VrUserBody,
        response: { 200: VrUser, 404: ErrorBody },
      },
    },
    (request) => vrUsers.updateVrUser(ctx, callerOf(request), request.params.id, request.body),
  );

  app.delete(
    '/v1/vr-users/:id',
    {
      schema: {
        tags,
        description: 'Refused with 409 vr_user_has_sessions while the VR user has any session.',
        params: IdParams,
        response: { 200: OkBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (request) => {
      await vrUsers.deleteVrUser(ctx, callerOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.get(
    '/v1/vr-users/:id/sessions',
    {
      schema: {
        tags,
        params: IdParams,
        querystring: VrUserSessionsQuery,
        response: { 200: VrUserSessionList, 404: ErrorBody },
      },
    },
    (request) =>
      vrUsers.listVrUserSessions(ctx, callerOf(request), request.params.id, request.query),
  );
}
