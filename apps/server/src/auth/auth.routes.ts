import { routes, type LoginResponse } from '@vrtc/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppInstance } from '../platform/http/app-types.ts';
import { type ServiceContext } from '../platform/service/context.ts';
import { callerOf } from '../platform/http/caller.ts';
import { registerRoute } from '../platform/http/routes.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import * as auth from './auth.service.ts';
import * as apiTokens from './api-tokens.ts';
import {
  clearSessionCookie,
  refuseCrossSite,
  refuseOtherHost,
  setSessionCookie,
} from './session-cookie.ts';
import { knownDeviceId, setKnownDevice } from './known-device.ts';
import { signingSecret } from '../platform/config/signing-secret.ts';
import { signedInCaller } from './auth.guard.ts';

/**
 * Answers a finished sign-in (the password's, or its second step's): the cookie, and the token in
 * the body only for a client without Origin. A page's script never sees the token (the cookie
 * carries it); its browser is now known to the account.
 */
export function answerSignIn(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  result: LoginResponse & { token?: string },
  knownDevice?: string,
): LoginResponse {
  const { token, ...answer } = result;
  // The cookie lives as long as the token it carries.
  if (token) setSessionCookie(request, reply, token, Math.floor(ctx.config.tokenTtlMs / 1000));
  if (request.headers.origin === undefined) return { token, ...answer };
  const email = answer.email.trim().toLowerCase();
  setKnownDevice(request, reply, signingSecret(ctx.config), email, knownDevice);
  return answer;
}

export function authRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.login, async (request, reply) => {
    // A page of another site must not sign the browser in to an account of its choosing. A
    // request without Origin is no browser's POST (scripts, headsets): it is let through.
    const page = request.headers.origin !== undefined;
    if (page) {
      refuseCrossSite(request, ctx.config.publicUrl);
      refuseOtherHost(request, ctx.config.publicUrl);
    }
    const secret = signingSecret(ctx.config);
    const email = request.body.email.trim().toLowerCase();
    const knownDevice = page ? knownDeviceId(request, secret, email) : undefined;
    const result = await auth.login(ctx, request.body, {
      request: requestFacts(request),
      knownDevice,
    });
    // A second factor is owed: no cookie, no token yet (POST /v1/auth/mfa/verify).
    if ('mfa_required' in result) return result;
    return answerSignIn(ctx, request, reply, result, knownDevice);
  });
  registerRoute(app, routes.me, (request) => auth.me(callerOf(request)));
  registerRoute(app, routes.sessionProbe, async (request, reply) => {
    const caller = await signedInCaller(ctx, request, reply);
    return caller
      ? { signed_in: true, account: auth.me(caller) }
      : { signed_in: false, account: null };
  });
  registerRoute(app, routes.logout, async (request, reply) => {
    const answer = await auth.logout(ctx, callerOf(request));
    clearSessionCookie(reply);
    return answer;
  });
  registerRoute(app, routes.changeOwnPassword, async (request) => {
    await auth.changeOwnPassword(ctx, callerOf(request), request.body, request.ip);
    return { ok: true as const };
  });
  registerRoute(app, routes.listApiTokens, (request) =>
    apiTokens.listApiTokens(ctx, callerOf(request)),
  );
  registerRoute(app, routes.createApiToken, (request) =>
    apiTokens.createApiToken(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.revokeApiToken, async (request) => {
    await apiTokens.revokeApiToken(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });
}
