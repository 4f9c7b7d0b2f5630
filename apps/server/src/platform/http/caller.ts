import type { FastifyRequest } from 'fastify';
import type { Role } from '../database/schema.ts';
import { AppError } from '../service/errors.ts';
import { requestFacts, type RequestFacts } from './request-facts.ts';

/** The signed-in account behind a request (auth.guard.ts puts it on the request). */
export interface Caller {
  accountId: string;
  tokenId: string;
  email: string;
  role: Role;
  organizationId: string;
  organizationName: string;
  /** Signed in for its second factor's enrolment only (it must have one, and has none yet). */
  mfaEnrolmentOnly?: boolean;
  /** Where the request came from (callerOf fills it): what the audit log records beside the actor. */
  request?: RequestFacts;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

/** The signed-in account behind the request, with the request's facts for the audit log. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('unauthorized', 'Authentication required');
  return { ...request.caller, request: requestFacts(request) };
}
