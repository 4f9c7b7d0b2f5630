import type { HeadsetContext } from './headset.service.ts';
import { routes } from '@vrtc/contract';
import DataLoader from 'dataloader';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { bearerToken, hashToken } from '../auth/tokens.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { callerOf } from '../auth/caller.ts';
import { DatabaseLostError } from '../platform/database/db.ts';
import { AppError } from '../platform/service/errors.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { JobReport } from '../platform/ops/job-monitor.ts';
import { startHeadsetJobs } from './background-jobs.ts';
import * as headset from './headset.service.ts';
import type { DeviceCache } from './device-cache.ts';
import type { DeviceEvents } from './device-events.ts';
import { LastSeenBuffer } from './last-seen.ts';

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
function requireDevice(
  ctx: HeadsetContext,
  cache: DeviceCache,
  lastSeen: LastSeenBuffer,
): onRequestHookHandler {
  // Cache misses arriving within one turn of the event loop share one SELECT: after a restart or
  // a TTL expiry many headsets miss at once, and a SELECT for 500 tokens costs about what one for
  // a single token does, on PGlite most of all. The device cache is the cache: the loader keeps
  // nothing itself.
  const loader = new DataLoader<string, headset.ResolvedDevice | undefined>(
    async (tokenHashes) => {
      const found = await headset.resolveDevices(ctx.db, [...tokenHashes]);
      const byHash = new Map(found.map((row) => [row.tokenHash, row]));
      return tokenHashes.map((hash) => byHash.get(hash));
    },
    { cache: false, maxBatchSize: 500, batchScheduleFn: (run) => setImmediate(run) },
  );
  const admit = (request: FastifyRequest, device: headset.AuthenticatedDevice) => {
    // Any authenticated call shows the headset is alive.
    lastSeen.record(device.id, ctx.clock.now());
    request.device = device;
  };
  // Callback style, so a cached device (nearly every heartbeat) is let in without a promise.
  return (request, _reply, done) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) return done(new AppError('unauthorized', 'Device token required'));
    const tokenHash = hashToken(token);
    const cached = cache.peek(tokenHash);
    if (cached) {
      admit(request, cached);
      return done();
    }
    cache
      .fill(tokenHash, async () => headset.deviceOrRefusal(await loader.load(tokenHash)))
      .then((device) => {
        admit(request, device);
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
  const lastSeen = new LastSeenBuffer(ctx.db, {
    log: ctx.log,
    offlineAfterMs: ctx.config.offlineAfterMs,
    // Waiting again: the console's device lists hear it at once.
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
    scope.addHook('onRequest', requireDevice(ctx, app.deviceEvents.cache, lastSeen));
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
      headset.reportProgress(ctx, deviceOf(request), request.params.id, request.body),
    );
    registerRoute(scope, routes.finishSession, (request) =>
      headset.finishSession(ctx, deviceOf(request), request.params.id, request.body),
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
