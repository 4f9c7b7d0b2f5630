import { routes } from '@vrtc/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../platform/http/caller.ts';
import { deviceOf } from '../headset/device.guard.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { sendFile } from '../platform/http/file-answer.ts';
import { registerRoute } from '../platform/http/routes.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import type { SessionsContext } from '../sessions/sessions.service.ts';
import { claimLaunch, createLaunch, getLaunch } from './launches.service.ts';
import { exportPackage, listPackageKeys, revokePackageKey } from './package-keys.service.ts';

/** The console's side (signed in): export a package, list and revoke its keys. */
export function lmsRoutes(app: AppInstance, ctx: SessionsContext) {
  registerRoute(app, routes.exportLmsPackage, async (request, reply) => {
    const consoleUrl = ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
    const file = await exportPackage(ctx, callerOf(request), request.query, consoleUrl);
    return sendFile(reply, { ...file, contentType: 'application/zip' });
  });
  registerRoute(app, routes.listLmsPackageKeys, (request) =>
    listPackageKeys(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.revokeLmsPackageKey, (request) =>
    revokePackageKey(ctx, callerOf(request), request.params.id),
  );
}

const LAUNCH_PATHS = [routes.createLmsLaunch.path, routes.getLmsLaunch.path];

/**
 * CORS for the launch page, which the LMS serves from its own origin (decision 030): any origin
 * may call, never with credentials (no cookie is read on these routes; the package key or the
 * launch token in the request is the only credential), so the origin is echoed without
 * Access-Control-Allow-Credentials, and caches keep answers per origin.
 */
function allowLmsOrigin(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  const origin = request.headers.origin;
  if (origin) {
    reply.header('access-control-allow-origin', origin);
    reply.header('vary', 'Origin');
  }
  done();
}

/**
 * The launch page's routes (public, cross-origin) and the headset's claim (device token). Outside
 * the console's scope: no cookie is parsed here, and the console's security headers do not apply
 * to an API called from another site.
 */
export function lmsLaunchRoutes(app: AppInstance, ctx: SessionsContext) {
  for (const path of LAUNCH_PATHS) {
    app.options(path, { schema: { hide: true } }, (request, reply) => {
      allowLmsOrigin(request, reply, () => undefined);
      return reply
        .status(204)
        .header('access-control-allow-methods', 'GET, POST')
        .header('access-control-allow-headers', 'content-type, x-lms-launch-token')
        .header('access-control-max-age', '600')
        .send();
    });
  }
  registerRoute(
    app,
    routes.createLmsLaunch,
    (request) => createLaunch(ctx, request.body, requestFacts(request)),
    { onRequest: allowLmsOrigin },
  );
  registerRoute(
    app,
    routes.getLmsLaunch,
    (request) => getLaunch(ctx, request.headers['x-lms-launch-token'], requestFacts(request)),
    { onRequest: allowLmsOrigin },
  );
  registerRoute(app, routes.claimLmsLaunch, (request) =>
    claimLaunch(ctx, deviceOf(request), request.body, requestFacts(request)),
  );
}
