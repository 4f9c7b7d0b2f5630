import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { type ServiceContext } from '../platform/service/context.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import { listScenarioTree } from './scenario-tree.service.ts';

export function scenarioTreeRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.scenarioTree, async (request) => ({
    scenarios: await listScenarioTree(ctx, callerOf(request)),
  }));
}
