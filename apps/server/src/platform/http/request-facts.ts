import type { FastifyRequest } from 'fastify';
import { csvReaderFor, type CsvLanguage, type CsvReader } from '@vrtc/contract';

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

/**
 * Who will read a CSV the request asks for (csv-reader.ts in the contract): the language its
 * query names, else one its Accept-Language names, times in its utc_offset; null when it names
 * no language, for the file as it always was.
 */
export function csvReaderOf(
  request: FastifyRequest,
  query: { lang?: CsvLanguage; utc_offset?: number },
): CsvReader | null {
  const accept = request.headers['accept-language'];
  return csvReaderFor(
    query.lang,
    typeof accept === 'string' ? accept : undefined,
    query.utc_offset,
  );
}
