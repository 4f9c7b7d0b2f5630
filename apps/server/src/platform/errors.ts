/**
 * Every non-2xx body is `{ error, message }`. A code maps to exactly one status; adding a code
 * without a status does not compile.
 */
export const STATUS = {
  validation_error: 400,
  bad_request: 400,
  enrollment_code_invalid: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  download_link_invalid: 403,
  not_found: 404,
  conflict: 409,
  email_taken: 409,
  vr_user_has_sessions: 409,
  device_in_session: 409,
  device_not_waiting: 409,
  device_busy: 409,
  session_not_active: 409,
  organization_in_use: 409,
  cannot_delete_self: 409,
  cannot_modify_self: 409,
  cannot_deactivate_own_organization: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.status = STATUS[code];
    this.headers = headers;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);
