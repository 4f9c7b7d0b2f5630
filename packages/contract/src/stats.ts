import { Type, type Static } from 'typebox';
import { csvReaderFields } from './csv-reader.ts';
import { Nullable, Uuid } from './common.ts';
import { Percent, SuccessRate } from './organizations.ts';

/**
 * Global statistics (/v1/admin/stats), computed from the sessions table.
 * - success_rate: percent of ended sessions that succeeded, one decimal, 0 when none ended.
 * - average_completion: average of completed_tasks / max_tasks over ended sessions, percent, one decimal.
 * - average_duration_seconds: average duration of ended sessions, whole seconds, 0 when none.
 * - sessions_today / _this_week / _this_month: started in the current UTC day, week (from Monday)
 *   and month.
 */

export const STATS_RANGE_MAX_DAYS = 366;
export const STATS_EXPORT_DEFAULT_DAYS = 30;
export const STATS_TOP_ORGANIZATIONS = 5;

/** A UTC calendar day, YYYY-MM-DD. */
export const IsoDate = Type.String({ format: 'date', maxLength: 10 });

export const ScenarioStat = Type.Object({
  scenario_name: Type.String(),
  /** The scenario's English name, when it has one. */
  scenario_name_en: Nullable(Type.String()),
  total_sessions: Type.Integer(),
  completed_sessions: Type.Integer(),
  success_rate: SuccessRate,
  average_completion: Percent,
});
export type ScenarioStat = Static<typeof ScenarioStat>;

const globalStatsFields = {
  total_sessions: Type.Integer(),
  active_sessions: Type.Integer(),
  completed_sessions: Type.Integer(),
  cancelled_sessions: Type.Integer(),
  disconnected_sessions: Type.Integer(),
  timeout_sessions: Type.Integer(),
  sessions_today: Type.Integer(),
  sessions_this_week: Type.Integer(),
  sessions_this_month: Type.Integer(),
  average_duration_seconds: Type.Integer(),
  success_rate: SuccessRate,
  average_completion: Percent,
  scenario_stats: Type.Array(ScenarioStat),
};

export const GlobalStats = Type.Object(globalStatsFields);
export type GlobalStats = Static<typeof GlobalStats>;

/** Both days inclusive, UTC; start_date ≤ end_date, at most 366 days. */
export const StatsRangeQuery = Type.Object(
  { start_date: IsoDate, end_date: IsoDate },
  { additionalProperties: false },
);
export type StatsRangeQuery = Static<typeof StatsRangeQuery>;

export const DailyStat = Type.Object({
  date: IsoDate,
  sessions: Type.Integer(),
  completed: Type.Integer(),
});
export type DailyStat = Static<typeof DailyStat>;

export const DeviceTypeStat = Type.Object({
  device_type: Type.String(),
  /** Sessions in the range run on this type (the type recorded with the session). */
  sessions: Type.Integer(),
  /** Devices of this type registered now, across all organisations. */
  devices: Type.Integer(),
});
export type DeviceTypeStat = Static<typeof DeviceTypeStat>;

export const TopOrganization = Type.Object({
  organization_id: Uuid,
  organization_name: Type.String(),
  total_sessions: Type.Integer(),
  success_rate: SuccessRate,
});
export type TopOrganization = Static<typeof TopOrganization>;

/** The global figures over sessions started in the range, plus the series and distributions. */
export const StatsRange = Type.Object({
  ...globalStatsFields,
  start_date: IsoDate,
  end_date: IsoDate,
  /** One entry per day of the range, oldest first, zeros included. */
  daily: Type.Array(DailyStat),
  device_types: Type.Array(DeviceTypeStat),
  /** Top 5 organisations by sessions in the range. */
  top_organizations: Type.Array(TopOrganization),
});
export type StatsRange = Static<typeof StatsRange>;

/** As StatsRangeQuery; the dates default to the last 30 days ending today (UTC), as an export's. */
export const OrganizationStatsQuery = Type.Object(
  { start_date: Type.Optional(IsoDate), end_date: Type.Optional(IsoDate) },
  { additionalProperties: false },
);
export type OrganizationStatsQuery = Static<typeof OrganizationStatsQuery>;

/**
 * An organisation's figures over sessions started in the range (GET /v1/stats): the global
 * figures counted over its sessions alone, its daily series and its headset types; the
 * today/week/month counts are its sessions started in the current UTC day, week and month,
 * whatever the range.
 */
export const OrganizationStatsRange = Type.Object({
  ...globalStatsFields,
  organization_id: Uuid,
  organization_name: Type.String(),
  start_date: IsoDate,
  end_date: IsoDate,
  /** One entry per day of the range, oldest first, zeros included. */
  daily: Type.Array(DailyStat),
  /** Sessions by the headset type recorded with them; devices: the organisation's headsets now. */
  device_types: Type.Array(DeviceTypeStat),
});
export type OrganizationStatsRange = Static<typeof OrganizationStatsRange>;

/** Dates default to the last 30 days (ending today, UTC); format defaults to csv, the only one. */
export const StatsExportQuery = Type.Object(
  {
    format: Type.Optional(Type.Union([Type.Literal('csv')], { default: 'csv' })),
    start_date: Type.Optional(IsoDate),
    end_date: Type.Optional(IsoDate),
    // For a reader, the file in their language and offset (csv-reader.ts).
    ...csvReaderFields,
  },
  { additionalProperties: false },
);
export type StatsExportQuery = Static<typeof StatsExportQuery>;
