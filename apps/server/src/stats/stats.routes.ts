import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import type { ServiceContext } from '../platform/context.ts';
import { registerRoute } from '../platform/routes.ts';
import * as stats from './stats.service.ts';

export function statsRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.globalStats, () => stats.globalStats(ctx));
  registerRoute(app, routes.rangeStats, (request) => stats.rangeStats(ctx, request.query));
  registerRoute(app, routes.exportStats, async (request, reply) => {
    const file = await stats.exportStats(ctx, request.query);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .send(file.body);
  });
}
