import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { routes } from '@vrtc/contract';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import { AppError } from '../platform/service/errors.ts';
import { resolveToken } from './auth.service.ts';
import { bearerToken } from './tokens.ts';
import {
  clearSessionCookie,
  cookieToken,
  isUnsafeMethod,
  refuseCrossSite,
  refuseOtherHost,
} from './session-cookie.ts';

/**
 * Which signed-in accounts a guard lets in: every role (`reader` routes, the auditor's too), the
 * organisation's staff and admins (`staff`: not the read-only auditor), or admins only.
 */
export type AccountGate = 'reader' | 'staff' | 'admin';

/**
 * What a sign-in for a second factor's enrolment only may reach (decision 031): the account
 * itself, signing out, and its own factors.
 */
const ENROLMENT_ROUTES = new Set(
  [
    routes.me,
    routes.logout,
    routes.mfaStatus,
    routes.startTotp,
    routes.confirmTotp,
    routes.passkeyRegistrationOptions,
    routes.addPasskey,
  ].map((route) => `${route.method} ${route.path}`),
);

const enrolmentRoute = (request: FastifyRequest) =>
  ENROLMENT_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`);

/**
 * onRequest hook: a valid user token (and, for admin scopes, the admin role) or no entry. The
 * token is the Authorization header's (scripts, tests) or else the console's sign-in cookie
 * (session-cookie.ts); either resolves the same way. A browser sends the cookie whatever page
 * made the request, so a change made with it must come from the console's own origin, and with
 * PUBLIC_URL set any request with it must be made to PUBLIC_URL's host.
 */
export function requireUser(
  ctx: ServiceContext,
  gate: AccountGate = 'reader',
): onRequestHookHandler {
  return async (request, reply) => {
    const { token, fromCookie } = signInOf(request);
    if (!token) throw new AppError('unauthorized', 'Authentication required');
    if (fromCookie) refuseOtherHost(request, ctx.config.publicUrl);
    if (fromCookie && isUnsafeMethod(request.method))
      refuseCrossSite(request, ctx.config.publicUrl);
    const caller = await resolveToken(ctx.db, ctx.clock.now(), token);
    if (!caller) {
      // The browser would keep sending a cookie that no longer signs anyone in.
      if (fromCookie) clearSessionCookie(reply);
      throw new AppError('unauthorized', 'Your session has expired. Please sign in again.');
    }
    // Known before a refusal, so the audit log names who was refused.
    request.caller = caller;
    if (caller.mfaEnrolmentOnly && !enrolmentRoute(request)) {
      throw new AppError(
        'mfa_enrolment_required',
        'Set up a second factor (an authenticator app or a passkey) first',
      );
    }
    if (gate === 'admin' && caller.role !== 'admin') {
      throw new AppError('forbidden', 'This action requires the admin role');
    }
    if (gate === 'staff' && caller.role === 'auditor') {
      throw new AppError('forbidden', 'An auditor’s account reads only: it changes nothing');
    }
  };
}

/** The sign-in a request sends: its bearer token, else the console's cookie. */
function signInOf(request: FastifyRequest) {
  const bearer = bearerToken(request.headers.authorization);
  const fromCookie = bearer ? undefined : cookieToken(request);
  return { token: bearer ?? fromCookie, fromCookie };
}

/**
 * The account a request is signed in as, or undefined: no sign-in sent, or one that no longer
 * holds (its cookie is cleared, as the guard does). For GET /v1/auth/session, which tells a
 * signed-out console so without refusing it. A cookie sent to another host than PUBLIC_URL's is
 * refused, as by the guard: the answer names the account.
 */
export async function signedInCaller(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<Caller | undefined> {
  const { token, fromCookie } = signInOf(request);
  if (!token) return undefined;
  if (fromCookie) refuseOtherHost(request, ctx.config.publicUrl);
  const caller = await resolveToken(ctx.db, ctx.clock.now(), token);
  if (!caller && fromCookie) clearSessionCookie(reply);
  return caller;
}
