import {
  DEVICE_TYPES,
  type LiveEvent,
  type OrganizationStatsRange,
  type ScenarioStat,
  type OrganizationStatsQuery,
} from '@vrtc/contract';
import { sql } from 'kysely';
import type { Caller } from '../platform/http/caller.ts';
import type { Clock } from '../platform/service/clock.ts';
import { SharedAnswers } from '../platform/service/shared-answers.ts';
import type { Db } from '../platform/database/db.ts';
import { countSql, countWhereSql } from '../platform/database/counts.ts';
import { exportDayRange, type DayRange } from './period.ts';
import {
  byDeviceType,
  dailySeries,
  daysOf,
  organizationSummary,
  type StatsContext,
} from './stats.service.ts';
import {
  averageCompletionSql,
  groupKeySql,
  groupedNameSql,
  groupedOptionalNameSql,
  sessionFilterSql,
  successRateSql,
} from './stats-sql.ts';

/**
 * The statistics of the caller's organisation (GET /v1/stats, staff and the auditor): the global
 * screen's figures counted over its sessions alone, over the same period (period.ts). The
 * organisation is the caller's: no parameter can name another. Summary and daily series read its
 * daily rollups (session_daily); scenarios and headset types, kept in rollups for all
 * organisations together only, are counted from its sessions of the range, with the rules of
 * stats-sql.ts that the rollups' triggers follow.
 */
export function organizationStats(
  ctx: StatsContext & WithOrganizationStats,
  caller: Caller,
  query: OrganizationStatsQuery,
): Promise<OrganizationStatsRange> {
  const range = exportDayRange(ctx.clock.now(), query);
  return ctx.organizationStats.get(
    `${caller.organizationId}/${range.startDate}/${range.endDate}`,
    () => statsOf(ctx, caller, range),
  );
}

/**
 * An organisation's statistics shared between the requests for the same days (its staff opening
 * the screen again, or several at once) for up to ANALYTICS_MAX_AGE_MS, as its analytics are
 * (organizations/organization-analytics.ts): its scenarios and headset types are counted from its
 * sessions, which for the biggest organisation of the scale benchmark over a year costs seconds.
 * A session of the organisation starting or ending, or one of its headsets changing (live events,
 * from every process), drops its answers at once.
 */
declare module 'fastify' {
  interface FastifyInstance {
    organizationStats: OrganizationStatsAnswers;
  }
}

export class OrganizationStatsAnswers {
  private readonly answers: SharedAnswers<OrganizationStatsRange>;

  constructor(clock: Clock, maxAgeMs: number) {
    this.answers = new SharedAnswers(clock, { maxAgeMs });
  }

  get(key: string, compute: () => Promise<OrganizationStatsRange>) {
    return this.answers.get(key, compute);
  }

  /** A live event: the organisation's sessions or headsets changed. */
  heard(event: LiveEvent): void {
    if (event.type === 'session' && event.change === 'progress') return;
    this.answers.forget(`${event.organization_id}/`);
  }
}

/** What the organisation statistics' routes are handed beside the StatsContext. */
export interface WithOrganizationStats {
  organizationStats: Pick<OrganizationStatsAnswers, 'get'>;
}

async function statsOf(
  ctx: StatsContext,
  caller: Caller,
  range: DayRange,
): Promise<OrganizationStatsRange> {
  const organizationId = caller.organizationId;
  const [summary, daily, scenarios, types] = await Promise.all([
    organizationSummary(ctx.db, ctx.clock.now(), daysOf(range), organizationId),
    dailySeries(ctx.db, range, organizationId),
    scenarioStats(ctx.db, organizationId, range),
    deviceTypes(ctx, organizationId, range),
  ]);
  return {
    ...summary,
    scenario_stats: scenarios,
    organization_id: organizationId,
    organization_name: caller.organizationName,
    start_date: range.startDate,
    end_date: range.endDate,
    daily,
    device_types: types,
  };
}

const inRange = (organizationId: string, range: DayRange) =>
  sessionFilterSql('s', { organizationId, startedFrom: range.from, startedBefore: range.to });

/** Each scenario the organisation ran in the range, most-run first, by its current name. */
function scenarioStats(db: Db, organizationId: string, range: DayRange): Promise<ScenarioStat[]> {
  return db
    .selectFrom('sessions as s')
    .leftJoin('scenarios as sc', 'sc.id', 's.scenario_id')
    .where(inRange(organizationId, range))
    .select([
      groupedNameSql('sc.name', 's.scenario_name').as('scenario_name'),
      groupedOptionalNameSql('sc.id', 'sc.name_en', 's.scenario_name_en').as('scenario_name_en'),
      countSql().as('total_sessions'),
      countWhereSql(sql`s.status = 'completed'`).as('completed_sessions'),
      successRateSql('s').as('success_rate'),
      averageCompletionSql('s').as('average_completion'),
    ])
    .groupBy(groupKeySql('s.scenario_id', 's.scenario_name'))
    .orderBy('total_sessions', 'desc')
    .orderBy('scenario_name')
    .execute();
}

/** The range's sessions by the headset type recorded with them, and the organisation's headsets. */
async function deviceTypes(ctx: StatsContext, organizationId: string, range: DayRange) {
  const sessions = await ctx.db
    .selectFrom('sessions as s')
    .where(inRange(organizationId, range))
    .select(['s.device_type', countSql().as('count')])
    .groupBy('s.device_type')
    .execute();
  const types = [...new Set([...DEVICE_TYPES, ...sessions.map((row) => row.device_type)])];
  const devices = new Map(
    await Promise.all(
      types.map(
        async (type) => [type, await ctx.deviceFigures.counts({ organizationId, type })] as const,
      ),
    ),
  );
  return byDeviceType(sessions, devices);
}
