import { ERRORS, type ErrorCode, type ErrorDetails } from '@vrtc/contract';

export type { ErrorCode };

/** The status of every code, from the contract: a code the contract lacks does not compile. */
export const STATUS = Object.fromEntries(
  Object.entries(ERRORS).map(([code, { status }]) => [code, status]),
) as { [Code in ErrorCode]: (typeof ERRORS)[Code]['status'] };

export interface AppErrorOptions {
  /** Values the message was built from, for clients that show their own wording. */
  details?: ErrorDetails;
  headers?: Record<string, string>;
}

/** Every non-2xx body is `{ error, message, details? }`, with the status of its code. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.code = code;
    this.status = ERRORS[code].status;
    this.headers = options.headers ?? {};
    this.details = options.details;
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} not found`);

/** A list's cursor that is not one the list answered (readKeysetPage). */
export const invalidCursor = () =>
  new AppError('validation_error', 'cursor is not one this list answered', {
    details: { field: 'querystring.cursor' },
  });
