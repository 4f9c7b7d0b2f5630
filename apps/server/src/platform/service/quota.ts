import { sql } from 'kysely';
import type { Tx } from '../database/db.ts';
import { AppError } from './errors.ts';

/** What an organisation may hold at most (QUOTA_* settings; docs in the README). */
export type QuotaResource = 'vr_users' | 'devices' | 'integrations';

const QUOTA_LOCK_SPACE = 7_310_003;

const TABLE_OF = {
  vr_users: 'vr_users',
  devices: 'devices',
  integrations: 'integrations',
} as const;

const WHAT = {
  vr_users: 'VR users',
  devices: 'headsets',
  integrations: 'integrations',
  enrollment_codes: 'enrollment codes',
};

export function quotaExceeded(resource: QuotaResource | 'enrollment_codes', limit: number) {
  const per = resource === 'enrollment_codes' ? ' issued in 24 hours' : '';
  return new AppError(
    'quota_exceeded',
    `This organization has reached its limit of ${limit} ${WHAT[resource]}${per}.`,
    { details: { resource, limit } },
  );
}

/**
 * Refuses (409 quota_exceeded) to add one more row of `resource` to an organisation that holds
 * `limit` already. Call it inside the transaction that inserts: the advisory lock makes concurrent
 * creations in one organisation take turns, so a burst cannot overshoot the limit. The count stops
 * at the limit, so its cost does not grow past it.
 */
export async function checkQuota(
  trx: Tx,
  organizationId: string,
  resource: QuotaResource,
  limit: number,
): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${QUOTA_LOCK_SPACE}, hashtext(${`${resource}:${organizationId}`}))`.execute(
    trx,
  );
  const { rows } = await sql<{ held: number }>`
    SELECT count(*)::int AS held FROM (
      SELECT 1 FROM ${sql.table(TABLE_OF[resource])}
      WHERE organization_id = ${organizationId} LIMIT ${limit}
    ) AS held`.execute(trx);
  if ((rows[0]?.held ?? 0) >= limit) throw quotaExceeded(resource, limit);
}
