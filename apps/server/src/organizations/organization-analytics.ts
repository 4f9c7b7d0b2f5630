import {
  isoDate,
  ORGANIZATION_ANALYTICS_DEFAULT_DAYS,
  ORGANIZATION_ANALYTICS_TOP_DEVICES,
  ORGANIZATION_ANALYTICS_TOP_VR_USERS,
  type OrganizationAnalytics,
  type OrganizationAnalyticsQuery,
  type OrganizationDeviceUsage,
  type OrganizationScenarioStat,
  type OrganizationTopVrUser,
  type LiveEvent,
} from '@vrtc/contract';
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type RawBuilder,
  type Selectable,
} from 'kysely';
import type { Database, OrganizationsTable, SessionsTable } from '../platform/database/schema.ts';
import type { Clock } from '../platform/service/clock.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { SharedAnswers } from '../platform/service/shared-answers.ts';
import { notFound } from '../platform/service/errors.ts';
import { countSql } from '../platform/database/counts.ts';
import {
  averageCompletionSql,
  groupKeySql,
  groupedNameSql,
  groupedOptionalNameSql,
  sessionFilterSql,
  successRateSql,
} from '../stats/stats-sql.ts';
import { lastDaysRange } from '../stats/period.ts';

/**
 * Analytics answers shared between the requests for one organisation and window (an admin's
 * modal opened again, or by several admins) for up to ANALYTICS_MAX_AGE_MS. A session of the
 * organisation starting or ending, or one of its headsets changing, drops its answers (live
 * events, from every process), so what the modal shows is as of the last change; the age limit
 * bounds what no event tells of (a VR user renamed, sessions imported with SQL, the window moving
 * on). Computing one takes 30–60 ms of PostgreSQL for the biggest organisation of the scale
 * benchmark, which ten admins asking at once would otherwise pay ten times.
 */
declare module 'fastify' {
  interface FastifyInstance {
    organizationAnalytics: OrganizationAnalyticsAnswers;
  }
}

/** An organisation's analytics, shared until its sessions or headsets change. */
export interface SharedAnalytics {
  get(
    ctx: ServiceContext,
    id: string,
    query: OrganizationAnalyticsQuery,
  ): Promise<OrganizationAnalytics>;
}

/** What the organisation routes are handed beside the ServiceContext. */
export interface WithAnalytics {
  organizationAnalytics: SharedAnalytics;
}

export class OrganizationAnalyticsAnswers implements SharedAnalytics {
  private readonly answers: SharedAnswers<OrganizationAnalytics>;

  constructor(
    private readonly clock: Clock,
    maxAgeMs: number,
  ) {
    this.answers = new SharedAnswers(clock, { maxAgeMs });
  }

  get(
    ctx: ServiceContext,
    id: string,
    query: OrganizationAnalyticsQuery,
  ): Promise<OrganizationAnalytics> {
    const days = query.days ?? ORGANIZATION_ANALYTICS_DEFAULT_DAYS;
    // The period is calendar days: an answer of yesterday's is never today's.
    const today = isoDate(this.clock.now());
    return this.answers.get(`${id}/${days}/${today}`, (now) =>
      computeAnalytics(ctx, id, days, now),
    );
  }

  /** A live event: the organisation's sessions or headsets changed. */
  heard(event: LiveEvent): void {
    if (event.type === 'session' && event.change === 'progress') return;
    this.answers.forget(`${event.organization_id}/`);
  }
}

/**
 * The analytics of one organisation (the 30-day modal of the organisations page): top VR users,
 * headsets and scenarios over its sessions started in the last `days` days, the statistics'
 * period (stats/period.ts: UTC calendar days ending today), so its counts are the statistics'.
 *
 * One statement: the window's sessions are read once (the biggest organisation of the scale
 * benchmark has 11,000 in 30 days; reading them once per figure tripled the cost) and grouped three
 * ways. Only the leading groups (ties at the cut included, so the order by name stays exact) meet
 * the VR user and device tables, by id: joining every group hashed all 50,000 VR users per request.
 */
async function computeAnalytics(
  ctx: ServiceContext,
  id: string,
  days: number,
  now: Date,
): Promise<OrganizationAnalytics> {
  const period = lastDaysRange(now, days);
  const inWindow = sessionFilterSql('s', {
    organizationId: id,
    startedFrom: period.from,
    startedBefore: period.to,
  });
  const row = await ctx.db
    .with('w', (db) =>
      db
        .selectFrom('sessions as s')
        .where(inWindow)
        .select([
          's.vr_user_id',
          's.vr_user_name',
          's.device_id',
          's.device_name',
          's.device_type',
          's.scenario_id',
          's.scenario_name',
          's.scenario_name_en',
          's.status',
          's.success',
          's.completed_tasks',
          's.max_tasks',
        ]),
    )
    .selectFrom('organizations as o')
    .where('o.id', '=', id)
    .select((eb) => [
      topVrUsers(eb).as('top_vr_users'),
      deviceUsage(eb).as('device_usage'),
      scenarioStats(eb).as('scenario_stats'),
    ])
    .executeTakeFirst();
  if (!row) throw notFound('Organization');
  return { days, start_date: period.startDate, end_date: period.endDate, ...row };
}

