import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { type ServiceContext } from '../platform/service/context.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as vrUsers from './vr-users.service.ts';

export function vrUsersRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.listVrUsers, (request) =>
    vrUsers.listVrUsers(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.getVrUser, (request) =>
    vrUsers.getVrUser(ctx.db, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.createVrUser, (request) =>
    vrUsers.createVrUser(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.updateVrUser, (request) =>
    vrUsers.updateVrUser(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteVrUser, async (request) => {
    await vrUsers.deleteVrUser(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });
  registerRoute(app, routes.listVrUserSessions, (request) =>
    vrUsers.listVrUserSessions(ctx, callerOf(request), request.params.id, request.query),
  );
}
