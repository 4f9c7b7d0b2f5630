import { Type, type Static } from 'typebox';
import { csvReaderFields } from './csv-reader.ts';
import { Name, Nullable, SessionStatus, Timestamp, Uuid } from './common.ts';
import { LIST_MAX_OFFSET, SortOrder } from './lists.ts';
import { IsoDate } from './stats.ts';
import { SessionTask } from './tasks.ts';

export const SESSION_LIST_DEFAULT_LIMIT = 50;

/** The endings the server decides itself; a late result can still turn them into a result. */
export const SERVER_ENDED_STATUSES = ['disconnected', 'timeout'] as const;
export const ServerEndedStatus = Type.Enum(SERVER_ENDED_STATUSES);
export type ServerEndedStatus = Static<typeof ServerEndedStatus>;
export const SESSION_LIST_MAX_LIMIT = 500;
export const SESSION_MAX_SELECTED_OPTIONS = 100;

/** An option as the session recorded it; name_en is absent in sessions started before it existed. */
export const SelectedOption = Type.Object({
  id: Uuid,
  name: Type.String(),
  name_en: Type.Optional(Nullable(Type.String())),
});

/** The English names of what a session ran, as it recorded them (null: none was given). */
export const sessionEnglishNames = {
  scenario_name_en: Nullable(Type.String()),
  module_name_en: Nullable(Type.String()),
  level_name_en: Nullable(Type.String()),
};
export type SelectedOption = Static<typeof SelectedOption>;

export const StartSessionBody = Type.Object(
  {
    device_id: Uuid,
    level_id: Uuid,
    /** Matched (trimmed, case-insensitive) against the organisation's VR users; created if new. */
    vr_user_name: Name,
    /** When given, this VR user is used and vr_user_name is not matched. */
    vr_user_id: Type.Optional(Uuid),
    selected_options: Type.Optional(
      Type.Array(Uuid, { maxItems: SESSION_MAX_SELECTED_OPTIONS, default: [] }),
    ),
  },
  { additionalProperties: false },
);
export type StartSessionBody = Static<typeof StartSessionBody>;

/** A late result (docs/headset-protocol.md): the mark every view of an ended session shows. */
export const lateResultFields = {
  /** The headset's finish arrived after the server had ended the session (LATE_RESULT_WINDOW_MS). */
  late_result: Type.Boolean(),
  /** How the server had ended the session before its late result arrived; null otherwise. */
  ended_by_server_as: Nullable(ServerEndedStatus),
};

/**
 * The revision of its level a session ran: the database raises a level's revision on any change
 * to it, its module, scenario or options, so "Level 2, revision 5" names exactly what was trained.
 */
export const levelRevisionField = { level_revision: Type.Integer({ minimum: 1 }) };

const historyFields = {
  id: Uuid,
  vr_user_name: Type.String(),
  device_name: Type.String(),
  scenario_name: Type.String(),
  module_name: Type.String(),
  level_name: Type.String(),
  ...sessionEnglishNames,
  status: SessionStatus,
  completed_tasks: Type.Integer(),
  /** The level's max_tasks when the session started. */
  total_tasks: Type.Integer(),
  duration_seconds: Nullable(Type.Integer()),
  started_by_email: Nullable(Type.String()),
  started_at: Timestamp,
  ended_at: Nullable(Timestamp),
  success: Nullable(Type.Boolean()),
  device_id: Nullable(Uuid),
  vr_user_id: Nullable(Uuid),
  level_number: Type.Integer(),
  ...levelRevisionField,
  selected_options: Type.Array(SelectedOption),
  ...lateResultFields,
};

/** A row of the History tab (and the body answered by cancel). */
export const HistorySession = Type.Object(historyFields);
export type HistorySession = Static<typeof HistorySession>;

/** POST /v1/sessions/start answers the created session. */
export const StartedSession = Type.Object({ ...historyFields, max_tasks: Type.Integer() });
export type StartedSession = Static<typeof StartedSession>;

/**
 * The History tab's filters, shared by the list and its CSV export (GET /v1/sessions/export).
 * Without `status`, ended sessions only. `from`/`to` are UTC days, both inclusive, of started_at.
 */
export const sessionFilterFields = {
  status: Type.Optional(SessionStatus),
  from: Type.Optional(IsoDate),
  to: Type.Optional(IsoDate),
  vr_user_id: Type.Optional(Uuid),
  device_id: Type.Optional(Uuid),
  scenario_id: Type.Optional(Uuid),
};

/**
 * A reader who names a language (`lang`, else Accept-Language) gets the file in it, times in
 * `utc_offset` (csv-reader.ts); without one, the file as it always was, content names in Russian.
 */
export const SessionExportQuery = Type.Object(
  { ...sessionFilterFields, ...csvReaderFields },
  { additionalProperties: false },
);
export type SessionExportQuery = Static<typeof SessionExportQuery>;

/** Newest first by default (`order=asc` for oldest first); sessions started together by id. */
export const SessionListQuery = Type.Object(
  {
    ...sessionFilterFields,
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: SESSION_LIST_MAX_LIMIT,
        default: SESSION_LIST_DEFAULT_LIMIT,
      }),
    ),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: LIST_MAX_OFFSET, default: 0 })),
    sort: Type.Optional(Type.Enum(['started_at'])),
    order: Type.Optional(SortOrder),
  },
  { additionalProperties: false },
);
export type SessionListQuery = Static<typeof SessionListQuery>;

export const SessionList = Type.Object({
  sessions: Type.Array(HistorySession),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type SessionList = Static<typeof SessionList>;

export const ActiveSession = Type.Object({
  id: Uuid,
  vr_user_name: Type.String(),
  device_name: Type.String(),
  device_id: Nullable(Uuid),
  scenario_name: Type.String(),
  module_name: Type.String(),
  level_name: Type.String(),
  ...sessionEnglishNames,
  seconds_active: Type.Integer(),
  completed_tasks: Type.Integer(),
  max_tasks: Type.Integer(),
  /** The options chosen at the start, as they were named then (the live card shows them). */
  selected_options: Type.Array(SelectedOption),
  started_at: Timestamp,
  /** The tasks the headset has told of so far, by number (empty for headsets that do not). */
  tasks: Type.Array(SessionTask),
  /**
   * When the session's headset was last heard from (null: never, or the headset was deleted), as
   * written to the database: at most LAST_SEEN_FLUSH_MS behind the headset's last request.
   */
  device_last_seen_at: Nullable(Timestamp),
});
export type ActiveSession = Static<typeof ActiveSession>;

/**
 * GET /v1/sessions/active. The server's two thresholds let the console tell how long a silent
 * headset has left: shown as offline after `offline_after_ms` (OFFLINE_AFTER_MS), its session ended
 * as `disconnected` after `disconnect_after_ms` (DISCONNECT_AFTER_MS) without a sighting.
 */
export const ActiveSessionList = Type.Object({
  active_sessions: Type.Array(ActiveSession),
  offline_after_ms: Type.Integer(),
  disconnect_after_ms: Type.Integer(),
});
export type ActiveSessionList = Static<typeof ActiveSessionList>;

/** GET /v1/sessions/:id: a session of the organisation, any status, with its task timeline. */
export const SessionDetail = Type.Object({
  ...historyFields,
  max_tasks: Type.Integer(),
  tasks: Type.Array(SessionTask),
});
export type SessionDetail = Static<typeof SessionDetail>;
