import { sql } from 'kysely';
import type { Db } from './db.ts';
import { AppError } from './errors.ts';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

/**
 * Failed-attempt counting in the database, so every server process sees the same counts.
 * `check` refuses once `max` failures fell within the window; `hit` records one failure.
 */
export async function checkRateLimit(db: Db, now: Date, limits: Limit[]): Promise<void> {
  for (const limit of limits) {
    const since = new Date(now.getTime() - limit.windowMs);
    const { rows } = await sql<{ hits: number; oldest: Date | null }>`
      SELECT count(*)::int AS hits, min(hit_at) AS oldest FROM rate_limit_hits
      WHERE key = ${limit.key} AND hit_at > ${since}`.execute(db);
    const row = rows[0];
    if (row && row.hits >= limit.max) {
      const retryAfterMs = row.oldest
        ? row.oldest.getTime() + limit.windowMs - now.getTime()
        : limit.windowMs;
      const retryAfter = Math.max(1, Math.ceil(retryAfterMs / 1000));
      throw new AppError(
        'rate_limited',
        `Too many attempts. Try again in ${Math.ceil(retryAfter / 60)} minute(s).`,
        { 'retry-after': String(retryAfter) },
      );
    }
  }
}

export async function recordRateLimitHit(db: Db, now: Date, limits: Limit[]): Promise<void> {
  if (limits.length === 0) return;
  await db
    .insertInto('rate_limit_hits')
    .values(limits.map((limit) => ({ key: limit.key, hit_at: now })))
    .execute();
  const longest = Math.max(...limits.map((limit) => limit.windowMs));
  await db
    .deleteFrom('rate_limit_hits')
    .where(
      'key',
      'in',
      limits.map((limit) => limit.key),
    )
    .where('hit_at', '<', new Date(now.getTime() - longest))
    .execute();
}

export async function clearRateLimit(db: Db, keys: string[]): Promise<void> {
  if (keys.length > 0) await db.deleteFrom('rate_limit_hits').where('key', 'in', keys).execute();
}
