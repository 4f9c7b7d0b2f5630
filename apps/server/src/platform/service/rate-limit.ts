import { sql } from 'kysely';
import type { Db } from '../database/db.ts';
import { AppError } from './errors.ts';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

/**
 * Attempt counting in the database, so every server process sees the same counts. `takeAttempt`
 * counts an attempt against every limit and reads the counts back in one statement, before the
 * attempt is evaluated: of any burst, however parallel, at most `max` attempts per key get through
 * each window, the rest are refused with 429 and Retry-After. A window opens with the first attempt
 * and lasts `windowMs`.
 *
 * Why not @fastify/rate-limit: it counts requests per process (or needs Redis), and what must be
 * limited here is failures per account across every process, with only PostgreSQL to share.
 */
export async function takeAttempt(db: Db, now: Date, limits: Limit[]): Promise<void> {
  refuseOverLimit(await countAttempt(db, now, limits), now);
}

/** Refuses with 429 and Retry-After when any count is over its limit (`takeAttempt`'s verdict). */
export function refuseOverLimit(counts: AttemptCount[], now: Date): void {
  let retryAfterMs = 0;
  for (const count of counts) {
    if (count.hits > count.limit.max) {
      retryAfterMs = Math.max(retryAfterMs, count.windowEndsAt.getTime() - now.getTime());
    }
  }
  if (retryAfterMs > 0) {
    const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
    throw new AppError(
      'rate_limited',
      `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
      {
        headers: { 'retry-after': String(retryAfter) },
        details: { retry_after_seconds: retryAfter },
      },
    );
  }
}

export interface AttemptCount {
  limit: Limit;
  /** Attempts in the current window, this one included. */
  hits: number;
  windowEndsAt: Date;
}

/**
 * Counts one attempt against each limit and returns the counts, in one statement: the upsert
 * increments and reads back atomically, so every caller of a burst sees a different count.
 */
export async function countAttempt(db: Db, now: Date, limits: Limit[]): Promise<AttemptCount[]> {
  if (limits.length === 0) return [];
  // Sorted, so two statements upserting the same keys lock them in the same order.
  const sorted = [...limits].sort((a, b) => a.key.localeCompare(b.key));
  const keys = sorted.map((limit) => limit.key);
  const windowEnds = sorted.map((limit) => new Date(now.getTime() + limit.windowMs));
  const { rows } = await sql<{ key: string; hits: number; window_ends_at: Date }>`
    INSERT INTO rate_limit_counters AS c (key, hits, window_ends_at)
    SELECT key, 1, window_ends_at
    FROM unnest(${keys}::text[], ${windowEnds}::timestamptz[]) AS v (key, window_ends_at)
    ON CONFLICT (key) DO UPDATE SET
      hits = CASE WHEN c.window_ends_at <= ${now} THEN 1 ELSE c.hits + 1 END,
      window_ends_at = CASE WHEN c.window_ends_at <= ${now}
        THEN excluded.window_ends_at ELSE c.window_ends_at END
    RETURNING key, hits, window_ends_at`.execute(db);
  return rows.map((row) => ({
    limit: sorted.find((limit) => limit.key === row.key)!,
    hits: row.hits,
    windowEndsAt: row.window_ends_at,
  }));
}

/**
 * Takes back an attempt that turned out well (a successful sign-in is not a failure). One key per
 * statement: an UPDATE of several keys locks them in the order it finds their rows, not in the
 * order countAttempt locks them, and on PostgreSQL four sign-ins of one account at once met in a
 * deadlock (one answered 500). Holding one row at a time, a refund cannot close such a cycle.
 */
export async function refundAttempt(db: Db, now: Date, keys: string[]): Promise<void> {
  for (const key of keys) {
    await db
      .updateTable('rate_limit_counters')
      .set((eb) => ({ hits: sql`greatest(${eb.ref('hits')} - 1, 0)` }))
      .where('key', '=', key)
      .where('window_ends_at', '>', now)
      .execute();
  }
}

/** Forgets the counts of these keys (an account that just proved its password). */
export async function clearRateLimit(db: Db, keys: string[]): Promise<void> {
  if (keys.length > 0)
    await db.deleteFrom('rate_limit_counters').where('key', 'in', keys).execute();
}

/** Drops the counters whose window has passed (they would restart at 1 anyway). */
export async function pruneRateLimits(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('rate_limit_counters')
    .where('window_ends_at', '<=', now)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
