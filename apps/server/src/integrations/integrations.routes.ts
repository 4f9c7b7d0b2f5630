import { routes } from '@vrtc/contract';
import { callerOf } from '../platform/http/caller.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import * as integrations from './integrations.service.ts';
import { revokePreviousSecret, rotateSecret } from './secret-rotation.ts';
import { testIntegration } from './test-send.ts';

export function integrationsRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.listIntegrations, (request) =>
    integrations.listIntegrations(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.createIntegration, (request) =>
    integrations.createIntegration(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.getIntegration, (request) =>
    integrations.getIntegration(ctx, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.updateIntegration, (request) =>
    integrations.updateIntegration(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteIntegration, (request) =>
    integrations.deleteIntegration(ctx, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.rotateIntegrationSecret, (request) =>
    rotateSecret(ctx, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.revokePreviousIntegrationSecret, (request) =>
    revokePreviousSecret(ctx, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.testIntegration, (request) =>
    testIntegration(ctx, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.listDeliveries, (request) =>
    integrations.listDeliveries(ctx, callerOf(request), request.params.id, request.query),
  );
  registerRoute(app, routes.redeliver, (request) =>
    integrations.redeliver(ctx, callerOf(request), request.params.id, request.params.deliveryId),
  );
}
