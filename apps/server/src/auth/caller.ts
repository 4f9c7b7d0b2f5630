import type { FastifyRequest } from 'fastify';
import type { Role } from '../platform/database/schema.ts';
import { AppError } from '../platform/service/errors.ts';

/** The signed-in account behind a request (auth.guard.ts puts it on the request). */
export interface Caller {
  accountId: string;
  tokenId: string;
  email: string;
  role: Role;
  organizationId: string;
  organizationName: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('unauthorized', 'Authentication required');
  return request.caller;
}
