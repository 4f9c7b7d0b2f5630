import { routes } from '@vrtc/contract';
import type { FastifyRequest } from 'fastify';
import type { AppInstance } from '../platform/http/app-types.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import { lazyChildLogger } from '../platform/ops/lazy-logger.ts';
import * as enrolment from './enrollment.service.ts';
import type { HeadsetContext } from './headset-context.ts';
import { answerOf, heartbeat } from './heartbeat.service.ts';
import { HEADSET_EVENTS_DEFAULT_WAIT_SECONDS } from '@vrtc/contract';
import { bearerToken, hashToken } from '../auth/tokens.ts';
import type { DevicePush } from './device-push.ts';
import { finishSession, reportProgress, type Report } from './reports.service.ts';
import { deviceOf } from './device.guard.ts';
import type { AuthenticatedDevice } from './device-cache.ts';
import type { LastSeenBuffer } from './last-seen.ts';

/** POST /v1/devices/enrollment-code, for any signed-in account ("Add headset" in the console). */
export function enrollmentCodeRoutes(app: AppInstance, ctx: HeadsetContext) {
  registerRoute(app, routes.currentEnrollmentCode, (request) =>
    enrolment.currentEnrollmentCode(ctx, callerOf(request)),
  );
  registerRoute(app, routes.renewEnrollmentCode, (request) =>
    enrolment.renewEnrollmentCode(ctx, callerOf(request)),
  );
  registerRoute(app, routes.revokeEnrollmentCode, async (request) => {
    await enrolment.revokeEnrollmentCode(ctx, callerOf(request));
    return { ok: true as const };
  });
}

/**
 * The headset protocol (/v1/headset/*, docs/ARCHITECTURE.md). Enrolment is open (the code is the
 * credential, failures are rate-limited per address); everything else takes a device token, which
 * works nowhere else, as user tokens do not work here.
 */
export function headsetRoutes(
  app: AppInstance,
  ctx: HeadsetContext,
  lastSeen: LastSeenBuffer,
  push: DevicePush,
) {
  registerRoute(app, routes.enroll, (request) =>
    enrolment.enroll(ctx, request.body, requestFacts(request)),
  );

  // Device token required (registerRoute puts the device guard in front of each).
  registerRoute(
    app,
    routes.heartbeat,
    (request) => heartbeat(ctx, lastSeen, deviceOf(request), request.body),
    {
      // Every headset calls this every few seconds: info-level request lines would be most of
      // the log and ~20% of the route's CPU (bench/heartbeat.bench.ts). Warnings still show;
      // heartbeats are counted (vrtc_heartbeats_total) instead of logged and timed.
      logLevel: 'warn',
      // Nor a request logger of its own unless something is logged (lazy-logger.ts).
      childLoggerFactory: lazyChildLogger,
      config: { hotPath: 'heartbeat' },
      // Every field is optional, so a heartbeat may come without a body at all.
      preValidation: (request, _reply, done) => {
        request.body ??= {};
        done();
      },
    },
  );
  // The push channel (decision 028): held until the session changes or `wait` runs out.
  registerRoute(
    app,
    routes.headsetEvents,
    async (request, reply) => {
      deviceOf(request);
      const tokenHash = hashToken(bearerToken(request.headers.authorization) ?? '');
      const waitSeconds = request.query.wait ?? HEADSET_EVENTS_DEFAULT_WAIT_SECONDS;
      const device = await push.next(
        tokenHash,
        request.query.session,
        waitSeconds * 1000,
        (abort) => reply.raw.once('close', abort),
      );
      // Answered because the server is closing: the headset opens its next call elsewhere.
      if (push.closing) reply.header('connection', 'close');
      return answerOf(ctx, device);
    },
    // Every headset holds one: a line each would be most of the log, as for heartbeats.
    { logLevel: 'warn', childLoggerFactory: lazyChildLogger },
  );
  registerRoute(app, routes.reportProgress, (request) =>
    reportProgress(ctx, lastSeen, reportOf(request)),
  );
  registerRoute(app, routes.finishSession, (request) =>
    finishSession(ctx, lastSeen, reportOf(request)),
  );
}

/** A headset's report as the service takes it: the headset, the session, the body, the key. */
function reportOf<Body>(
  request: FastifyRequest & {
    device?: AuthenticatedDevice;
    params: { id: string };
    body: Body;
    headers: { 'idempotency-key'?: string };
  },
): Report<Body> {
  return {
    device: deviceOf(request),
    sessionId: request.params.id,
    body: request.body,
    idempotencyKey: request.headers['idempotency-key'],
    request: requestFacts(request),
  };
}
