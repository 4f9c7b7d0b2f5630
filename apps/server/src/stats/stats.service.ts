import {
  DAY_MS,
  DEVICE_TYPES,
  addDays,
  isoDate,
  startOfUtcDay,
  STATS_TOP_ORGANIZATIONS,
  type DailyStat,
  type DeviceTypeStat,
  type GlobalStats,
  type ScenarioStat,
  type StatsExportQuery,
  type StatsRange,
  type StatsRangeQuery,
  type TopOrganization,
} from '@vrtc/contract';
import { sql, type RawBuilder } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Db } from '../platform/database/db.ts';
import type {
  SessionDailyAllTable,
  SessionDailyScenarioTable,
} from '../platform/database/schema.ts';
import { dayRange, exportDayRange, type DayRange } from './period.ts';
import { currentNameSql, currentOptionalNameSql, groupKeySql } from './stats-sql.ts';
import type { WithFleetCounts } from '../devices/device-figures.ts';

/** What the stats services are handed beside the infrastructure. */
export type StatsContext = ServiceContext & WithFleetCounts;

/** The current UTC day, week (Monday first) and month around `now`, as [start, end). */
function periods(now: Date) {
  const today = startOfUtcDay(now);
  const weekStart = addDays(today, -((today.getUTCDay() + 6) % 7));
  const monthStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
  return {
    today: [today, addDays(today, 1)],
    week: [weekStart, addDays(weekStart, 7)],
    month: [monthStart, new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1))],
  } as const;
}

/**
 * UTC days [from, to) as the rollups hold them ('YYYY-MM-DD'); unbounded when absent. The global
 * figures read the daily rollups of migration 0004, never the sessions table: a year is ~365 rows
 * per organisation, however many sessions it holds.
 */
export interface Days {
  from?: string;
  to?: string;
}

function dayCondition(column: string, days: Days): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [];
  if (days.from) parts.push(sql`${sql.ref(column)} >= ${days.from}::date`);
  if (days.to) parts.push(sql`${sql.ref(column)} < ${days.to}::date`);
  return parts.length ? sql<boolean>`(${sql.join(parts, sql` AND `)})` : sql<boolean>`true`;
}

/** Ended sessions of a rollup row set: every session but the active ones. */
const ENDED = sql`(sum(r.sessions) - sum(r.active))`;
const percentOfEnded = (numerator: RawBuilder<unknown>) =>
  sql<number>`coalesce(round(100.0 * ${numerator} / nullif(${ENDED}, 0), 1), 0)::float8`;

/** 'YYYY-MM-DD' of the first day of the month of `day`, and of the month after. */
const monthOf = (day: string) => `${day.slice(0, 7)}-01`;
const monthAfter = (day: string) =>
  isoDate(new Date(Date.UTC(+day.slice(0, 4), +day.slice(5, 7), 1)));

/**
 * The rows of a rollup kept by day and by month that cover `days`: whole months from the monthly
 * table and only the days at the ends from the daily one, so a year reads about 12 months per key,
 * and all time reads months alone. The month under way at the end is read whole as well when no
 * session started after the range within it (always so for a range that ends today): its monthly
 * row then holds exactly the range's days of it.
 */
function rollupRows(
  tables: { monthly: string; daily: string },
  columns: RawBuilder<unknown>,
  days: Days,
): RawBuilder<unknown> {
  const monthly = sql.table(tables.monthly);
  const daily = sql.table(tables.daily);
  const fullFrom =
    days.from && days.from !== monthOf(days.from) ? monthAfter(days.from) : days.from;
  const fullTo = days.to ? monthOf(days.to) : undefined;
  if (fullFrom && fullTo && fullFrom >= fullTo) {
    return sql`SELECT ${columns} FROM ${daily} WHERE ${dayCondition('day', days)}`;
  }
  const months = sql`SELECT ${columns} FROM ${monthly} WHERE ${dayCondition('month', { from: fullFrom, to: fullTo })}`;
  const parts = [months];
  if (days.from && fullFrom !== days.from) {
    parts.push(
      sql`SELECT ${columns} FROM ${daily} WHERE ${dayCondition('day', { from: days.from, to: fullFrom })}`,
    );
  }
  if (days.to && fullTo && fullTo !== days.to) {
    const laterInMonth = sql`EXISTS (SELECT 1 FROM session_daily_all
      WHERE ${dayCondition('day', { from: days.to, to: monthAfter(fullTo) })} AND sessions <> 0)`;
    parts.push(
      sql`SELECT ${columns} FROM ${monthly} WHERE month = ${fullTo}::date AND NOT ${laterInMonth}`,
      sql`SELECT ${columns} FROM ${daily} WHERE ${dayCondition('day', { from: fullTo, to: days.to })} AND ${laterInMonth}`,
    );
  }
  return sql.join(parts, sql` UNION ALL `);
}

