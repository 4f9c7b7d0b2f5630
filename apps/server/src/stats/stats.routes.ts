import type { StatsContext } from './stats.service.ts';
import { routes } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { sendCsv } from '../platform/http/file-answer.ts';
import { registerRoute } from '../platform/http/routes.ts';
import { callerOf } from '../platform/http/caller.ts';
import { csvReaderOf } from '../platform/http/request-facts.ts';
import { exportOrganizationStats, exportStats } from './stats-csv.ts';
import { organizationStats, type WithOrganizationStats } from './organization-stats.ts';
import * as stats from './stats.service.ts';
import * as record from './training-record.ts';

export function statsRoutes(app: AppInstance, ctx: StatsContext & WithOrganizationStats) {
  registerRoute(app, routes.globalStats, () => stats.globalStats(ctx));
  registerRoute(app, routes.rangeStats, (request) => stats.rangeStats(ctx, request.query));
  registerRoute(app, routes.exportStats, async (request, reply) => {
    const file = await exportStats(ctx, request.query, csvReaderOf(request, request.query));
    return sendCsv(reply, file.filename, file.body);
  });
  // The caller's own organisation's figures: the organisation is the session's, never a parameter.
  registerRoute(app, routes.organizationStats, (request) =>
    organizationStats(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.exportOrganizationStats, async (request, reply) => {
    const file = await exportOrganizationStats(
      ctx,
      callerOf(request),
      request.query,
      csvReaderOf(request, request.query),
    );
    return sendCsv(reply, file.filename, file.body);
  });
  // A trainee's record is figures over their sessions, counted as the statistics count.
  registerRoute(app, routes.vrUserRecord, (request) =>
    record.trainingRecord(ctx, callerOf(request), request.params.id),
  );
  registerRoute(app, routes.exportVrUserRecord, async (request, reply) => {
    const file = await record.exportTrainingRecord(
      ctx,
      callerOf(request),
      request.params.id,
      csvReaderOf(request, request.query),
    );
    return sendCsv(reply, file.fileName, file.body);
  });
}
