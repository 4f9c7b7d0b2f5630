import { routes } from '@vrtc/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../platform/http/caller.ts';
import type { AppInstance } from '../platform/http/app-types.ts';
import { registerRoute } from '../platform/http/routes.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import { setSessionCookie } from '../auth/session-cookie.ts';
import * as sso from './sso.service.ts';
import { SsoFailure, failurePath, startSignIn } from './sso-sign-in.ts';
import { finishOidc, finishSaml, type Finished } from './sso-finish.ts';
import { discoverSso } from './sso-discover.ts';
import { providerSignOut, samlMetadata, ssoTestResult } from './sso-extras.ts';

/** A SAML response is posted as a form; the parser reads forms in the ACS's scope only. */
const FORM_LIMIT_BYTES = 1024 * 1024;

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
  registerRoute(app, routes.startSsoTest, async (request, reply) => {
    await sso.getSsoConfig(ctx, request.params.id);
    const path = `/admin/organizations/${request.params.id}`;
    try {
      const url = await startSignIn(
        ctx,
        { organization_id: request.params.id, return_to: path },
        { purpose: 'test' },
      );
      return reply.redirect(url, 302);
    } catch (error) {
      if (!(error instanceof SsoFailure)) throw error;
      return reply.redirect(`${path}?sso_error=${error.code}`, 302);
    }
  });
  registerRoute(app, routes.getSsoTest, (request) =>
    ssoTestResult(ctx, request.params.id, request.params.testId),
  );
}

/** Where the provider's answer leads: the console with its cookie, or a page with the reason. */
function answer(request: FastifyRequest, reply: FastifyReply, ctx: ServiceContext, done: Finished) {
  if (done.kind === 'redirect') return reply.redirect(done.location, 302);
  setSessionCookie(request, reply, done.token, Math.floor(ctx.config.tokenTtlMs / 1000));
  return reply.redirect(done.returnTo, 302);
}

/** The browser's way through the organisation's identity provider (public: no one is signed in). */
export function ssoSignInRoutes(app: AppInstance, ctx: ServiceContext) {
  registerRoute(app, routes.ssoDiscover, (request) =>
    discoverSso(ctx, request.query.email, requestFacts(request).ip),
  );
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
      return answer(request, reply, ctx, await finishOidc(ctx, search, requestFacts(request)));
    } catch (error) {
      return reply.redirect(failureOf(error), 302);
    }
  });
  registerRoute(app, routes.samlMetadata, async (request, reply) => {
    const xml = await samlMetadata(ctx, request.params.organizationId);
    return reply.type('application/samlmetadata+xml').send(xml);
  });
  registerRoute(app, routes.ssoEndSession, async (request, reply) =>
    reply.redirect(await providerSignOut(ctx, request.query.organization_id), 302),
  );
  registerRoute(app, routes.ssoReauth, async (request, reply) => {
    const caller = callerOf(request);
    try {
      const url = await startSignIn(
        ctx,
        { organization_id: caller.organizationId, return_to: request.query.return_to ?? '/' },
        { purpose: 'reauth', authTokenId: caller.tokenId },
      );
      return reply.redirect(url, 302);
    } catch (error) {
      return reply.redirect(failureOf(error), 302);
    }
  });
  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    registerRoute(scope, routes.samlAcs, async (request, reply) => {
      try {
        return answer(
          request,
          reply,
          ctx,
          await finishSaml(ctx, request.body, requestFacts(request)),
        );
      } catch (error) {
        return reply.redirect(failureOf(error), 302);
      }
    });
  });
}

function failureOf(error: unknown): string {
  if (error instanceof SsoFailure) return failurePath(error.code);
  throw error;
}
