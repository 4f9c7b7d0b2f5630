import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, STATUS, type ErrorCode } from './errors.ts';

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
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
      return `${field} must not be blank`;
    // A union of literals fails each branch's `const` first, then the `anyOf` itself.
    case 'const':
    case 'anyOf':
    case 'enum': {
      const literals = [
        ...errors
          .filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
          .map((e) => String(e.params.allowedValue)),
        ...((first.params.allowedValues as unknown[] | undefined) ?? []).map(String),
      ];
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

function send(reply: import('fastify').FastifyReply, code: ErrorCode, message: string) {
  return reply.status(STATUS[code]).send({ error: code, message });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError & { code?: string }, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).headers(error.headers).send({
        error: error.code,
        message: error.message,
      });
    }
    if (error.validation) {
      const context = error.validationContext ?? 'request';
      const errors = error.validation as unknown as AjvError[];
      return send(reply, 'validation_error', describeValidationError(context, errors));
    }
    const pgError = error.code ? PG_CONSTRAINT_ERRORS[error.code] : undefined;
    if (pgError) {
      request.log.warn({ err: error }, 'database constraint rejected a request');
      return send(reply, pgError.code, pgError.message);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return send(reply, 'rate_limited', error.message);
    if (status === 413) return send(reply, 'payload_too_large', 'The request body is too large');
    if (status === 415) return send(reply, 'unsupported_media_type', error.message);
    if (status >= 400 && status < 500) return send(reply, 'bad_request', error.message);
    request.log.error({ err: error }, 'request failed');
    return send(reply, 'internal_error', 'Something went wrong on the server');
  });
}

export function apiNotFound(method: string, url: string): { error: 'not_found'; message: string } {
  return { error: 'not_found', message: `No route ${method} ${url.split('?')[0]}` };
}
