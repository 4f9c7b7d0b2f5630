import { Type, type Static } from 'typebox';
import { Name, Nullable, Timestamp, Uuid } from './common.ts';
import { listPageFields, listQueryFields } from './lists.ts';

/** Admin organisations (/v1/admin/organizations). */

/** success_rate everywhere: percent (0..100, one decimal) of ended sessions that succeeded; 0 when none ended. */
export const SuccessRate = Type.Number({ minimum: 0, maximum: 100 });
/** Percent 0..100 with one decimal (e.g. average completed_tasks / max_tasks of ended sessions). */
export const Percent = Type.Number({ minimum: 0, maximum: 100 });

export const OrganizationStats = Type.Object({
  /** Accounts (console users) of the organisation. */
  total_users: Type.Integer(),
  total_vr_users: Type.Integer(),
  total_sessions: Type.Integer(),
  active_sessions: Type.Integer(),
  success_rate: SuccessRate,
  total_devices: Type.Integer(),
  /** Devices heard from within OFFLINE_AFTER_MS. */
  online_devices: Type.Integer(),
});
export type OrganizationStats = Static<typeof OrganizationStats>;

export const Organization = Type.Object({
  id: Uuid,
  name: Type.String(),
  active: Type.Boolean(),
  /** Its password accounts must have a second factor (decision 031). */
  mfa_required: Type.Boolean(),
  created_at: Timestamp,
  /** Present with ?include_stats=true on the list, and always on GET /:id. */
  stats: Type.Optional(OrganizationStats),
});
export type Organization = Static<typeof Organization>;

/** Figures over every organisation (the stat cards above the table), with include_stats. */
export const OrganizationSummary = Type.Object({
  total: Type.Integer(),
  active: Type.Integer(),
  total_sessions: Type.Integer(),
  total_devices: Type.Integer(),
  online_devices: Type.Integer(),
});
export type OrganizationSummary = Static<typeof OrganizationSummary>;

export const OrganizationList = Type.Object({
  organizations: Type.Array(Organization),
  ...listPageFields,
  summary: Type.Optional(OrganizationSummary),
});
export type OrganizationList = Static<typeof OrganizationList>;

/** Sorting by a figure (anything but name, active, created_at) needs include_stats. */
export const ORGANIZATION_SORT_FIELDS = [
  'name',
  'active',
  'created_at',
  'total_users',
  'total_vr_users',
  'total_sessions',
  'success_rate',
  'total_devices',
] as const;

/** `q` matches the name. Default order: by name. */
export const OrganizationListQuery = Type.Object(
  {
    include_stats: Type.Optional(Type.Boolean({ default: false })),
    ...listQueryFields(ORGANIZATION_SORT_FIELDS),
  },
  { additionalProperties: false },
);
export type OrganizationListQuery = Static<typeof OrganizationListQuery>;

export const OrganizationCreateBody = Type.Object({ name: Name }, { additionalProperties: false });
export type OrganizationCreateBody = Static<typeof OrganizationCreateBody>;

export const OrganizationUpdateBody = Type.Object(
  {
    name: Type.Optional(Name),
    active: Type.Optional(Type.Boolean()),
    mfa_required: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type OrganizationUpdateBody = Static<typeof OrganizationUpdateBody>;

export const ORGANIZATION_ANALYTICS_DEFAULT_DAYS = 30;
export const ORGANIZATION_ANALYTICS_MAX_DAYS = 365;
export const ORGANIZATION_ANALYTICS_TOP_VR_USERS = 10;
export const ORGANIZATION_ANALYTICS_TOP_DEVICES = 20;

export const OrganizationAnalyticsQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ORGANIZATION_ANALYTICS_MAX_DAYS,
        default: ORGANIZATION_ANALYTICS_DEFAULT_DAYS,
      }),
    ),
  },
  { additionalProperties: false },
);
export type OrganizationAnalyticsQuery = Static<typeof OrganizationAnalyticsQuery>;

export const OrganizationTopVrUser = Type.Object({
  /** null for sessions whose VR user no longer exists (grouped by the recorded name). */
  vr_user_id: Nullable(Uuid),
  name: Type.String(),
  session_count: Type.Integer(),
  success_rate: SuccessRate,
});
export type OrganizationTopVrUser = Static<typeof OrganizationTopVrUser>;

export const OrganizationDeviceUsage = Type.Object({
  /** null for sessions whose device was deleted since (grouped by the recorded name). */
  device_id: Nullable(Uuid),
  device_name: Type.String(),
  /** The device's current type, else the type recorded with its sessions. */
  device_type: Type.String(),
  session_count: Type.Integer(),
});
export type OrganizationDeviceUsage = Static<typeof OrganizationDeviceUsage>;

export const OrganizationScenarioStat = Type.Object({
  scenario_name: Type.String(),
  scenario_name_en: Nullable(Type.String()),
  session_count: Type.Integer(),
  success_rate: SuccessRate,
  average_completion: Percent,
});
export type OrganizationScenarioStat = Static<typeof OrganizationScenarioStat>;

/** Over the organisation's sessions started in the last `days` days. */
export const OrganizationAnalytics = Type.Object({
  days: Type.Integer(),
  /** The period's first and last UTC days (lastDays in days.ts): `days` days ending today. */
  start_date: Type.String({ format: 'date', maxLength: 10 }),
  end_date: Type.String({ format: 'date', maxLength: 10 }),
  /** Top 10 by session count. */
  top_vr_users: Type.Array(OrganizationTopVrUser),
  /** The 20 most used headsets. */
  device_usage: Type.Array(OrganizationDeviceUsage),
  scenario_stats: Type.Array(OrganizationScenarioStat),
});
export type OrganizationAnalytics = Static<typeof OrganizationAnalytics>;
