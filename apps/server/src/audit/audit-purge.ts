import { sql } from 'kysely';
import { repeatingJob } from '../platform/ops/job-monitor.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { PLATFORM_CHAIN, SYSTEM, recordAudit } from './audit.ts';
import { checkpointSignature } from './audit-key.ts';
import { linkAudit } from './audit-linker.ts';

/** Arbitrary constant shared by every process of this product: "one purge at a time". */
export const AUDIT_PURGE_LOCK_KEY = 7_310_003;
const DAY_MS = 24 * 3600 * 1000;
/** The first purge, a minute after start: out of the way of start-up. */
const PURGE_FIRST_AFTER_MS = 60_000;

/**
 * Deletes the events older than AUDIT_RETENTION_DAYS (and the linker's links of them), chain by
 * chain, and moves each chain's checkpoint to the last event deleted, so the chain verifies from there. Only a chain's oldest
 * run of events goes (never one out of the middle, whatever its time says), through the one
 * function allowed to delete (vrtc_audit_purge, migration 0023), with the new checkpoint signed
 * under AUDIT_KEY (audit-key.ts); the same transaction records the purge in that chain.
 * Answers how many events went; 0 when another process is purging.
 */
export async function purgeAudit(ctx: ServiceContext): Promise<number> {
  const now = ctx.clock.now();
  const cutoff = new Date(now.getTime() - ctx.config.auditRetentionDays * DAY_MS);
  // What waits for the linker gets its seq first, so the old run is whole.
  await linkAudit(ctx.db);
  const chains = await ctx.db.selectFrom('audit_chain_heads').select('chain').execute();
  let purged = 0;
  for (const { chain } of chains) {
    purged += await ctx.db.transaction().execute(async (trx) => {
      const { rows: lock } = await sql<{ locked: boolean }>`
        SELECT pg_try_advisory_xact_lock(${AUDIT_PURGE_LOCK_KEY}, hashtext(${chain})) AS locked`.execute(
        trx,
      );
      if (!lock[0]?.locked) return 0;
      // The last seq of the chain's old run: just before its first event that is not old. An
      // event's seq is its own, or its link's (the linker's); one still waiting has none yet.
      const { rows } = await sql<{ seq: string; hash: string }>`
        WITH placed AS (
          SELECT e.at, COALESCE(e.seq, l.seq) AS seq, COALESCE(e.hash, l.hash) AS hash
          FROM audit_events e LEFT JOIN audit_links l ON l.event_id = e.id
          WHERE e.chain = ${chain} AND COALESCE(e.seq, l.seq) IS NOT NULL
        ), last AS (
          SELECT COALESCE(
            (SELECT min(seq) - 1 FROM placed WHERE at >= ${cutoff}),
            (SELECT max(seq) FROM placed)
          ) AS seq
        )
        SELECT placed.seq::text AS seq, placed.hash FROM placed JOIN last USING (seq)`.execute(trx);
      const lastEvent = rows[0];
      if (!lastEvent) return 0; // nothing old (the checkpoint is already there)
      const last = Number(lastEvent.seq);
      const checkpoint = await trx
        .selectFrom('audit_checkpoints')
        .select('seq')
        .where('chain', '=', chain)
        .executeTakeFirst();
      // The one way to delete events and move the checkpoint (migration 0023), with the
      // checkpoint signed here under the key the database never sees.
      const signature = checkpointSignature(ctx.config, {
        chain,
        seq: last,
        hash: lastEvent.hash,
        purgedAt: now,
      });
      const { rows: deleted } = await sql<{ count: number }>`
        SELECT vrtc_audit_purge(${chain}, ${last}, ${lastEvent.hash}, ${now}, ${signature})
          AS count`.execute(trx);
      const count = deleted[0]?.count ?? 0;
      await recordAudit(trx, {
        by: SYSTEM,
        at: now,
        action: 'audit.purged',
        organizationId: chain === PLATFORM_CHAIN ? null : chain,
        target: { type: 'audit_log', id: chain, label: `older than ${cutoff.toISOString()}` },
        changes: {
          checkpoint_seq: [checkpoint ? Number(checkpoint.seq) : 0, last],
          events_deleted: [null, count],
        },
      });
      return count;
    });
  }
  return purged;
}

/** Runs the purge once a day (and once soon after start), in every process; one at a time. */
export const startAuditPurge = repeatingJob<ServiceContext>({
  job: 'audit_purge',
  everyMs: DAY_MS,
  firstAfterMs: PURGE_FIRST_AFTER_MS,
  run: async (ctx) => {
    const purged = await purgeAudit(ctx);
    if (purged > 0) ctx.log.info({ purged }, 'audit events past retention deleted');
  },
  failureMessage: 'audit purge failed; retrying tomorrow',
});