/**
 * Scenario figures from the scenario rollups, most-run first. The rollup rows are summed per
 * scenario before the live scenarios are joined for their current names: a year is ~250 rows to
 * sum and ~20 to join, and the plan stays small (planning was a third of the query's time).
 */
function rolledUpScenarioStats(db: Db, days: Days): Promise<ScenarioStat[]> {
  const ended = sql`sum(r.ended)`;
  const totals = db
    .selectFrom(
      sql<Omit<SessionDailyScenarioTable, 'day'>>`(${rollupRows(
        { monthly: 'session_monthly_scenario', daily: 'session_daily_scenario' },
        sql`scenario_id, scenario_name, scenario_name_en, sessions, completed, ended, successes, completion_sum`,
        days,
      )})`.as('r'),
    )
    .select([
      'r.scenario_id',
      sql<string>`max(r.scenario_name)`.as('recorded_name'),
      sql<string | null>`max(r.scenario_name_en)`.as('recorded_name_en'),
      sql<number>`sum(r.sessions)::int`.as('total_sessions'),
      sql<number>`sum(r.completed)::int`.as('completed_sessions'),
      sql<number>`coalesce(round(100.0 * sum(r.successes) / nullif(${ended}, 0), 1), 0)::float8`.as(
        'success_rate',
      ),
      sql<number>`coalesce(round(100 * (sum(r.completion_sum) / nullif(${ended}, 0)), 1), 0)::float8`.as(
        'average_completion',
      ),
    ])
    .groupBy(groupKeySql('r.scenario_id', 'r.scenario_name'))
    .having(sql`sum(r.sessions)`, '>', 0);
  // A scenario id is set only while its scenario exists (deleting one nulls it): then its current
  // names win, the English one even when its admin removed it.
  const name = currentNameSql('sc.name', 't.recorded_name');
  return db
    .selectFrom(totals.as('t'))
    .leftJoin('scenarios as sc', 'sc.id', 't.scenario_id')
    .select([
      name.as('scenario_name'),
      currentOptionalNameSql('sc.id', 'sc.name_en', 't.recorded_name_en').as('scenario_name_en'),
      't.total_sessions',
      't.completed_sessions',
      't.success_rate',
      't.average_completion',
    ])
    .orderBy('t.total_sessions', 'desc')
    .orderBy(name)
    .execute();
}

/**
 * The daily rollup rows a figure reads, as the table `r`: every organisation's together
 * (session_daily_all), or one organisation's (session_daily, by its key).
 */
export function dayRows(organizationId?: string) {
  const rows =
    organizationId === undefined
      ? sql`session_daily_all`
      : sql`(SELECT * FROM session_daily WHERE organization_id = ${organizationId})`;
  return sql<SessionDailyAllTable>`${rows}`.as('r');
}

/** Sessions started in [start, end) among the rows read. */
const startedIn = ([start, end]: readonly [Date, Date]) =>
  sql<number>`coalesce(sum(r.sessions) FILTER (WHERE r.day >= ${isoDate(start)}::date AND r.day < ${isoDate(end)}::date), 0)::int`;

/**
 * The figures over the sessions of the rows read that started within `days`; the started counts
 * (today, this week, this month) are of those sessions too.
 */
