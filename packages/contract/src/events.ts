import { Type, type Static } from 'typebox';
import { Nullable, SessionStatus, Uuid } from './common.ts';
import { SessionTask } from './tasks.ts';

/**
 * The console's live stream (GET /v1/events, Server-Sent Events): what changed, as it happens,
 * so a screen refreshes what it shows without polling. Each event names what changed and carries
 * little else: the screen reads the rest as it always does. A stream opens with a `ready` event;
 * whatever happened while none was open is read again then.
 *
 * A signed-in account hears its own organisation's events; an admin also hears every
 * organisation's device events (the admin device list shows them all).
 */
export const LIVE_STREAMS_PER_ACCOUNT = 5;
/** Seconds between the comments that keep an idle stream from being closed by a proxy. */
export const LIVE_KEEPALIVE_SECONDS = 15;

export const DEVICE_CHANGES = ['enrolled', 'updated', 'deleted', 'online', 'offline'] as const;
export const SESSION_CHANGES = ['started', 'progress', 'ended'] as const;

export const DeviceEvent = Type.Object({
  type: Type.Literal('device'),
  change: Type.Enum(DEVICE_CHANGES),
  device_id: Uuid,
  organization_id: Uuid,
});
export type DeviceEvent = Static<typeof DeviceEvent>;

export const SessionEvent = Type.Object({
  type: Type.Literal('session'),
  change: Type.Enum(SESSION_CHANGES),
  session_id: Uuid,
  device_id: Nullable(Uuid),
  organization_id: Uuid,
  status: SessionStatus,
  completed_tasks: Type.Integer(),
  max_tasks: Type.Integer(),
  /** The session's result arrived after the server had ended it (`ended` only). */
  late_result: Type.Optional(Type.Boolean()),
  /** The task a progress report told of, if it told one. */
  task: Type.Optional(SessionTask),
});
export type SessionEvent = Static<typeof SessionEvent>;

export const LiveEvent = Type.Union([DeviceEvent, SessionEvent]);
export type LiveEvent = Static<typeof LiveEvent>;
