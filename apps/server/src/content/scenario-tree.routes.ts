import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import { registerRoute } from '../platform/routes.ts';
import { listScenarioTree } from './scenario-tree.service.ts';

export function scenarioTreeRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.scenarioTree, async (request) => ({
    scenarios: await listScenarioTree(ctx, callerOf(request)),
  }));
}