function summary(db: Db, now: Date, days: Days, organizationId?: string) {
  const { today, week, month } = periods(now);
  return db
    .selectFrom(dayRows(organizationId))
    .select([
      sql<number>`coalesce(sum(r.sessions), 0)::int`.as('total_sessions'),
      sql<number>`coalesce(sum(r.active), 0)::int`.as('active_sessions'),
      sql<number>`coalesce(sum(r.completed), 0)::int`.as('completed_sessions'),
      sql<number>`coalesce(sum(r.cancelled), 0)::int`.as('cancelled_sessions'),
      sql<number>`coalesce(sum(r.disconnected), 0)::int`.as('disconnected_sessions'),
      sql<number>`coalesce(sum(r.timeout), 0)::int`.as('timeout_sessions'),
      startedIn(today).as('sessions_today'),
      startedIn(week).as('sessions_this_week'),
      startedIn(month).as('sessions_this_month'),
      sql<number>`coalesce(round(sum(r.duration_sum) / nullif(sum(r.timed), 0)), 0)::int`.as(
        'average_duration_seconds',
      ),
      percentOfEnded(sql`sum(r.successes)`).as('success_rate'),
      sql<number>`coalesce(round(100 * (sum(r.completion_sum) / nullif(${ENDED}, 0)), 1), 0)::float8`.as(
        'average_completion',
      ),
    ])
    .where(dayCondition('r.day', days))
    .executeTakeFirstOrThrow();
}

/**
 * Summary figures of one organisation over `days`; its started counts (today, this week, this
 * month) over the current periods whatever `days` is, as the global screen's all-time ones.
 */
export async function organizationSummary(db: Db, now: Date, days: Days, organizationId: string) {
  const { week, month } = periods(now);
  const since = isoDate(week[0] < month[0] ? week[0] : month[0]);
  const [row, current] = await Promise.all([
    summary(db, now, days, organizationId),
    summary(db, now, { from: since }, organizationId),
  ]);
  return {
    ...row,
    sessions_today: current.sessions_today,
    sessions_this_week: current.sessions_this_week,
    sessions_this_month: current.sessions_this_month,
  };
}

async function figures(db: Db, now: Date, days: Days): Promise<GlobalStats> {
  const [row, scenarios] = await Promise.all([
    summary(db, now, days),
    rolledUpScenarioStats(db, days),
  ]);
  return { ...row, scenario_stats: scenarios };
}

/** All-time figures over every session. */
export function globalStats(ctx: StatsContext): Promise<GlobalStats> {
  return figures(ctx.db, ctx.clock.now(), {});
}

export const daysOf = (range: DayRange): Days => ({
  from: isoDate(range.from),
  to: isoDate(range.to),
});

/** Every day of the range with its counts, days without sessions as zeros. */
export async function dailySeries(
  db: Db,
  range: DayRange,
  organizationId?: string,
): Promise<DailyStat[]> {
  const rows = await db
    .selectFrom(dayRows(organizationId))
    .select([
      sql<string>`r.day::text`.as('date'),
      sql<number>`r.sessions`.as('sessions'),
      sql<number>`r.completed`.as('completed'),
    ])
    .where(dayCondition('r.day', daysOf(range)))
    .orderBy('r.day')
    .execute();
  const days = Math.round((range.to.getTime() - range.from.getTime()) / DAY_MS);
  // A platform in use has sessions every day: its rows are the series as they come.
  if (rows.length === days) return rows;
  const byDate = new Map(rows.map((row) => [row.date, row]));
  const series: DailyStat[] = [];
  for (let at = range.from; at < range.to; at = addDays(at, 1)) {
    const date = isoDate(at);
    const row = byDate.get(date);
    series.push({ date, sessions: row?.sessions ?? 0, completed: row?.completed ?? 0 });
  }
  return series;
}

