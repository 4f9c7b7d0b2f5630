import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/service/errors.ts';

/**
 * Errors in the form RFC 7644 §3.12 gives them: `schemas`, `status` as a string, `detail`, and
 * `scimType` where the RFC names one. Directories (Entra ID, Okta) read these, not the console's
 * `{ error, message }`.
 */
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly scimType?: ScimType,
  ) {
    super(message);
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const userNotFound = () => new ScimError(404, 'User not found');

export function scimErrorBody(status: number, detail: string, scimType?: ScimType) {
  return {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  };
}

/** The SCIM scope's error handler: every refusal in SCIM form, 500s logged and told in none. */
export function answerScimError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  reply.type('application/scim+json; charset=utf-8');
  if (error instanceof ScimError) {
    return reply
      .status(error.status)
      .send(scimErrorBody(error.status, error.message, error.scimType));
  }
  if (error instanceof AppError) {
    reply.headers(error.headers);
    const scimType = error.code === 'email_taken' ? 'uniqueness' : undefined;
    return reply.status(error.status).send(scimErrorBody(error.status, error.message, scimType));
  }
  const status = (error as FastifyError).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own refusals: a body that is not JSON, a media type or size it does not take.
    const scimType = status === 400 ? 'invalidSyntax' : undefined;
    return reply.status(status).send(scimErrorBody(status, (error as Error).message, scimType));
  }
  request.log.error({ err: error }, 'SCIM request failed');
  return reply.status(500).send(scimErrorBody(500, 'Internal server error'));
}
