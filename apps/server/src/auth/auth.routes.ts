import { ErrorBody, LoginBody, LoginResponse, Me, OkBody } from '@vrtc/contract';
import type { AppInstance } from '../platform/app-types.ts';
import { callerOf, type ServiceContext } from '../platform/context.ts';
import { requireUser } from './auth.guard.ts';
import * as auth from './auth.service.ts';

export function authRoutes(app: AppInstance, ctx: ServiceContext) {
  app.post(
    '/v1/auth/login',
    {
      schema: {
        tags: ['auth'],
        body: LoginBody,
        response: { 200: LoginResponse, 401: ErrorBody, 429: ErrorBody },
      },
    },
    (request) => auth.login(ctx, request.body, request.ip),
  );

  app.register(async (scope) => {
    scope.addHook('onRequest', requireUser(ctx));
    scope.get(
      '/v1/me',
      { schema: { tags: ['auth'], security: [{ bearer: [] }], response: { 200: Me } } },
      (request) => auth.me(callerOf(request)),
    );
    scope.post(
      '/v1/auth/logout',
      { schema: { tags: ['auth'], security: [{ bearer: [] }], response: { 200: OkBody } } },
      async (request) => {
        await auth.logout(ctx.db, callerOf(request));
        return { ok: true as const };
      },
    );
  });
}
