import { STORABLE_TEXT_PATTERN, type ErrorDetails } from '@vrtc/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, STATUS, type ErrorCode } from '../service/errors.ts';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  /** The failing value (the validator compiles with `verbose`). */
  data?: unknown;
}

/** Text without NUL or unpaired surrogates, as the contract's text patterns require. */
const STORABLE_TEXT = new RegExp(STORABLE_TEXT_PATTERN, 'u');

/** The values a field must be one of: an enum's list, or each literal of a union that failed. */
function allowedValues(errors: AjvError[]): string[] {
  const first = errors[0];
  if (!first || !['const', 'anyOf', 'enum'].includes(first.keyword)) return [];
  return [
    ...errors
      .filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
      .map((e) => String(e.params.allowedValue)),
    ...((first.params.allowedValues as unknown[] | undefined) ?? []).map(String),
  ];
}

/** "body.name: must NOT have fewer than 1 characters", naming the failing field. */
export function describeValidationError(context: string, errors: AjvError[]): string {
  const first = errors[0];
  if (!first) return `Invalid ${context}`;
  const pathParts = first.instancePath.split('/').filter(Boolean);
  const field = [context, ...pathParts].join('.');
  switch (first.keyword) {
    case 'required':
      return `${field}.${String(first.params.missingProperty)} is required`;
    case 'additionalProperties':
      return `${field}.${String(first.params.additionalProperty)} is not allowed`;
    case 'format':
      return `${field} must be a valid ${String(first.params.format)}`;
    case 'pattern':
      return typeof first.data === 'string' && !STORABLE_TEXT.test(first.data)
        ? `${field} contains a character that cannot be stored (NUL or an unpaired surrogate)`
        : `${field} must not be blank`;
    // A union of literals fails each branch's `const` first, then the `anyOf` itself.
    case 'const':
    case 'anyOf':
    case 'enum': {
      const literals = allowedValues(errors);
      return literals.length > 0
        ? `${field} must be one of: ${literals.join(', ')}`
        : `${field} ${first.message ?? 'is invalid'}`;
    }
    default:
      return `${field} ${first.message ?? 'is invalid'}`;
  }
}

const PG_CONSTRAINT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  '23505': { code: 'conflict', message: 'A record with these values already exists' },
  '23503': { code: 'conflict', message: 'The record is referenced by other data' },
  '23514': { code: 'bad_request', message: 'A value is outside its allowed range' },
  '22P02': { code: 'bad_request', message: 'A value has an invalid format' },
  '22001': { code: 'bad_request', message: 'A value is too long' },
  '22003': { code: 'bad_request', message: 'A number is out of range' },
  '22021': { code: 'bad_request', message: 'Text contains characters that cannot be stored' },
  '54000': { code: 'bad_request', message: 'A value is too large to store' },
};

/** The server could not write: nothing was saved, and it recovers by itself once space returns. */
const STORAGE_FULL_CODES = new Set([
  'ENOSPC', // no space left on device
  'EDQUOT', // disk quota exceeded
  'EROFS', // file system mounted read-only
  '53100', // PostgreSQL: disk_full
]);
/** The database cannot be reached right now (or, embedded, is gone until a restart). */
const DATABASE_DOWN_CODES = new Set([
  'DATABASE_LOST',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);

export const STORAGE_UNAVAILABLE_MESSAGE =
  'The server cannot write data right now (its storage is full or unavailable). Nothing was saved; try again later.';
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The database is unavailable right now. Try again in a moment.';

/** An error of the machine, not of the request: 503 with a stable code, or undefined. */
function unavailable(error: { code?: string; errno?: number; name?: string }) {
  // PGlite's file system layer reports errno 28 (ENOSPC) without a string code.
  const code = error.code ?? (error.name === 'ErrnoError' && error.errno === 28 ? 'ENOSPC' : '');
  if (STORAGE_FULL_CODES.has(code)) {
    return { code: 'storage_unavailable' as const, message: STORAGE_UNAVAILABLE_MESSAGE };
  }
  // SQLSTATE class 08: connection exceptions.
  if (DATABASE_DOWN_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) {
    return { code: 'service_unavailable' as const, message: DATABASE_UNAVAILABLE_MESSAGE };
  }
  return undefined;
}

function send(
  reply: import('fastify').FastifyReply,
  code: ErrorCode,
  message: string,
  details?: ErrorDetails,
) {
  return reply.status(STATUS[code]).send({ error: code, message, ...(details ? { details } : {}) });
}

/**
 * What a client needs to word a validation failure itself: the field, the rule that failed and
 * its limit or allowed values.
 */
export function validationDetails(context: string, errors: AjvError[]): ErrorDetails {
  const first = errors[0];
  if (!first) return { field: context };
  const path = [context, ...first.instancePath.split('/').filter(Boolean)];
  if (first.keyword === 'required') path.push(String(first.params.missingProperty));
  if (first.keyword === 'additionalProperties') path.push(String(first.params.additionalProperty));
  const details: ErrorDetails = { field: path.join('.'), rule: first.keyword };
  if (typeof first.params.limit === 'number') details.limit = first.params.limit;
  const allowed = allowedValues(errors);
  if (allowed.length > 0) {
    details.rule = 'enum';
    details.allowed = allowed.join(', ');
  }
  if (first.keyword === 'pattern') {
    details.rule =
      typeof first.data === 'string' && !STORABLE_TEXT.test(first.data) ? 'storable' : 'not_blank';
  }
  return details;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { code?: string }, request, reply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.status)
        .headers(error.headers)
        .send({
          error: error.code,
          message: error.message,
          ...(error.details ? { details: error.details } : {}),
        });
    }
    if (error.validation) {
      const context = error.validationContext ?? 'request';
      const errors = error.validation as unknown as AjvError[];
      return send(
        reply,
        'validation_error',
        describeValidationError(context, errors),
        validationDetails(context, errors),
      );
    }
    const down = unavailable(error as { code?: string; errno?: number; name?: string });
    if (down) {
      // A lost embedded database is logged once, by the process's fatal handler (main.ts).
      if (error.code !== 'DATABASE_LOST') request.log.warn({ err: error }, down.message);
      return send(reply, down.code, down.message);
    }
    const pgError = error.code ? PG_CONSTRAINT_ERRORS[error.code] : undefined;
    if (pgError) {
      request.log.warn({ err: error }, 'database constraint rejected a request');
      return send(reply, pgError.code, pgError.message);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return send(reply, 'rate_limited', error.message);
    if (status === 413) {
      return send(reply, 'payload_too_large', 'The request body is too large', {
        limit_bytes: request.routeOptions.bodyLimit ?? null,
      });
    }
    if (status === 415) return send(reply, 'unsupported_media_type', error.message);
    if (status >= 400 && status < 500) return send(reply, 'bad_request', error.message);
    request.log.error({ err: error }, 'request failed');
    return send(reply, 'internal_error', 'Something went wrong on the server');
  });
}

export function apiNotFound(method: string, url: string): { error: 'not_found'; message: string } {
  return { error: 'not_found', message: `No route ${method} ${url.split('?')[0]}` };
}