/** The window's sessions, as the common table `w` of computeAnalytics holds them. */
type WindowRow = Pick<
  Selectable<SessionsTable>,
  | 'vr_user_id'
  | 'vr_user_name'
  | 'device_id'
  | 'device_name'
  | 'device_type'
  | 'scenario_id'
  | 'scenario_name'
  | 'scenario_name_en'
  | 'status'
  | 'success'
  | 'completed_tasks'
  | 'max_tasks'
>;
type WindowBuilder = ExpressionBuilder<Database & { w: WindowRow; o: OrganizationsTable }, 'o'>;

/** The trainees with the most sessions in the window, by their current names. */
const topVrUsers = (eb: WindowBuilder) =>
  jsonArray<OrganizationTopVrUser>(
    eb
      .selectFrom(
        eb
          .selectFrom('w as s')
          .select([
            's.vr_user_id',
            sql<string>`max(s.vr_user_name)`.as('recorded_name'),
            countSql().as('session_count'),
            successRateSql('s').as('success_rate'),
          ])
          .groupBy(groupKeySql('s.vr_user_id', 's.vr_user_name'))
          .modifyEnd(leadingGroups(ORGANIZATION_ANALYTICS_TOP_VR_USERS))
          .as('g'),
      )
      .leftJoin('vr_users as v', 'v.id', 'g.vr_user_id')
      .select([
        'g.vr_user_id',
        sql<string>`coalesce(v.name, g.recorded_name)`.as('name'),
        'g.session_count',
        'g.success_rate',
      ])
      .orderBy('g.session_count', 'desc')
      .orderBy('name')
      .limit(ORGANIZATION_ANALYTICS_TOP_VR_USERS),
  );

/** The headsets used in the window, the busiest first, by their current names. */
const deviceUsage = (eb: WindowBuilder) =>
  jsonArray<OrganizationDeviceUsage>(
    eb
      .selectFrom(
        eb
          .selectFrom('w as s')
          .select([
            's.device_id',
            sql<string>`max(s.device_name)`.as('recorded_name'),
            sql<string>`max(s.device_type)`.as('recorded_type'),
            countSql().as('session_count'),
          ])
          .groupBy([
            ...groupKeySql('s.device_id', 's.device_name'),
            ...groupKeySql('s.device_id', 's.device_type'),
          ])
          .modifyEnd(leadingGroups(ORGANIZATION_ANALYTICS_TOP_DEVICES))
          .as('g'),
      )
      .leftJoin('devices as d', 'd.id', 'g.device_id')
      .select([
        'g.device_id',
        sql<string>`coalesce(d.name, g.recorded_name)`.as('device_name'),
        sql<string>`coalesce(d.type, g.recorded_type)`.as('device_type'),
        'g.session_count',
      ])
      .orderBy('g.session_count', 'desc')
      .orderBy('device_name')
      .limit(ORGANIZATION_ANALYTICS_TOP_DEVICES),
  );

/** Each scenario run in the window with its success rate and completion. */
const scenarioStats = (eb: WindowBuilder) =>
  jsonArray<OrganizationScenarioStat>(
    eb
      .selectFrom('w as s')
      .leftJoin('scenarios as sc', 'sc.id', 's.scenario_id')
      .select([
        groupedNameSql('sc.name', 's.scenario_name').as('scenario_name'),
        groupedOptionalNameSql('sc.id', 'sc.name_en', 's.scenario_name_en').as('scenario_name_en'),
        countSql().as('session_count'),
        successRateSql('s').as('success_rate'),
        averageCompletionSql('s').as('average_completion'),
      ])
      .groupBy(groupKeySql('s.scenario_id', 's.scenario_name'))
      .orderBy('session_count', 'desc')
      .orderBy('scenario_name'),
  );

/**
 * The `limit` groups with the most sessions, and every group tied with the last of them: the
 * final order (by current name) picks among the tied ones once names are joined.
 */
const leadingGroups = (limit: number): RawBuilder<unknown> =>
  sql`ORDER BY session_count DESC FETCH FIRST ${sql.lit(limit)} ROWS WITH TIES`;

/** A subquery's rows as one JSON array, in the subquery's order. */
function jsonArray<Row>(subquery: Expression<unknown>): RawBuilder<Row[]> {
  return sql<Row[]>`(SELECT coalesce(json_agg(agg), '[]') FROM (${subquery}) AS agg)`;
}
