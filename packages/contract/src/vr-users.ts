import { Type, type Static } from 'typebox';
import { csvReaderFields } from './csv-reader.ts';
import { Name, Nullable, Pagination, SessionStatus, Text, Timestamp, Uuid } from './common.ts';
import { listPageFields, listQueryFields } from './lists.ts';
import { RecordQualification } from './qualifications.ts';
import { lateResultFields, levelRevisionField, sessionEnglishNames } from './sessions.ts';
import { VR_USER_SORT_FIELDS } from './vr-user-fields.ts';

export const VrUser = Type.Object({
  id: Uuid,
  name: Type.String(),
  notes: Nullable(Type.String()),
  /** The learner id an LMS knows them by (docs/lms.md); unique within the organisation. */
  external_id: Nullable(Type.String()),
  session_count: Type.Integer(),
  completed_count: Type.Integer(),
  last_session_at: Nullable(Timestamp),
  created_at: Timestamp,
});
export type VrUser = Static<typeof VrUser>;

export { VR_USER_SORT_FIELDS };

/** `q` matches the name, the notes or the external id. Default order: by name. */
export const VrUserListQuery = Type.Object(listQueryFields(VR_USER_SORT_FIELDS), {
  additionalProperties: false,
});
export type VrUserListQuery = Static<typeof VrUserListQuery>;

export const VrUserList = Type.Object({ vr_users: Type.Array(VrUser), ...listPageFields });
export type VrUserList = Static<typeof VrUserList>;

export const VrUserBody = Type.Object(
  {
    name: Name,
    notes: Type.Optional(Nullable(Text({ maxLength: 2000 }))),
    external_id: Type.Optional(Nullable(Text({ maxLength: 255 }))),
  },
  { additionalProperties: false },
);
export type VrUserBody = Static<typeof VrUserBody>;

export const VrUserSession = Type.Object({
  id: Uuid,
  device_id: Nullable(Uuid),
  device_name: Type.String(),
  scenario_name: Type.String(),
  module_name: Type.String(),
  level_name: Type.String(),
  ...sessionEnglishNames,
  level_number: Type.Integer(),
  ...levelRevisionField,
  status: SessionStatus,
  completed_tasks: Type.Integer(),
  max_tasks: Type.Integer(),
  duration_seconds: Nullable(Type.Integer()),
  started_at: Timestamp,
  ended_at: Nullable(Timestamp),
  success: Nullable(Type.Boolean()),
  /** Who started the session from the console (kept after the account is removed); null: none. */
  started_by_email: Nullable(Type.String()),
  ...lateResultFields,
});
export type VrUserSession = Static<typeof VrUserSession>;

export const VrUserSessionsQuery = Pagination;
export type VrUserSessionsQuery = Static<typeof VrUserSessionsQuery>;

export const VrUserSessionList = Type.Object({
  sessions: Type.Array(VrUserSession),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type VrUserSessionList = Static<typeof VrUserSessionList>;

/** One result of a session in a training record: its tasks done of the level's max, and success. */
export const TrainingResult = Type.Object({
  session_id: Uuid,
  completed_tasks: Type.Integer(),
  max_tasks: Type.Integer(),
  success: Type.Boolean(),
  started_at: Timestamp,
  ended_at: Nullable(Timestamp),
});
export type TrainingResult = Static<typeof TrainingResult>;

/**
 * A level the trainee attempted, as the sessions ran it: grouped by the level (by the names it ran
 * under once the level was deleted), named as its latest session ran it, with every revision of it
 * that was trained. Attempts are ended sessions (as the History lists them); completions are the
 * sessions that ended with success (as the statistics count successes).
 */
export const TrainingRecordLevel = Type.Object({
  level_id: Nullable(Uuid),
  scenario_name: Type.String(),
  module_name: Type.String(),
  level_name: Type.String(),
  ...sessionEnglishNames,
  level_number: Type.Integer(),
  /** The level's revisions the attempts ran, in ascending order. */
  revisions: Type.Array(Type.Integer()),
  attempts: Type.Integer(),
  completions: Type.Integer(),
  /** The best attempt: a success before a failure, then the higher share of tasks, then the earlier. */
  best: TrainingResult,
  /** The latest attempt. */
  last: TrainingResult,
  first_completed_at: Nullable(Timestamp),
  last_completed_at: Nullable(Timestamp),
  training_seconds: Type.Integer(),
});
export type TrainingRecordLevel = Static<typeof TrainingRecordLevel>;

export const TrainingRecordTotals = Type.Object({
  attempts: Type.Integer(),
  completions: Type.Integer(),
  levels_attempted: Type.Integer(),
  levels_completed: Type.Integer(),
  /** The sum of the attempts' durations. */
  training_seconds: Type.Integer(),
});
export type TrainingRecordTotals = Static<typeof TrainingRecordTotals>;

/** GET /v1/vr-users/:id/record: what one trainee trained, level by level, and the totals. */
export const TrainingRecord = Type.Object({
  vr_user: Type.Object({ id: Uuid, name: Type.String() }),
  organization_name: Type.String(),
  levels: Type.Array(TrainingRecordLevel),
  totals: TrainingRecordTotals,
  /** Every qualification assigned or ever earned, its status now and its history (issue 37). */
  qualifications: Type.Array(RecordQualification),
});
export type TrainingRecord = Static<typeof TrainingRecord>;

/** The record's CSV: for a reader in their language and offset, as the History export. */
export const TrainingRecordExportQuery = Type.Object(
  { ...csvReaderFields },
  { additionalProperties: false },
);
export type TrainingRecordExportQuery = Static<typeof TrainingRecordExportQuery>;
