import { routes, type RouteAccess } from '@vrtc/contract';
import type { AppInstance } from '../platform/http/app-types.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { countAttempt } from '../platform/service/rate-limit.ts';
import { recordAuditAlone } from './audit.ts';

/**
 * Refusals in the audit log, within bounds a stranger cannot push. A caller not signed in owns no
 * chain to write to: its refusals are counted (metrics, per route, and per address and minute),
 * never chained one by one. A known account's refusals are the log's business (who tried what),
 * up to a budget per account and window; past it they are counted. What an event records of the
 * request is capped (the path, the user agent).
 */

/** Refusal events recorded per account (each action apart) in a window. */
export const AUDITED_REFUSALS_PER_ACCOUNT = 30;
export const AUDITED_REFUSALS_WINDOW_MS = 15 * 60 * 1000;
/** The longest path a refusal records (a client chooses its path's length). */
export const AUDITED_PATH_MAX_LENGTH = 512;

/**
 * Whether the audit log still takes a refusal of this account now (counted in the database, so
 * every process shares the budget: decision 008).
 */
export async function auditBudgetLeft(
  ctx: Pick<ServiceContext, 'db'>,
  now: Date,
  action: 'auth.access_denied' | 'auth.login_failed',
  accountId: string,
): Promise<boolean> {
  const [count] = await countAttempt(ctx.db, now, [
    {
      key: `audit:${action}:${accountId}`,
      max: AUDITED_REFUSALS_PER_ACCOUNT,
      windowMs: AUDITED_REFUSALS_WINDOW_MS,
    },
  ]);
  return count !== undefined && count.hits <= AUDITED_REFUSALS_PER_ACCOUNT;
}

/** The request's path, without its query string, at most AUDITED_PATH_MAX_LENGTH characters. */
export const auditedPath = (url: string) =>
  (url.split('?', 1)[0] ?? '').slice(0, AUDITED_PATH_MAX_LENGTH);

/** Routes whose refusals their service records itself, with what was tried. */
const RECORD_THEIR_OWN = new Set(
  [routes.login, routes.changeOwnPassword].map((route) => `${route.method} ${route.path}`),
);

const accessByRoute = new Map<string, RouteAccess>(
  Object.values(routes).map((route) => [`${route.method} ${route.path}`, route.access]),
);

/**
 * Every request the console's API refused with 401 or 403, once answered. Registered in the
 * console's scope only: headsets' refusals are recorded in their own bounded form
 * (headset/device-refusals.ts), and the heartbeat pays for no hook. A signed-in caller's refusal
 * is an `auth.access_denied` event in a transaction of its own, within the account's budget; a
 * refusal of anyone else (a sign-in's too) is counted in the metrics. Sign-in refusals of a known
 * account are recorded by the sign-in itself (auth.login_failed), a wrong current password by
 * the password change (auth.password_changed, failure).
 */
export function recordRefusals(app: AppInstance, ctx: ServiceContext) {
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode !== 401 && reply.statusCode !== 403) return;
    const path = request.routeOptions.url;
    const route = `${request.method} ${path}`;
    const access = accessByRoute.get(route);
    if (!access || access === 'device') return;
    const caller = request.caller;
    if (!caller) {
      app.metrics.refusedUnauthenticated(path ?? 'unmatched', reply.statusCode, request.ip);
      return;
    }
    if (RECORD_THEIR_OWN.has(route)) return;
    const now = ctx.clock.now();
    try {
      if (!(await auditBudgetLeft(ctx, now, 'auth.access_denied', caller.accountId))) {
        app.metrics.refusalNotAudited();
        return;
      }
      await recordAuditAlone(ctx.db, {
        by: { ...caller, request: requestFacts(request) },
        at: now,
        action: 'auth.access_denied',
        outcome: 'denied',
        target: { type: 'route', id: route, label: auditedPath(request.url) },
        changes: { status: [null, reply.statusCode] },
      });
    } catch (error: unknown) {
      ctx.log.error({ err: error }, 'recording a refused request in the audit log failed');
    }
  });
}
