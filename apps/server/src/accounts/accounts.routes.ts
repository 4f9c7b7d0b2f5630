import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { type ServiceContext } from '../platform/service/context.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as accounts from './accounts.service.ts';
import { getOwnSettings, putOwnSettings } from './own-settings.ts';

export function accountsRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.listAccounts, (request) => accounts.listAccounts(ctx, request.query));
  registerRoute(app, routes.createAccount, (request) =>
    accounts.createAccount(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.getAccount, (request) => accounts.getAccount(ctx, request.params.id));
  registerRoute(app, routes.updateAccount, (request) =>
    accounts.updateAccount(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteAccount, async (request) => {
    await accounts.deleteAccount(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });
  registerRoute(app, routes.changePassword, async (request) => {
    await accounts.changePassword(ctx, callerOf(request), request.params.id, request.body);
    return { ok: true as const };
  });
  registerRoute(app, routes.getOwnSettings, (request) => getOwnSettings(ctx, callerOf(request)));
  registerRoute(app, routes.putOwnSettings, (request) =>
    putOwnSettings(ctx, callerOf(request), request.body),
  );
}
