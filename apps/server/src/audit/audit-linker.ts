import { CompiledQuery } from 'kysely';
import { PREPARED_STATEMENT, type Db } from '../platform/database/db.ts';
import { repeatingJob } from '../platform/ops/job-monitor.ts';
import type { ServiceContext } from '../platform/service/context.ts';

/** The advisory lock vrtc_audit_link takes (migration 0015): one linker at a time. */
export const AUDIT_LINK_LOCK_KEY = 7_310_005;

/** How often each process links the events written while their chain's head was held. */
const LINK_EVERY_MS = 1000;

const LINK_SQL = `SELECT vrtc_audit_link() AS linked ${PREPARED_STATEMENT}`;

/**
 * Links the events that were written while another transaction held their chain's head
 * (vrtc_audit_link, migration 0015; decision 027): each gets the next seq of its chain and a link
 * over the hash before it. Answers how many; 0 when another process is linking at this moment.
 */
export async function linkAudit(db: Db): Promise<number> {
  const { rows } = await db.executeQuery<{ linked: number }>(CompiledQuery.raw(LINK_SQL, []));
  return rows[0]?.linked ?? 0;
}

/** Runs the linker every second in every process (one at a time across them). */
export const startAuditLinker = repeatingJob<ServiceContext>({
  job: 'audit_link',
  everyMs: LINK_EVERY_MS,
  run: (ctx) => linkAudit(ctx.db),
  failureMessage: 'audit linker failed; retrying in a second',
});
