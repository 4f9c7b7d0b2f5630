import {
  EnrollBody,
  EnrollmentCode,
  EnrollResponse,
  ErrorBody,
  FinishBody,
  HeartbeatBody,
  HeartbeatResponse,
  OkBody,
  ProgressBody,
  SessionIdParams,
  SessionProgressResponse,
} from '@vrtc/contract';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import { bearerToken, hashToken } from '../auth/tokens.ts';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import { DatabaseLostError } from '../platform/db.ts';
import { AppError } from '../platform/errors.ts';
import { startHeadsetJobs } from './background-jobs.ts';
import * as headset from './headset.service.ts';
import { BatchLoader } from './device-cache.ts';
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

const tags = ['headset'];
const security = [{ bearer: [] }];

/** POST /v1/devices/enrollment-code, for any signed-in account ("Add headset" in the console). */
export function enrollmentCodeRoutes(app: AppInstance, ctx: ServiceContext) {
  app.post(
    '/v1/devices/enrollment-code',
    {
      schema: {
        tags: ['devices'],
        description:
          "The organisation's current enrolment code for new headsets: 8 characters, valid 24 h, " +
          'the same code until it expires, then a new one.',
        response: { 200: EnrollmentCode },
      },
    },
    (request) => headset.currentEnrollmentCode(ctx, callerOf(request)),
  );
  app.post(
    '/v1/devices/enrollment-code/renew',
    {
      schema: {
        tags: ['devices'],
        description:
          'Replaces the organisation’s enrolment code with a new one; the old code stops working ' +
          'at once (headsets enrolled with it stay). 409 quota_exceeded past ' +
          'QUOTA_ENROLLMENT_CODES_PER_DAY codes issued in 24 hours.',
        response: { 200: EnrollmentCode, 409: ErrorBody },
      },
    },
    (request) => headset.renewEnrollmentCode(ctx, callerOf(request)),
  );
  app.delete(
    '/v1/devices/enrollment-code',
    {
      schema: {
        tags: ['devices'],
        description:
          'Revokes the organisation’s enrolment code: no headset can enrol with it any more. ' +
          'Opening "Add headset" again issues a new one.',
        response: { 200: OkBody },
      },
    },
    async (request) => {
      await headset.revokeEnrollmentCode(ctx, callerOf(request));
      return { ok: true as const };
    },
  );
}

function deviceOf(request: { device?: headset.AuthenticatedDevice }) {
  if (!request.device) throw new AppError('unauthorized', 'Device token required');
  return request.device;
}

/** onRequest hook of the headset scope: a device token, and only a device token, gets in. */
function requireDevice(ctx: ServiceContext, lastSeen: LastSeenBuffer): onRequestHookHandler {
  // Cache misses arriving together share one SELECT.
  const loader = new BatchLoader(async (tokenHashes: string[]) => {
    const found = await headset.resolveDevices(ctx.db, tokenHashes);
    return new Map(found.map((row) => [row.tokenHash, row]));
  });
  const cache = ctx.deviceEvents.cache;
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
export function headsetRoutes(app: AppInstance, ctx: ServiceContext) {
  const lastSeen = new LastSeenBuffer(ctx.db, ctx.log);
  app.decorate('lastSeen', lastSeen);
  app.addHook('onClose', async () => {
    await lastSeen.flush().catch((error: unknown) => {
      // A lost database was reported once already, by the process's fatal handler.
      if (error instanceof DatabaseLostError) return;
      ctx.log.error({ err: error }, 'final flush of last-seen times failed');
    });
  });

  app.post(
    '/v1/headset/enroll',
    {
      schema: {
        tags,
        security: [],
        description:
          'Joins the organisation of a valid enrolment code (case-insensitive). 400 ' +
          'enrollment_code_invalid for a wrong or expired code; 429 after 20 failures from one ' +
          'address within 15 minutes.',
        body: EnrollBody,
        response: { 201: EnrollResponse, 400: ErrorBody, 429: ErrorBody },
      },
    },
    async (request, reply) => {
      reply.status(201);
      return headset.enroll(ctx, request.body, request.ip);
    },
  );

  app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    scope.addHook('onRequest', requireDevice(ctx, lastSeen));

    scope.post(
      '/v1/headset/heartbeat',
      {
        schema: {
          tags,
          security,
          description:
            'Every heartbeat_interval_ms. Answers the session the console started on this ' +
            'device, or null.',
          body: HeartbeatBody,
          response: { 200: HeartbeatResponse, 401: ErrorBody },
        },
        // Every headset calls this every few seconds: info-level request lines would be most of
        // the log and ~20% of the route's CPU (bench/heartbeat.bench.ts). Warnings still show.
        logLevel: 'warn',
        // Every field is optional, so a heartbeat may come without a body at all.
        preValidation: (request, _reply, done) => {
          request.body ??= {};
          done();
        },
      },
      (request) => headset.heartbeat(ctx, lastSeen, deviceOf(request), request.body),
    );

    scope.post(
      '/v1/headset/sessions/:id/progress',
      {
        schema: {
          tags,
          security,
          description:
            'Tasks completed so far (0..max_tasks). 404 if the session is not this device’s; ' +
            '409 session_not_active once it has ended (e.g. cancelled): stop playing.',
          params: SessionIdParams,
          body: ProgressBody,
          response: {
            200: SessionProgressResponse,
            400: ErrorBody,
            404: ErrorBody,
            409: ErrorBody,
          },
        },
      },
      (request) =>
        headset.reportProgress(
          ctx,
          deviceOf(request),
          request.params.id,
          request.body.completed_tasks,
        ),
    );

    scope.post(
      '/v1/headset/sessions/:id/finish',
      {
        schema: {
          tags,
          security,
          description:
            'Ends the session as completed, with success true or false. 404 / 409 as for progress.',
          params: SessionIdParams,
          body: FinishBody,
          response: {
            200: SessionProgressResponse,
            400: ErrorBody,
            404: ErrorBody,
            409: ErrorBody,
          },
        },
      },
      (request) => headset.finishSession(ctx, deviceOf(request), request.params.id, request.body),
    );
  });
}

/** Sweeper and last-seen flusher, for a server that runs them (main.ts); tests call them directly. */
export function startHeadsetBackgroundJobs(app: AppInstance, ctx: ServiceContext) {
  startHeadsetJobs(app, ctx, app.lastSeen);
}
