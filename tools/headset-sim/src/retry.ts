/**
 * When a headset sends a report again (docs/headset-protocol.md, "Retries"): after a network
 * error, 408, 429 or a 5xx; any other 4xx is the server's final word on that report.
 */

export interface RetryPolicy {
  /** The first retry waits up to this long; each further one up to twice the one before. */
  baseMs: number;
  /** No wait is longer than this, unless the server's Retry-After asks for longer. */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseMs: 1000, maxMs: 60_000 };

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date; undefined if absent. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * How long to wait before attempt `attempt + 1` (attempt counts the failures so far, from 1):
 * what the server's Retry-After asks for when it says, else exponential backoff with full jitter
 * (a random wait between 0 and the capped exponential), so a fleet that lost the same Wi-Fi does
 * not come back in one burst.
 */
export function retryDelayMs(
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  retryAfterMs?: number,
): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(random() * ceiling);
}
