import { routes } from '@vrtc/contract';
import type { FastifyRequest } from 'fastify';
import type { AppInstance } from '../platform/http/app-types.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { registerRoute } from '../platform/http/routes.ts';
import { requestFacts } from '../platform/http/request-facts.ts';
import { callerOf } from '../platform/http/caller.ts';
import { answerSignIn } from './auth.routes.ts';
import * as mfa from './mfa.service.ts';
import { resetAccountMfa, signInPasskeyOptions, verifyMfa } from './mfa-sign-in.ts';
import { getMfaPolicy, putMfaPolicy } from './mfa-policy.ts';
import type { RelyingParty } from './mfa-passkeys.ts';
import { refuseCrossSite, refuseOtherHost } from './session-cookie.ts';

/**
 * The passkeys' relying party: PUBLIC_URL's host and origin; without PUBLIC_URL (development,
 * tests) the host and protocol the request was made to.
 */
function relyingParty(request: FastifyRequest, publicUrl: string | undefined): RelyingParty {
  const url = new URL(publicUrl ?? `${request.protocol}://${request.host}`);
  return { id: url.hostname, origin: url.origin };
}

/** Multi-factor sign-in (decision 031): the account's own factors, the second step, the policy. */
export function mfaRoutes(app: AppInstance, ctx: ServiceContext) {
  const rp = (request: FastifyRequest) => relyingParty(request, ctx.config.publicUrl);
  registerRoute(app, routes.mfaStatus, (request) => mfa.mfaStatus(ctx, callerOf(request)));
  registerRoute(app, routes.startTotp, (request) => mfa.startTotp(ctx, callerOf(request)));
  registerRoute(app, routes.confirmTotp, (request) =>
    mfa.confirmTotp(ctx, callerOf(request), request.body.code),
  );
  registerRoute(app, routes.removeTotp, async (request) => {
    await mfa.removeTotp(ctx, callerOf(request), request.body);
    return { ok: true as const };
  });
  registerRoute(app, routes.renewRecoveryCodes, (request) =>
    mfa.renewRecoveryCodes(ctx, callerOf(request), request.body),
  );
  registerRoute(app, routes.passkeyRegistrationOptions, (request) =>
    mfa.passkeyRegistrationOptions(ctx, callerOf(request), rp(request)),
  );
  registerRoute(app, routes.addPasskey, (request) =>
    mfa.addPasskey(ctx, callerOf(request), request.body, rp(request)),
  );
  registerRoute(app, routes.removePasskey, async (request) => {
    await mfa.removePasskey(ctx, callerOf(request), request.params.id);
    return { ok: true as const };
  });

  registerRoute(app, routes.verifyMfa, async (request, reply) => {
    // As the password's step: a page of another site must not finish a sign-in.
    if (request.headers.origin !== undefined) {
      refuseCrossSite(request, ctx.config.publicUrl);
      refuseOtherHost(request, ctx.config.publicUrl);
    }
    const result = await verifyMfa(
      ctx,
      request.body,
      { request: requestFacts(request) },
      rp(request),
    );
    return answerSignIn(ctx, request, reply, result);
  });
  registerRoute(app, routes.mfaPasskeyOptions, (request) =>
    signInPasskeyOptions(ctx, request.body.mfa_token, rp(request)),
  );

  registerRoute(app, routes.resetAccountMfa, async (request) => {
    await resetAccountMfa(ctx, callerOf(request), request.params.id, request.body);
    return { ok: true as const };
  });
  registerRoute(app, routes.getMfaPolicy, () => getMfaPolicy(ctx.db));
  registerRoute(app, routes.putMfaPolicy, (request) =>
    putMfaPolicy(ctx, callerOf(request), request.body),
  );
}
