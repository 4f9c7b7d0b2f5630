import {
  ErrorBody,
  GlobalStats,
  StatsExportQuery,
  StatsRange,
  StatsRangeQuery,
} from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import type { ServiceContext } from '../platform/context.ts';
import * as stats from './stats.service.ts';

const tags = ['admin-stats'];

export function statsRoutes(app: AppInstance, ctx: ServiceContext) {
  app.get(
    '/v1/admin/stats',
    {
      schema: {
        tags,
        description:
          'All-time figures over every session; today/week/month are UTC, weeks start on Monday.',
        response: { 200: GlobalStats },
      },
    },
    () => stats.globalStats(ctx),
  );

  app.get(
    '/v1/admin/stats/range',
    {
      schema: {
        tags,
        description:
          'The same figures over sessions started within start_date..end_date (UTC days, inclusive, ' +
          'at most 366), with a daily series covering every day, device types and the top 5 organisations.',
        querystring: StatsRangeQuery,
        response: { 200: StatsRange, 400: ErrorBody },
      },
    },
    (request) => stats.rangeStats(ctx, request.query),
  );

  app.get(
    '/v1/admin/stats/export',
    {
      schema: {
        tags,
        description:
          'The range figures as a CSV file (UTF-8 with byte-order mark). Dates default to the last ' +
          '30 days ending today (UTC); csv is the only format.',
        querystring: StatsExportQuery,
        response: {
          200: {
            description: 'CSV file',
            content: { 'text/csv': { schema: { type: 'string' } } },
          },
          400: ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const file = await stats.exportStats(ctx, request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(file.body);
    },
  );
}
