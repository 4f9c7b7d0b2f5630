import { Type, type Static } from 'typebox';
import {
  DeviceType,
  EndedSessionStatus,
  MovementType,
  Name,
  Nullable,
  Text,
  Timestamp,
  Uuid,
} from './common.ts';
import { TaskReport } from './tasks.ts';

/** The headset protocol (/v1/headset/*), as fixed in docs/ARCHITECTURE.md. */

export const EnrollmentCode = Type.Object({
  code: Type.String({ minLength: 8, maxLength: 8 }),
  expires_at: Timestamp,
});
export type EnrollmentCode = Static<typeof EnrollmentCode>;

export const EnrollBody = Type.Object(
  {
    code: Text({ minLength: 1, maxLength: 32 }),
    name: Name,
    type: DeviceType,
  },
  { additionalProperties: false },
);
export type EnrollBody = Static<typeof EnrollBody>;

export const EnrollResponse = Type.Object({
  device_id: Uuid,
  device_token: Type.String(),
});
export type EnrollResponse = Static<typeof EnrollResponse>;

/** A headset holds at most this many unsent reports worth telling of (docs/headset-protocol.md). */
export const MAX_PENDING_REPORTS = 1_000_000;

export const HeartbeatBody = Type.Object(
  {
    battery_percent: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    app_version: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
    /** Reports (progress, finish) the headset still holds, unsent; the console shows the count. */
    pending_reports: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PENDING_REPORTS })),
  },
  { additionalProperties: false },
);
export type HeartbeatBody = Static<typeof HeartbeatBody>;

/**
 * What a headset needs to launch the session the console started on it. The ids and the level's
 * revision pick the scene (names are localised and may change); they are null only when the
 * content was deleted after the session started.
 */
export const SessionLaunch = Type.Object({
  id: Uuid,
  scenario_id: Nullable(Uuid),
  module_id: Nullable(Uuid),
  level_id: Nullable(Uuid),
  /** The level's revision when the session started: the content the trainee plays. */
  level_revision: Type.Integer(),
  /** How the trainee moves in the scene (the headset's setting in the console). */
  movement_type: MovementType,
  vr_user_name: Type.String(),
  scenario_name: Type.String(),
  module_name: Type.String(),
  level_name: Type.String(),
  level_number: Type.Integer(),
  max_tasks: Type.Integer(),
  selected_options: Type.Array(Type.Object({ id: Uuid, name: Type.String() })),
  started_at: Timestamp,
  completed_tasks: Type.Integer(),
});
export type SessionLaunch = Static<typeof SessionLaunch>;

export const HeartbeatResponse = Type.Object({
  device_id: Uuid,
  movement_type: MovementType,
  heartbeat_interval_ms: Type.Integer(),
  session: Nullable(SessionLaunch),
  /**
   * The session of this headset that ended last, and how (`cancelled` by staff, `timeout`,
   * `disconnected`, `completed`): a headset whose `session` turned null learns why. Null when it
   * has had none.
   */
  ended_session: Nullable(Type.Object({ id: Uuid, status: EndedSessionStatus })),
  /** The server's clock when it answered: a headset corrects its own `occurred_at` by it. */
  server_time: Timestamp,
});
export type HeartbeatResponse = Static<typeof HeartbeatResponse>;

/**
 * The push channel (GET /v1/headset/events, docs/headset-protocol.md): a long-poll held at most
 * this many seconds, answered at once when the session the server would tell differs from the one
 * the headset names, or as soon as one is started or ended for it.
 */
export const HEADSET_EVENTS_MAX_WAIT_SECONDS = 30;
export const HEADSET_EVENTS_DEFAULT_WAIT_SECONDS = 25;

export const HeadsetEventsQuery = Type.Object(
  {
    /** Seconds to hold the call when nothing changes (0 answers at once). */
    wait: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: HEADSET_EVENTS_MAX_WAIT_SECONDS,
        default: HEADSET_EVENTS_DEFAULT_WAIT_SECONDS,
      }),
    ),
    /** The session id the last answer gave (`session.id`); absent when it gave none. */
    session: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
export type HeadsetEventsQuery = Static<typeof HeadsetEventsQuery>;

export const SessionIdParams = Type.Object({ id: Uuid }, { additionalProperties: false });

/**
 * The header a headset sends with each progress and finish report: a UUID it makes once per
 * report and sends again with every retry of it. Scoped to the headset (docs/headset-protocol.md).
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const ReportHeaders = Type.Object({
  'idempotency-key': Type.Optional(Uuid),
});
export type ReportHeaders = Static<typeof ReportHeaders>;

/** A report's order within its session: 1, 2, 3 … as the headset made them. */
export const MAX_REPORT_SEQ = 2_147_483_647;
const Seq = Type.Integer({ minimum: 1, maximum: MAX_REPORT_SEQ });

/** The headset's clock when what it reports happened; the server clamps it to [started_at, now]. */
const OccurredAt = Timestamp;

/** `task`: the task that just ended, when the headset tells it (older headsets do not). */
export const ProgressBody = Type.Object(
  {
    completed_tasks: Type.Integer({ minimum: 0, maximum: 10000 }),
    task: Type.Optional(TaskReport),
    /** An older or repeated seq than one already applied changes nothing (answered 200). */
    seq: Type.Optional(Seq),
    occurred_at: Type.Optional(OccurredAt),
  },
  { additionalProperties: false },
);
export type ProgressBody = Static<typeof ProgressBody>;

export const FinishBody = Type.Object(
  {
    completed_tasks: Type.Integer({ minimum: 0, maximum: 10000 }),
    success: Type.Boolean(),
    /** Every task of the run, when the headset tells them (adds to or replaces the ones reported). */
    tasks: Type.Optional(Type.Array(TaskReport, { maxItems: 1000 })),
    /** The finish's place after the session's progress reports; it ends the session whatever it is. */
    seq: Type.Optional(Seq),
    /** When the run ended on the headset: the session's ended_at (clamped), late or not. */
    occurred_at: Type.Optional(OccurredAt),
  },
  { additionalProperties: false },
);
export type FinishBody = Static<typeof FinishBody>;

export const SessionProgressResponse = Type.Object({
  id: Uuid,
  status: Type.String(),
  completed_tasks: Type.Integer(),
  max_tasks: Type.Integer(),
});
export type SessionProgressResponse = Static<typeof SessionProgressResponse>;
