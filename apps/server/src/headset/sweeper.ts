import type { HeadsetContext } from './headset-context.ts';
import { sql } from 'kysely';
import type { Session } from '../platform/database/schema.ts';
import { endActiveSession, recordSessionEnd } from '../sessions/session-end.ts';
import { SYSTEM } from '../audit/audit.ts';
import { publishSession } from '../sessions/session-events.ts';

/** Arbitrary constant shared by every process of this product: "one sweeper at a time". */
export const SWEEPER_LOCK_KEY = 7_310_002;

export interface SweepResult {
  /** False when another process held the sweeper lock: this run did nothing. */
  ran: boolean;
  /** Sessions ended as disconnected (device silent, never seen, or deleted). */
  disconnected: string[];
  /** Sessions ended as timeout (ran longer than SESSION_TIMEOUT_MS). */
  timedOut: string[];
}

/**
 * Ends the active sessions nobody will finish: `disconnected` when the device has been silent
 * for DISCONNECT_AFTER_MS (or was never seen, or was deleted), else `timeout` when the session
 * started more than SESSION_TIMEOUT_MS ago. A silent device wins over a long session: the headset
 * is gone, which is the more useful thing to report.
 *
 * Everything runs in one transaction holding a transaction-scoped advisory lock: a session-level
 * lock on a pooled connection can be lost (or leak) without anyone noticing, an xact lock cannot
 * outlive its transaction. A process that does not get the lock skips the run; another process is
 * already doing the work.
 */
export async function runSweep(
  ctx: HeadsetContext,
  /** When this process heard from a device without having written it yet (last-seen buffer). */
  unwrittenSighting: (deviceId: string) => Date | undefined = () => undefined,
): Promise<SweepResult> {
  const now = ctx.clock.now();
  const silentSince = new Date(now.getTime() - ctx.config.disconnectAfterMs);
  const startedBefore = new Date(now.getTime() - ctx.config.sessionTimeoutMs);
  const endedSessions: Session[] = [];
  const result = await ctx.db.transaction().execute(async (trx): Promise<SweepResult> => {
    const { rows } = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_xact_lock(${SWEEPER_LOCK_KEY}) AS locked`.execute(trx);
    if (!rows[0]?.locked) return { ran: false, disconnected: [], timedOut: [] };

    const due = await trx
      .selectFrom('sessions as s')
      .leftJoin('devices as d', 'd.id', 's.device_id')
      .select([
        's.id',
        's.device_id',
        's.started_at',
        sql<boolean>`(d.id IS NULL OR d.last_seen_at IS NULL OR d.last_seen_at < ${silentSince})`.as(
          'silent',
        ),
      ])
      .where('s.status', '=', 'active')
      .where((eb) =>
        eb.or([
          eb('d.id', 'is', null),
          eb('d.last_seen_at', 'is', null),
          eb('d.last_seen_at', '<', silentSince),
          eb('s.started_at', '<', startedBefore),
        ]),
      )
      .orderBy('s.started_at')
      .execute();

    const result: SweepResult = { ran: true, disconnected: [], timedOut: [] };
    for (const session of due) {
      const heard = session.device_id ? unwrittenSighting(session.device_id) : undefined;
      const silent = session.silent && !(heard && heard >= silentSince);
      if (!silent && session.started_at >= startedBefore) continue; // heard, and not too long
      const status = silent ? 'disconnected' : 'timeout';
      const ended = await endActiveSession(
        ctx.deviceEvents,
        trx,
        { sessionId: session.id },
        { status, now },
      );
      if (!ended) continue; // finished or cancelled meanwhile
      // The server decided this: the system is the actor.
      await recordSessionEnd(
        trx,
        SYSTEM,
        now,
        status === 'disconnected' ? 'session.disconnected' : 'session.timed_out',
        ended,
      );
      endedSessions.push(ended);
      (status === 'disconnected' ? result.disconnected : result.timedOut).push(session.id);
    }
    return result;
  });
  for (const session of endedSessions) publishSession(ctx.live, 'ended', session);
  return result;
}

/**
 * The devices that went offline in (since, now]: last heard OFFLINE_AFTER_MS before some instant
 * of that window. Their status changes with time alone, so no write tells of it: the sweeper asks,
 * and tells the live streams. A window may be asked twice (processes sweep in turns): the streams
 * then hear twice that a device went offline, which costs a refresh, not a wrong status.
 */
export async function devicesGoneOffline(ctx: HeadsetContext, since: Date, now: Date) {
  const offline = ctx.config.offlineAfterMs;
  return ctx.db
    .selectFrom('devices')
    .select(['id', 'organization_id'])
    .where('last_seen_at', '>', new Date(since.getTime() - offline))
    .where('last_seen_at', '<=', new Date(now.getTime() - offline))
    .execute();
}
