import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { registerRoute } from '../platform/http/routes.ts';
import { callerOf } from '../platform/http/caller.ts';
import * as content from './content.service.ts';

const ok = { ok: true as const };

/** Admin management of scenario content (/v1/admin/scenarios, modules, levels, level-options). */
export function contentRoutes(app: AppInstance, ctx: ServiceContext) {
  const { scenarios, modules, levels, levelOptions } = content;
  registerRoute(app, routes.listScenarios, (request) => scenarios.list(ctx, request.query));
  registerRoute(app, routes.createScenario, (request) =>
    scenarios.create(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.getScenario, (request) => content.getScenario(ctx, request.params.id));
  registerRoute(app, routes.updateScenario, (request) =>
    scenarios.update(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteScenario, async (request) => {
    await scenarios.remove(ctx, callerOf(request), request.params.id);
    return ok;
  });

  // Children: the path's id is the parent's on list and create, the item's own otherwise.
  registerRoute(app, routes.listModules, (request) =>
    modules.list(ctx, request.query, request.params.id),
  );
  registerRoute(app, routes.createModule, (request) =>
    modules.create(ctx, callerOf(request), request.body, request.params.id),
  );
  registerRoute(app, routes.updateModule, (request) =>
    modules.update(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteModule, async (request) => {
    await modules.remove(ctx, callerOf(request), request.params.id);
    return ok;
  });

  registerRoute(app, routes.listLevels, (request) =>
    levels.list(ctx, request.query, request.params.id),
  );
  registerRoute(app, routes.createLevel, (request) =>
    levels.create(ctx, callerOf(request), request.body, request.params.id),
  );
  registerRoute(app, routes.updateLevel, (request) =>
    levels.update(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteLevel, async (request) => {
    await levels.remove(ctx, callerOf(request), request.params.id);
    return ok;
  });

  registerRoute(app, routes.listLevelOptions, (request) =>
    levelOptions.list(ctx, request.query, request.params.id),
  );
  registerRoute(app, routes.createLevelOption, (request) =>
    levelOptions.create(ctx, callerOf(request), request.body, request.params.id),
  );
  registerRoute(app, routes.updateLevelOption, (request) =>
    levelOptions.update(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteLevelOption, async (request) => {
    await levelOptions.remove(ctx, callerOf(request), request.params.id);
    return ok;
  });
}
