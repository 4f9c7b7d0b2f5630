import { routes, type RouteAccess } from '@vrtc/contract';
import { callerOf } from '../auth/caller.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import { sendFile } from '../platform/http/file-answer.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { recordAuditAlone } from './audit.ts';
import * as audit from './audit.service.ts';

export function auditRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.listAuditEvents, (request) =>
    audit.listAuditEvents(ctx, callerOf(request), request.query),
  );
  registerRoute(app, routes.exportAuditEvents, (request, reply) => {
    const { fileName, stream } = audit.exportAuditEvents(ctx, callerOf(request), request.query);
    return sendFile(reply, { fileName, contentType: 'text/csv; charset=utf-8', body: stream });
  });
  registerRoute(app, routes.verifyAudit, () => audit.verifyAudit(ctx));
}

/** Routes whose refusals their service records itself, with what was tried. */
const RECORD_THEIR_OWN = new Set(
  [routes.login, routes.changeOwnPassword].map((route) => `${route.method} ${route.path}`),
);

const accessByRoute = new Map<string, RouteAccess>(
  Object.values(routes).map((route) => [`${route.method} ${route.path}`, route.access]),
);

/**
 * Records every request the API refused with 401 or 403 (auth.access_denied), once answered, in
 * a transaction of its own. Registered in the console's scope only: headsets' refusals (a removed
 * headset keeps calling until switched off) are in the server log, and the heartbeat pays for no
 * hook. Sign-in refusals are recorded by the sign-in itself (auth.login_failed), a wrong current
 * password by the password change (auth.password_changed, failure). The rate limits
 * bound how many refusals one client can make.
 */
export function recordRefusals(app: AppInstance, ctx: ServiceContext) {
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return;
    const path = request.routeOptions.url;
    const route = `${request.method} ${path}`;
    const access = accessByRoute.get(route);
    if (!access || access === 'device' || RECORD_THEIR_OWN.has(route)) return;
    const caller = request.caller;
    const facts = requestFacts(request);
    await recordAuditAlone(ctx.db, {
      by: caller
        ? { ...caller, request: facts }
        : {
            actor: { type: 'account', id: null, email: null, role: null },
            organizationId: null,
            request: facts,
          },
      at: ctx.clock.now(),
      action: 'auth.access_denied',
      outcome: 'denied',
      target: { type: 'route', id: route, label: request.url.split('?')[0] ?? null },
      changes: { status: [null, reply.statusCode] },
    }).catch((error: unknown) => {
      ctx.log.error({ err: error }, 'recording a refused request in the audit log failed');
    });
  });
}
