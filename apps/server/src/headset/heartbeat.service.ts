import type { HeartbeatBody, HeartbeatResponse } from '@vrtc/contract';
import type { AuthenticatedDevice } from './device-cache.ts';
import type { HeadsetContext } from './headset-context.ts';
import { LastSeenBuffer } from './last-seen.ts';

/**
 * Where this process keeps the headsets' sightings until the next flush. A headset heard again
 * after it had gone offline is waiting again: the console's device lists hear it at once.
 */
export function sightings(ctx: HeadsetContext): LastSeenBuffer {
  return new LastSeenBuffer(ctx.db, {
    log: ctx.log,
    offlineAfterMs: ctx.config.offlineAfterMs,
    cameOnline: (devices) => {
      for (const device of devices) {
        ctx.live.publish({
          type: 'device',
          change: 'online',
          device_id: device.id,
          organization_id: device.organization_id,
        });
      }
    },
  });
}

/**
 * Costs no query of its own: the device and its session were read with the token (usually from
 * the device cache), and last-seen, battery, app version and backlog go to the in-memory buffer. Battery
 * and app version are passed on whenever reported: the cached device's may be older than what
 * another process wrote since, and the flush writes a row only when a value changed anyway.
 */
export function heartbeat(
  ctx: HeadsetContext,
  lastSeen: LastSeenBuffer,
  device: AuthenticatedDevice,
  body: HeartbeatBody,
): HeartbeatResponse {
  const now = ctx.clock.now();
  lastSeen.record(device.id, now, {
    batteryPercent: body.battery_percent,
    appVersion: body.app_version,
    pendingReports: body.pending_reports,
  });
  return answerOf(ctx, device, now);
}

/**
 * What a headset is told of itself: its session, its last ended one and why, the interval and the
 * server's clock. The heartbeat and the push channel (GET /v1/headset/events) answer the same.
 */
export function answerOf(
  ctx: HeadsetContext,
  device: AuthenticatedDevice,
  now: Date = ctx.clock.now(),
): HeartbeatResponse {
  return {
    device_id: device.id,
    movement_type: device.movementType,
    heartbeat_interval_ms: ctx.config.heartbeatIntervalMs,
    session: device.session,
    ended_session: device.lastEnded,
    server_time: now.toISOString(),
  };
}
