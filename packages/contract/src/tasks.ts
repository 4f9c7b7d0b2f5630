import { Type, type Static } from 'typebox';
import { Nullable, Text, Timestamp } from './common.ts';

/**
 * What a headset may tell of each task of a session, beside the count of completed tasks that
 * every headset reports: which task (its 1-based number in the level), what it is (an optional
 * key and name), how it went, its score and how long it took. Stored with the session.
 */
export const TASK_RESULTS = ['passed', 'failed', 'skipped'] as const;
export const TaskResult = Type.Enum(TASK_RESULTS);
export type TaskResult = Static<typeof TaskResult>;

export const MAX_TASK_NUMBER = 10_000;
/** A day: no task of a VR training lasts longer. */
export const MAX_TASK_DURATION_MS = 24 * 3600 * 1000;

/** A task as a headset reports it. */
export const TaskReport = Type.Object(
  {
    number: Type.Integer({ minimum: 1, maximum: MAX_TASK_NUMBER }),
    key: Type.Optional(Text({ maxLength: 64, nonBlank: true })),
    name: Type.Optional(Text({ maxLength: 200, nonBlank: true })),
    result: TaskResult,
    score: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    duration_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TASK_DURATION_MS })),
  },
  { additionalProperties: false },
);
export type TaskReport = Static<typeof TaskReport>;

/** A task as the session keeps it: the report, and when it arrived. */
export const SessionTask = Type.Object({
  number: Type.Integer(),
  key: Nullable(Type.String()),
  name: Nullable(Type.String()),
  result: TaskResult,
  score: Nullable(Type.Number()),
  duration_ms: Nullable(Type.Integer()),
  reported_at: Timestamp,
  /** When the task ended by the headset's clock, clamped to [started_at, reported_at]; null when untold. */
  occurred_at: Nullable(Timestamp),
});
export type SessionTask = Static<typeof SessionTask>;
