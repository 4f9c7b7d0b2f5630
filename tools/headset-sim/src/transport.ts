import {
  IDEMPOTENCY_KEY_HEADER,
  routePath,
  routes,
  type ErrorBody,
  type FinishBody,
  type ProgressBody,
  type RouteBody,
  type RouteResponse,
  type SessionProgressResponse,
} from '@vrtc/contract';
import type { OutboxEntry } from './outbox.ts';
import { parseRetryAfter } from './retry.ts';

/** The routes a headset calls. */
export type HeadsetRoute =
  | typeof routes.enroll
  | typeof routes.heartbeat
  | typeof routes.reportProgress
  | typeof routes.finishSession
  | typeof routes.claimLmsLaunch;

/** A non-2xx answer of the server, with its `{ error, message }` body. */
export class ServerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The answer's Retry-After header, in milliseconds, when it had one. */
    readonly retryAfterMs?: number,
    /** The body's `details`, e.g. `{ status }` of a session that is no longer active. */
    readonly details?: ErrorBody['details'],
  ) {
    super(message);
    this.name = 'ServerError';
  }
}

/**
 * JSON over HTTP to the server, one request per call with its own time limit, each ended as soon
 * as the headset stops (`lifetime` names the signal of the current run).
 */
export class Transport {
  constructor(
    private readonly base: string,
    private readonly timeoutMs: number,
    private readonly lifetime: () => AbortSignal,
  ) {}

  /** Calls a route of the headset protocol, as the contract's route map defines it. */
  async request<R extends HeadsetRoute>(
    route: R,
    call: {
      params?: Record<string, string>;
      body: RouteBody<R>;
      headers?: Record<string, string>;
    },
    token?: string,
  ): Promise<RouteResponse<R>> {
    const signal = AbortSignal.any([this.lifetime(), AbortSignal.timeout(this.timeoutMs)]);
    const response = await fetch(`${this.base}${routePath(route, call.params)}`, {
      method: route.method,
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...call.headers,
      },
      body: JSON.stringify(call.body),
      signal,
    });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: reported below with the status
    }
    if (!response.ok) {
      const error = parsed as Partial<ErrorBody> | undefined;
      throw new ServerError(
        response.status,
        error?.error ?? 'http_error',
        error?.message ?? `HTTP ${response.status}`,
        parseRetryAfter(response.headers.get('retry-after'), Date.now()),
        error?.details,
      );
    }
    return parsed as RouteResponse<R>;
  }

  /** Sends one report of the outbox, with the Idempotency-Key it keeps for every attempt. */
  sendReport(entry: OutboxEntry, token: string): Promise<SessionProgressResponse> {
    const params = { id: entry.session_id };
    const headers = { [IDEMPOTENCY_KEY_HEADER]: entry.key };
    return entry.route === 'progress'
      ? this.request(
          routes.reportProgress,
          { params, headers, body: entry.body as ProgressBody },
          token,
        )
      : this.request(
          routes.finishSession,
          { params, headers, body: entry.body as FinishBody },
          token,
        );
  }
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Resolves once one of `waiters` is called (the caller wakes them all) or the signal aborts, and
 * takes both back either way: the headset's lifetime signal outlives thousands of these waits.
 */
export function untilWoken(waiters: Set<() => void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const wake = () => {
      waiters.delete(wake);
      signal.removeEventListener('abort', wake);
      resolve();
    };
    waiters.add(wake);
    signal.addEventListener('abort', wake, { once: true });
  });
}

export const errorMessage = (error: unknown) => {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
};
