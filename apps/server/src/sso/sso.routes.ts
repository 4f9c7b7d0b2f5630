import { routes } from '@vrtc/contract';
import { callerOf } from '../auth/caller.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import * as sso from './sso.service.ts';

/** A platform admin's settings of an organisation's single sign-on (access admin). */
export function ssoAdminRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.getSsoConfig, (request) => sso.getSsoConfig(ctx, request.params.id));
  registerRoute(app, routes.putSsoConfig, (request) =>
    sso.putSsoConfig(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteSsoConfig, async (request) => {
    await sso.deleteSsoConfig(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });
}
