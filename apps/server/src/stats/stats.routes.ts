import type { StatsContext } from './stats.service.ts';
import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { registerRoute } from '../platform/http/routes.ts';
import * as stats from './stats.service.ts';

export function statsRoutes(app: AppInstance, ctx: StatsContext) {
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
