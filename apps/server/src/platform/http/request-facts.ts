import type { FastifyRequest } from 'fastify';

/**
 * Where a request came from, as the audit log records it: the client's address (as trustProxy
 * reads it), its user agent (bounded: a header is the client's to fill) and the request id the
 * server log's line carries too.
 */
export interface RequestFacts {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

const USER_AGENT_MAX_LENGTH = 512;

/** The one place a request's facts are read from the Fastify request. */
export function requestFacts(request: FastifyRequest): RequestFacts {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip || null,
    userAgent: typeof agent === 'string' && agent ? agent.slice(0, USER_AGENT_MAX_LENGTH) : null,
    requestId: typeof request.id === 'string' ? request.id : null,
  };
}