async function deviceTypes(ctx: StatsContext, days: Days): Promise<DeviceTypeStat[]> {
  const [sessions, devicesByType] = await Promise.all([
    ctx.db
      .selectFrom('session_daily_device_type as r')
      .select(['r.device_type', sql<number>`sum(r.sessions)::int`.as('count')])
      .where(dayCondition('r.day', days))
      .groupBy('r.device_type')
      .having(sql`sum(r.sessions)`, '>', 0)
      .execute(),
    ctx.deviceFigures.countsBy('type'),
  ]);
  return byDeviceType(sessions, devicesByType);
}

/**
 * Sessions and headsets by type: every known type, and any other that has either, busiest
 * first (sessions, then headsets), then in the order the types are known.
 */
export function byDeviceType(
  sessions: Array<{ device_type: string; count: number }>,
  devicesByType: Map<string, { total: number }>,
): DeviceTypeStat[] {
  const sessionsByType = new Map(sessions.map((row) => [row.device_type, row.count]));
  const types = [...new Set([...DEVICE_TYPES, ...sessionsByType.keys(), ...devicesByType.keys()])];
  const order = (type: string) => {
    const index = (DEVICE_TYPES as readonly string[]).indexOf(type);
    return index === -1 ? DEVICE_TYPES.length : index;
  };
  return types
    .map((type) => ({
      device_type: type,
      sessions: sessionsByType.get(type) ?? 0,
      devices: devicesByType.get(type)?.total ?? 0,
    }))
    .sort(
      (a, b) =>
        b.sessions - a.sessions ||
        b.devices - a.devices ||
        order(a.device_type) - order(b.device_type) ||
        a.device_type.localeCompare(b.device_type),
    );
}

/**
 * The organisations with the most sessions started in the range, from the monthly and daily
 * rollups (rollupRows): a year reads about 12 months and a few days per organisation, summed per
 * organisation before the top few are joined for their names.
 */
function topOrganizations(db: Db, range: DayRange): Promise<TopOrganization[]> {
  const rows = rollupRows(
    { monthly: 'session_monthly', daily: 'session_daily' },
    sql`organization_id, sessions, active, successes`,
    daysOf(range),
  );
  const totals = db
    .selectFrom(
      sql<{
        organization_id: string;
        sessions: number;
        active: number;
        successes: number;
      }>`(${rows})`.as('r'),
    )
    .select([
      'r.organization_id',
      sql<number>`sum(r.sessions)::int`.as('total_sessions'),
      percentOfEnded(sql`sum(r.successes)`).as('success_rate'),
    ])
    .groupBy('r.organization_id')
    .having(sql`sum(r.sessions)`, '>', 0);
  return db
    .selectFrom(totals.as('t'))
    .innerJoin('organizations as o', 'o.id', 't.organization_id')
    .select([
      't.organization_id',
      'o.name as organization_name',
      't.total_sessions',
      't.success_rate',
    ])
    .orderBy('t.total_sessions', 'desc')
    .orderBy('o.name')
    .orderBy('t.organization_id')
    .limit(STATS_TOP_ORGANIZATIONS)
    .execute();
}

async function statsForRange(ctx: StatsContext, range: DayRange): Promise<StatsRange> {
  const days = daysOf(range);
  const [base, daily, types, organizations] = await Promise.all([
    figures(ctx.db, ctx.clock.now(), days),
    dailySeries(ctx.db, range),
    deviceTypes(ctx, days),
    topOrganizations(ctx.db, range),
  ]);
  return {
    ...base,
    start_date: range.startDate,
    end_date: range.endDate,
    daily,
    device_types: types,
    top_organizations: organizations,
  };
}

/** The figures over sessions started within the UTC days start_date..end_date (inclusive). */
export function rangeStats(ctx: StatsContext, query: StatsRangeQuery): Promise<StatsRange> {
  return statsForRange(ctx, dayRange(query.start_date, query.end_date));
}

/**
 * The figures an export writes (stats-csv.ts): the range asked, its dates defaulting to the last
 * 30 days ending today (UTC).
 */
export function exportRange(ctx: StatsContext, query: StatsExportQuery): Promise<StatsRange> {
  return statsForRange(ctx, exportDayRange(ctx.clock.now(), query));
}
