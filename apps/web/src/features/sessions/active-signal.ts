import type { ActiveSession, ActiveSessionList } from '@vrtc/contract';

/** The server's thresholds for a silent headset (GET /v1/sessions/active). */
export type SilenceThresholds = Pick<ActiveSessionList, 'offline_after_ms' | 'disconnect_after_ms'>;

/**
 * Whether a running session's headset is heard from, as the active list told at `fetchedAt` and
 * `now` later:
 * - `ok`: heard from within the offline threshold when the list was read;
 * - `check`: it was then, but would not be by now: the list must be read again before the card
 *   says anything (a heartbeat publishes no event, so an old list cannot tell);
 * - `silent`: the server's own figure says it has not been heard from for `offline_after_ms`;
 *   `silentMs` counts on from there, `disconnectInMs` is left before the server ends the session
 *   as disconnected (0 or less: it is due).
 *
 * Times are the server's: its "now" is the session's start plus its seconds active, so a browser
 * clock that is off changes nothing.
 */
export type SignalState =
  { kind: 'ok' } | { kind: 'check' } | { kind: 'silent'; silentMs: number; disconnectInMs: number };

export function signalOf(
  session: Pick<ActiveSession, 'started_at' | 'seconds_active' | 'device_last_seen_at'>,
  thresholds: SilenceThresholds,
  elapsedSinceFetchMs: number,
): SignalState {
  const serverNow = Date.parse(session.started_at) + session.seconds_active * 1000;
  // Never heard from (or deleted): silent since the session started, at the latest.
  const lastSeen = Math.min(
    serverNow,
    session.device_last_seen_at === null
      ? Date.parse(session.started_at)
      : Date.parse(session.device_last_seen_at),
  );
  const silentAtFetch = serverNow - lastSeen;
  const silentMs = silentAtFetch + Math.max(0, elapsedSinceFetchMs);
  if (silentAtFetch >= thresholds.offline_after_ms) {
    return { kind: 'silent', silentMs, disconnectInMs: thresholds.disconnect_after_ms - silentMs };
  }
  return silentMs >= thresholds.offline_after_ms ? { kind: 'check' } : { kind: 'ok' };
}
