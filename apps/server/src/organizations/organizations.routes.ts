import type { OrganizationsContext } from './organizations.service.ts';
import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as organizations from './organizations.service.ts';

export function organizationsRoutes(app: AppInstance, ctx: OrganizationsContext) {
  registerRoute(app, routes.listOrganizations, (request) =>
    organizations.listOrganizations(ctx, request.query),
  );
  registerRoute(app, routes.createOrganization, (request) =>
    organizations.createOrganization(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.getOrganization, (request) =>
    organizations.getOrganization(ctx, request.params.id),
  );
  registerRoute(app, routes.updateOrganization, (request) =>
    organizations.updateOrganization(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteOrganization, async (request) => {
    await organizations.deleteOrganization(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });
  registerRoute(app, routes.organizationAnalytics, (request) =>
    ctx.organizationAnalytics.get(ctx, request.params.id, request.query),
  );
}
