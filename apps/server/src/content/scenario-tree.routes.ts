import { ScenarioTreeList } from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import { listScenarioTree } from './scenario-tree.service.ts';

export function scenarioTreeRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/scenarios-full',
    {
      schema: {
        tags: ['scenarios'],
        description:
          'Active scenarios the caller’s organisation holds a live grant for (no expiry, or expiring ' +
          'later than now), with modules, levels and options nested in display order.',
        response: { 200: ScenarioTreeList },
      },
    },
    async (request) => ({ scenarios: await listScenarioTree(ctx, callerOf(request)) }),
  );
}
