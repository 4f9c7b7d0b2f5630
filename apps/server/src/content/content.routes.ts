import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as content from './content.service.ts';

const ok = { ok: true as const };

/** Admin management of scenario content (/v1/admin/scenarios, modules, levels, level-options). */
export function contentRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.listScenarios, (request) => content.listScenarios(ctx, request.query));
  registerRoute(app, routes.createScenario, (request) => content.createScenario(ctx, request.body));
  registerRoute(app, routes.getScenario, (request) => content.getScenario(ctx, request.params.id));
  registerRoute(app, routes.updateScenario, (request) =>
    content.updateScenario(ctx, request.params.id, request.body),
  );
  registerRoute(app, routes.deleteScenario, async (request) => {
    await content.deleteScenario(ctx, request.params.id);
    return ok;
  });

  registerRoute(app, routes.listModules, (request) =>
    content.listModules(ctx, request.params.id, request.query),
  );
  registerRoute(app, routes.createModule, (request) =>
    content.createModule(ctx, request.params.id, request.body),
  );
  registerRoute(app, routes.updateModule, (request) =>
    content.updateModule(ctx, request.params.id, request.body),
  );
  registerRoute(app, routes.deleteModule, async (request) => {
    await content.deleteModule(ctx, request.params.id);
    return ok;
  });

  registerRoute(app, routes.listLevels, (request) =>
    content.listLevels(ctx, request.params.id, request.query),
  );
  registerRoute(app, routes.createLevel, (request) =>
    content.createLevel(ctx, request.params.id, request.body),
  );
  registerRoute(app, routes.updateLevel, (request) =>
    content.updateLevel(ctx, request.params.id, request.body),
  );
  registerRoute(app, routes.deleteLevel, async (request) => {
    await content.deleteLevel(ctx, request.params.id);
    return ok;
  });

  registerRoute(app, routes.listLevelOptions, (request) =>
    content.listLevelOptions(ctx, request.params.id, request.query),
  );
  registerRoute(app, routes.createLevelOption, (request) =>
    content.createLevelOption(ctx, request.params.id, request.body),
  );
  registerRoute(app, routes.updateLevelOption, (request) =>
    content.updateLevelOption(ctx, request.params.id, request.body),
  );
  registerRoute(app, routes.deleteLevelOption, async (request) => {
    await content.deleteLevelOption(ctx, request.params.id);
    return ok;
  });
}
