import { routes } from '@vrtc/contract';
import { callerOf } from '../auth/caller.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import { setSessionCookie } from '../auth/session-cookie.ts';
import * as sso from './sso.service.ts';
import { SsoFailure, failurePath, finishSignIn, startSignIn } from './sso-sign-in.ts';

/** A platform admin's settings of an organisation's single sign-on (access admin). */
export function ssoAdminRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.getSsoConfig, (request) => sso.getSsoConfig(ctx, request.params.id));
  registerRoute(app, routes.putSsoConfig, (request) =>
    sso.putSsoConfig(ctx, callerOf(request), request.params.id, request.body),
  );
  registerRoute(app, routes.deleteSsoConfig, async (request) => {
    await sso.deleteSsoConfig(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });
}

/** The browser's way through the organisation's identity provider (public: no one is signed in). */
export function ssoSignInRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.ssoStart, async (request, reply) => {
    try {
      return reply.redirect(await startSignIn(ctx, request.query), 302);
    } catch (error) {
      return reply.redirect(failureOf(error), 302);
    }
  });
  registerRoute(app, routes.ssoCallback, async (request, reply) => {
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    try {
      const signedIn = await finishSignIn(ctx, search, requestFacts(request));
      setSessionCookie(request, reply, signedIn.token, Math.floor(ctx.config.tokenTtlMs / 1000));
      return reply.redirect(signedIn.returnTo, 302);
    } catch (error) {
      return reply.redirect(failureOf(error), 302);
    }
  });
}

function failureOf(error: unknown): string {
  if (error instanceof SsoFailure) return failurePath(error.code);
  throw error;
}
