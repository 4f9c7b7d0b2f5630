import type { onRequestHookHandler } from 'fastify';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError } from '../platform/service/errors.ts';
import type { Role } from '../platform/database/schema.ts';
import { resolveToken } from './auth.service.ts';
import { bearerToken } from './tokens.ts';

/** onRequest hook: a valid user token (and, for admin scopes, the admin role) or no entry. */
export function requireUser(ctx: ServiceContext, role?: Role): onRequestHookHandler {
  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new AppError('unauthorized', 'Authentication required');
    const caller = await resolveToken(ctx.db, ctx.clock.now(), token);
    if (!caller)
      throw new AppError('unauthorized', 'Your session has expired. Please sign in again.');
    if (role && caller.role !== role) {
      throw new AppError('forbidden', 'This action requires the admin role');
    }
    request.caller = caller;
  };
}
