import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { type ServiceContext } from '../platform/service/context.ts';
import { callerOf } from './caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as auth from './auth.service.ts';

export function authRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.login, (request) => auth.login(ctx, request.body, request.ip));
  registerRoute(app, routes.me, (request) => auth.me(callerOf(request)));
  registerRoute(app, routes.logout, async (request) => {
    await auth.logout(ctx.db, callerOf(request));
    return { ok: true as const };
  });
  registerRoute(app, routes.changeOwnPassword, async (request) => {
    await auth.changeOwnPassword(ctx, callerOf(request), request.body, request.ip);
    return { ok: true as const };
  });
}
