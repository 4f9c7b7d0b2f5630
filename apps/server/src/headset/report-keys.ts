import crypto from 'node:crypto';
import type { SessionProgressResponse } from '@vrtc/contract';
import type { Db, Tx } from '../platform/database/db.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import { AppError } from '../platform/service/errors.ts';
import { canonicalJson } from '../platform/service/serialize.ts';

/**
 * A headset's report keys (`Idempotency-Key`, docs/headset-protocol.md), after Stripe's design: the
 * key, scoped to the headset, is stored with a hash of the request and the first answer, in the
 * report's own transaction, so a report either happened with its key or not at all. A retry with
 * the same request gets the stored answer and changes nothing; the key with another request is
 * refused. Two copies racing are settled by the primary key: the one that loses rolls back and
 * answers what the winner stored. Only answers that changed something are stored: a refusal
 * (404, 409) changes nothing and is answered again by the same rules.
 */
export interface ReportKey {
  deviceId: string;
  key: string;
  requestHash: string;
}

/** The key of one report, or undefined when the headset sent none (older headsets). */
export function reportKey(
  deviceId: string,
  key: string | undefined,
  request: { method: string; path: string; body: unknown },
): ReportKey | undefined {
  if (!key) return undefined;
  const requestHash = crypto
    .createHash('sha256')
    .update(`${request.method} ${request.path}\n${canonicalJson(request.body)}`)
    .digest('hex');
  // UUIDs in either case are one key.
  return { deviceId, key: key.toLowerCase(), requestHash };
}

const reused = () =>
  new AppError(
    'idempotency_key_reused',
    'This Idempotency-Key was already used for a different report; make a new key for a new report',
  );

/** The stored answer of this key, if it was used; 422 when it was used for another request. */
export async function storedAnswer(
  db: Db | Tx,
  key: ReportKey,
): Promise<SessionProgressResponse | undefined> {
  const row = await db
    .selectFrom('headset_idempotency_keys')
    .select(['request_hash', 'body'])
    .where('device_id', '=', key.deviceId)
    .where('key', '=', key.key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.request_hash !== key.requestHash) throw reused();
  return row.body as SessionProgressResponse;
}

/** Stores the answer with the report, in its transaction. */
export async function storeAnswer(
  trx: Tx,
  key: ReportKey,
  answer: SessionProgressResponse,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('headset_idempotency_keys')
    .values({
      device_id: key.deviceId,
      key: key.key,
      request_hash: key.requestHash,
      status: 200,
      body: JSON.stringify(answer),
      created_at: now,
    })
    .execute();
}

/**
 * Runs a keyed report: the stored answer when the key was used, else the report, which stores its
 * answer in its transaction. A report that failed because a copy of it won meanwhile (the key's
 * unique violation, or the session changed by the copy) answers what the copy stored.
 */
export async function once(
  db: Db,
  key: ReportKey | undefined,
  report: () => Promise<SessionProgressResponse>,
): Promise<SessionProgressResponse> {
  if (!key) return report();
  const stored = await storedAnswer(db, key);
  if (stored) return stored;
  try {
    return await report();
  } catch (error) {
    // A copy holding the same key won meanwhile (our insert's unique violation, or the session
    // already changed by it): its answer is ours.
    if (error instanceof AppError || isUniqueViolation(error)) {
      const winner = await storedAnswer(db, key);
      if (winner) return winner;
    }
    throw error;
  }
}

/** Forgets keys older than the late-result window (the sweeper's job). */
export async function purgeReportKeys(db: Db, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('headset_idempotency_keys')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
