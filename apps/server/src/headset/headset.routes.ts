import type { HeadsetContext } from './headset.service.ts';
import { routes } from '@vrtc/contract';
import type { onRequestHookHandler } from 'fastify';
import { bearerToken, hashToken } from '../auth/tokens.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { callerOf } from '../auth/caller.ts';
import { DatabaseLostError } from '../platform/database/db.ts';
import { AppError } from '../platform/service/errors.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { JobReport } from '../platform/ops/job-monitor.ts';
import { startHeadsetJobs } from './background-jobs.ts';
import * as headset from './headset.service.ts';
import { DeviceAuthenticator } from './device-auth.ts';
import type { DeviceEvents } from './device-events.ts';
import type { LastSeenBuffer } from './last-seen.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Last-seen times waiting to be written; `app.lastSeen.flush()` writes them now. */
    lastSeen: LastSeenBuffer;
    /** Device-change invalidation and the device cache behind headset authentication. */
    deviceEvents: DeviceEvents;
  }
  interface FastifyRequest {
    device?: headset.AuthenticatedDevice;
  }
}

/** POST /v1/devices/enrollment-code, for any signed-in account ("Add headset" in the console). */
export function enrollmentCodeRoutes(app: AppInstance, ctx: HeadsetContext) {
  registerRoute(app, routes.currentEnrollmentCode, (request) =>
    headset.currentEnrollmentCode(ctx, callerOf(request)),
  );
  registerRoute(app, routes.renewEnrollmentCode, (request) =>
    headset.renewEnrollmentCode(ctx, callerOf(request)),
  );
  registerRoute(app, routes.revokeEnrollmentCode, async (request) => {
    await headset.revokeEnrollmentCode(ctx, callerOf(request));
    return { ok: true as const };
  });
}

function deviceOf(request: { device?: headset.AuthenticatedDevice }) {
  if (!request.device) throw new AppError('unauthorized', 'Device token required');
  return request.device;
}

/** onRequest hook of the headset scope: a device token, and only a device token, gets in. */
function requireDevice(devices: DeviceAuthenticator): onRequestHookHandler {
  // Callback style, so a cached device (nearly every heartbeat) is let in without a promise.
  return (request, _reply, done) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) return done(new AppError('unauthorized', 'Device token required'));
    const tokenHash = hashToken(token);
    const cached = devices.cached(tokenHash);
    if (cached) {
      request.device = cached;
      return done();
    }
    devices.load(tokenHash).then((device) => {
      request.device = device;
      done();
    }, done);
  };
}

/**
 * The headset protocol (/v1/headset/*, ARCHITECTURE.md). Enrolment is open (the code is the
 * credential, failures are rate-limited per address); everything else takes a device token, which
 * works nowhere else, as user tokens do not work here.
 */
export function headsetRoutes(app: AppInstance, ctx: HeadsetContext) {
  const lastSeen = headset.sightings(ctx);
  app.decorate('lastSeen', lastSeen);
  app.addHook('onClose', async () => {
    await lastSeen.flush().catch((error: unknown) => {
      // A lost database was reported once already, by the process's fatal handler.
      if (error instanceof DatabaseLostError) return;
      ctx.log.error({ err: error }, 'final flush of last-seen times failed');
    });
  });

  registerRoute(app, routes.enroll, (request) => headset.enroll(ctx, request.body, request.ip));

  app.register(async (scope) => {
    scope.addHook(
      'onRequest',
      requireDevice(new DeviceAuthenticator(ctx.db, app.deviceEvents.cache)),
    );
    registerRoute(
      scope,
      routes.heartbeat,
      (request) => headset.heartbeat(ctx, lastSeen, deviceOf(request), request.body),
      {
        // Every headset calls this every few seconds: info-level request lines would be most of
        // the log and ~20% of the route's CPU (bench/heartbeat.bench.ts). Warnings still show;
        // heartbeats are counted (vrtc_heartbeats_total) instead of logged and timed.
        logLevel: 'warn',
        config: { hotPath: 'heartbeat' },
        // Every field is optional, so a heartbeat may come without a body at all.
        preValidation: (request, _reply, done) => {
          request.body ??= {};
          done();
        },
      },
    );
    registerRoute(scope, routes.reportProgress, (request) =>
      headset.reportProgress(ctx, lastSeen, deviceOf(request), request.params.id, request.body),
    );
    registerRoute(scope, routes.finishSession, (request) =>
      headset.finishSession(ctx, lastSeen, deviceOf(request), request.params.id, request.body),
    );
  });
}

/** Sweeper and last-seen flusher, for a server that runs them (main.ts); tests call them directly. */
export function startHeadsetBackgroundJobs(
  app: AppInstance,
  ctx: HeadsetContext,
  report?: JobReport,
) {
  startHeadsetJobs(app, ctx, app.lastSeen, report);
}
