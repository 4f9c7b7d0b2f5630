import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { type ServiceContext } from '../platform/service/context.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as access from './access.service.ts';

/** Admin management of which organisations may run which scenario, and until when. */
export function accessRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.scenarioAccess, (request) => access.accessMatrix(ctx, request.query));
  registerRoute(app, routes.scenarioGrants, (request) =>
    access.scenarioGrants(ctx, request.params.id, request.query),
  );
  registerRoute(app, routes.grantAccess, (request) =>
    access.grantAccess(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.revokeAccess, (request) =>
    access.revokeAccess(ctx, callerOf(request), request.params.id, request.body),
  );
}
