import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, untilWaitingOnLocks } from '../../../test/harness.ts';
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

  // The race above needs two statements to meet mid-way, which a quiet machine rarely gives: here
  // a third transaction holds the key a count locks first until both statements wait on locks.
  it.runIf(inject('dbTemplate').kind === 'postgres')(
    'count and refund one account and address past a held key, both going through (PostgreSQL)',
    async () => {
      const { db } = database;
      const now = new Date();
      const [account, address] = ['rl-held-account', 'rl-held-address'];
      const limits: Limit[] = [address, account].map((key) => ({
        key,
        max: 1_000,
        windowMs: 60_000,
      }));
      // Stored address first: a scan of the table meets them in the order opposite to the count's.
      for (const limit of limits) await countAttempt(db, now, [limit]);
      let counting: Promise<unknown> | undefined;
      let refunding: Promise<unknown> | undefined;
      await db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('rate_limit_counters')
          .select('key')
          .where('key', '=', account)
          .forUpdate()
          .execute();
        counting = countAttempt(db, now, limits);
        await untilWaitingOnLocks(db, 1);
        refunding = refundAttempt(db, now, [address, account]);
        await untilWaitingOnLocks(db, 2);
      });
      // Neither is aborted as a deadlock (a sign-in once answered 500 so).
      await expect(Promise.all([counting, refunding])).resolves.toBeDefined();
      const rows = await db
        .selectFrom('rate_limit_counters')
        .select(['key', 'hits'])
        .where('key', 'in', [account, address])
        .orderBy('key')
        .execute();
      expect(rows).toEqual([
        { key: account, hits: 1 },
        { key: address, hits: 1 },
      ]);
    },
  );
});
