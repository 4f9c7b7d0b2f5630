import { Type, type Static } from 'typebox';
import { Name, Nullable, Pagination, SessionStatus, Text, Timestamp, Uuid } from './common.ts';
import { listPageFields, listQueryFields } from './lists.ts';
import { lateResultFields, levelRevisionField, sessionEnglishNames } from './sessions.ts';

export const VrUser = Type.Object({
  id: Uuid,
  name: Type.String(),
  notes: Nullable(Type.String()),
  session_count: Type.Integer(),
  completed_count: Type.Integer(),
  last_session_at: Nullable(Timestamp),
  created_at: Timestamp,
});
export type VrUser = Static<typeof VrUser>;

export const VR_USER_SORT_FIELDS = [
  'name',
  'session_count',
  'completed_count',
  'last_session_at',
  'created_at',
] as const;

/** `q` matches the name or the notes. Default order: by name. */
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
