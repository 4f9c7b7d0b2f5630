import type { ErrorCode, ErrorDetails } from '@vrtc/contract';
import { isKnownErrorCode } from './error-codes';

/** An error body as it may arrive: the contract's `{ error, message, details? }`, or anything. */
export interface ReceivedErrorBody {
  error?: unknown;
  message?: unknown;
  details?: unknown;
}

/**
 * A failed API call: the HTTP status and what the server said. The console words a failure from
 * `code` and `details` (lib/error-text.ts); `serverMessage` is the server's English text, shown
 * only for a code the console does not know.
 */
export class ApiError extends Error {
  readonly status: number;
  /** The error code when it is one of the contract's. */
  readonly code: ErrorCode | undefined;
  /** The code as the server sent it, known or not. */
  readonly rawCode: string | undefined;
  /** The values a message is built from (a count, a name, a limit, the field). */
  readonly details: ErrorDetails | undefined;
  readonly serverMessage: string | undefined;

  constructor(status: number, body: ReceivedErrorBody | undefined) {
    const rawCode = typeof body?.error === 'string' ? body.error : undefined;
    const message = typeof body?.message === 'string' ? body.message : undefined;
    super(message ?? rawCode ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.rawCode = rawCode;
    this.code = isKnownErrorCode(rawCode) ? rawCode : undefined;
    this.details = isDetails(body?.details) ? body.details : undefined;
    this.serverMessage = message ?? rawCode;
  }
}

function isDetails(value: unknown): value is ErrorDetails {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
