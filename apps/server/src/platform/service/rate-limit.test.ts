import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/harness.ts';
import type { DatabaseHandle } from '../database/db.ts';
import { countAttempt, refundAttempt, type Limit } from './rate-limit.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('attempt counters', () => {
  it('count and refund the same keys at once without a deadlock', async () => {
    // A sign-in counts its account and address in one statement and, its password right, refunds
    // both: four sign-ins of one account at once once met as a deadlock on PostgreSQL (a 500).
    const { db } = database;
    const now = new Date();
    const limits: Limit[] = ['rl-address', 'rl-account'].map((key) => ({
      key,
      max: 1_000,
      windowMs: 60_000,
    }));
    // Stored in the order opposite to the one the counting locks them in, as a table scan meets them.
    for (const limit of limits) await countAttempt(db, now, [limit]);
    const keys = limits.map((limit) => limit.key);
    for (let round = 0; round < 200; round++) {
      await Promise.all(
        Array.from({ length: 4 }, () => [
          countAttempt(db, now, limits),
          refundAttempt(db, now, keys),
        ]).flat(),
      );
    }
    // Every statement went through (a deadlock rejects one), and a refund never counts below 0.
    const counts = await countAttempt(db, now, limits);
    for (const count of counts) expect(count.hits).toBeGreaterThanOrEqual(1);
  });
});
