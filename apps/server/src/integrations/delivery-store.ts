import {
  FAILING_DISABLE_AFTER_DAYS,
  RETRY_SCHEDULE_SECONDS,
  type IntegrationDisabledReason,
} from '@vrtc/contract';
import { sql } from 'kysely';
import { SYSTEM, recordAudit } from '../audit/audit.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { accepted, type Receiver } from './delivery-request.ts';
import type { OutboundAnswer } from './outbound.ts';
import { openSecrets } from './secret-box.ts';

/**
 * The deliveries' store (decision 026): what the dispatcher claims, and how an attempt is
 * recorded (retries, disabling). Only SQL and the retry schedule live here; the loop that sends
 * is dispatcher.ts, the requests delivery-request.ts.
 */

const DAY_MS = 24 * 3600 * 1000;

/**
 * The lease a claim takes, in send timeouts: a claimed delivery waits at most a few waves of sends
 * for its slot (CLAIM_BATCH / CONCURRENCY), ends by its timeout, then is recorded well within the
 * rest. A process that dies mid-send holds its claims this long, so it follows DELIVERY_TIMEOUT_MS
 * (75 s at the default 15 s) rather than adding a fixed wait to it.
 */
const LEASE_TIMEOUTS = 5;

/** Until when a claim made at `now` holds its deliveries. */
export const leaseUntil = (
  now: Date,
  config: Pick<ServiceContext['config'], 'deliveryTimeoutMs'>,
) => new Date(now.getTime() + LEASE_TIMEOUTS * config.deliveryTimeoutMs);

/**
 * The circuit breaker (per integration): from this many attempts in a row ended by the timeout,
 * its receiver is slowed down, for itself alone: nothing of it is claimed for SLOW_BASE_MS
 * (doubling with each further timeout, at most SLOW_MAX_MS), then one delivery at a time.
 */
export const SLOW_AFTER_TIMEOUTS = 3;
const SLOW_BASE_MS = 60_000;
const SLOW_MAX_MS = 3600_000;

/** Until when a receiver whose attempts timed out `timeouts` times in a row is slowed down. */
export function slowedUntil(timeouts: number, now: Date): Date | null {
  if (timeouts < SLOW_AFTER_TIMEOUTS) return null;
  const ms = Math.min(SLOW_BASE_MS * 2 ** (timeouts - SLOW_AFTER_TIMEOUTS), SLOW_MAX_MS);
  return new Date(now.getTime() + ms);
}

/** A Retry-After further than this is taken as this. */
const RETRY_AFTER_MAX_MS = DAY_MS;

export interface ClaimedDelivery extends Receiver {
  id: string;
  event_id: string;
  event_type: string;
  attempts: number;
  payload: unknown;
  event_created_at: Date;
  integration_id: string;
  failing_since: Date | null;
  /** The lease this claim took: the delivery's next_attempt_at while the claim holds. */
  leased_until: Date;
  /** Its integration's attempts ended by the timeout in a row (the circuit breaker's count). */
  consecutive_timeouts: number;
}

/** A sent delivery and what its receiver answered. */
export interface Attempt {
  delivery: ClaimedDelivery;
  answer: OutboundAnswer;
}

/** The delay before the next attempt after `attempts` failed ones; undefined: no more. */
export function retryDelayMs(
  attempts: number,
  retryAfter: string | null,
  now: Date,
  random: () => number = Math.random,
): number | undefined {
  const scheduled = RETRY_SCHEDULE_SECONDS[attempts - 1];
  if (scheduled === undefined) return undefined;
  const jittered = scheduled * 1000 * (0.9 + 0.2 * random());
  return Math.max(jittered, retryAfterMs(retryAfter, now) ?? 0);
}

/** Retry-After as seconds or an HTTP date, in ms from now (capped at a day). */
export function retryAfterMs(value: string | null, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now.getTime();
  if (!Number.isFinite(ms) || ms < 0) return undefined;
  return Math.min(ms, RETRY_AFTER_MAX_MS);
}

/** What a process already holds, so a claim leaves the rest for others (dispatcher.ts). */
export interface ClaimFairness {
  /** Organisations holding all the claims they may: none of theirs is claimed. */
  fullOrganizations: readonly string[];
  /** Integrations not to claim now (their host is full, or a slowed one has a send out). */
  fullIntegrations: readonly string[];
  /** At most this many of one organisation's deliveries in one claim. */
  perOrganization: number;
}

const NO_FAIRNESS: ClaimFairness = {
  fullOrganizations: [],
  fullIntegrations: [],
  perOrganization: 1_000_000,
};

/**
 * Leases up to `limit` due deliveries of enabled integrations, one process each: one statement
 * (its own transaction), so on PGlite's one connection a claim takes one turn, not three. Fair
 * between organisations: at most `perOrganization` of one organisation's, none of those already
 * full; a slowed receiver's (circuit open) none before its slowed_until, then one at a time. The
 * rows looked at but not taken are unlocked when the statement ends. Deliveries due at the same
 * moment go in the order they were written (ctid), as the events of one change were.
 */
export async function claimDue(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'config'>,
  limit: number,
  fairness: ClaimFairness = NO_FAIRNESS,
): Promise<ClaimedDelivery[]> {
  const now = ctx.clock.now();
  const until = leaseUntil(now, ctx.config);
  const { rows } = await sql<ClaimedDelivery>`
    WITH candidates AS (
      SELECT d.id, d.next_attempt_at, i.organization_id, d.integration_id, i.consecutive_timeouts,
        d.ctid AS place
      FROM deliveries d
      JOIN integrations i ON i.id = d.integration_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND i.enabled
        AND (i.slowed_until IS NULL OR i.slowed_until <= ${now})
        AND NOT (i.organization_id = ANY (${[...fairness.fullOrganizations]}::uuid[]))
        AND NOT (i.id = ANY (${[...fairness.fullIntegrations]}::uuid[]))
      ORDER BY d.next_attempt_at, d.ctid
      LIMIT ${limit * 4}
      FOR UPDATE OF d SKIP LOCKED
    ), ranked AS (
      SELECT c.*,
        row_number() OVER (PARTITION BY organization_id ORDER BY next_attempt_at, place) AS in_org,
        row_number() OVER (PARTITION BY integration_id ORDER BY next_attempt_at, place) AS in_one
      FROM candidates c
    ), due AS (
      SELECT id, next_attempt_at, place FROM ranked
      WHERE in_org <= ${fairness.perOrganization}
        AND (consecutive_timeouts < ${SLOW_AFTER_TIMEOUTS} OR in_one = 1)
      ORDER BY next_attempt_at, place
      LIMIT ${limit}
    ), leased AS (
      UPDATE deliveries SET next_attempt_at = ${until}
      FROM due WHERE deliveries.id = due.id
      RETURNING deliveries.*, due.next_attempt_at AS due_at, due.place
    )
    SELECT leased.id, leased.event_id, leased.event_type, leased.attempts,
      leased.next_attempt_at AS leased_until,
      e.payload, e.created_at AS event_created_at,
      i.id AS integration_id, i.organization_id, i.kind, i.url, i.secret, i.previous_secret,
      i.previous_secret_expires_at, i.xapi_key, i.xapi_secret, i.include_names, i.failing_since,
      i.consecutive_timeouts
    FROM leased
    JOIN outbox_events e ON e.id = leased.event_id
    JOIN integrations i ON i.id = leased.integration_id
    ORDER BY leased.due_at, leased.place`.execute(ctx.db);
  return rows.map((row) =>
    openSecrets(ctx.config, {
      ...row,
      payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
    }),
  );
}

type StoreContext = Pick<ServiceContext, 'db' | 'clock' | 'log'>;

/**
 * Records sent attempts: the delivered ones together (recordDelivered), each other one by itself
 * (recordAttempt: retries, disabling). Should the batch fail, each delivered one is recorded on
 * its own, so one attempt that cannot be written leaves every other one recorded (and not sent
 * again); never throws.
 */
export async function recordAttempts(
  ctx: StoreContext,
  attempts: readonly Attempt[],
  random: () => number = Math.random,
): Promise<void> {
  const delivered = attempts.filter(({ delivery, answer }) => accepted(delivery.kind, answer));
  let alone = attempts.filter((attempt) => !delivered.includes(attempt));
  if (delivered.length > 0) {
    try {
      await recordDelivered(ctx, delivered);
    } catch (error) {
      ctx.log.warn({ err: error }, 'recording delivered attempts together failed; one by one');
      alone = [...delivered, ...alone];
    }
  }
  for (const attempt of alone) await recordOnItsOwn(ctx, attempt, random);
}

/**
 * One attempt in its own transaction. Should that fail, the outcome is written again without what
 * the receiver said (the one part a receiver chooses): a 2xx is then still recorded, and the
 * delivery is not sent again.
 */
async function recordOnItsOwn(ctx: StoreContext, attempt: Attempt, random: () => number) {
  const { delivery, answer } = attempt;
  try {
    await recordAttempt(ctx, delivery, answer, random);
    return;
  } catch (error) {
    ctx.log.warn({ err: error, delivery: delivery.id }, 'recording an attempt failed');
  }
  try {
    await recordAttempt(ctx, delivery, { ...answer, body: null }, random);
  } catch (error) {
    // Its lease runs out and it is sent again.
    ctx.log.warn({ err: error, delivery: delivery.id }, 'recording an attempt failed again');
  }
}

/**
 * Marks accepted attempts delivered and clears their integrations' failing_since: one transaction
 * of two statements, however many they are. The integrations are locked first, in one order, as in
 * every transaction that changes an integration and its deliveries (see recordAttempt). A
 * delivery no longer pending (delivered meanwhile, abandoned) is left as it is.
 */
export async function recordDelivered(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  attempts: readonly Attempt[],
): Promise<void> {
  const now = ctx.clock.now();
  const integrationIds = [...new Set(attempts.map(({ delivery }) => delivery.integration_id))];
  await ctx.db.transaction().execute(async (trx) => {
    await sql`
      SELECT id FROM integrations WHERE id = ANY (${integrationIds}::uuid[])
      ORDER BY id FOR NO KEY UPDATE`.execute(trx);
    await sql`
      WITH answered AS (
        SELECT * FROM unnest(
          ${attempts.map(({ delivery }) => delivery.id)}::uuid[],
          ${attempts.map(({ delivery }) => delivery.attempts + 1)}::int[],
          ${attempts.map(({ answer }) => answer.statusCode)}::int[],
          ${attempts.map(({ answer }) => answer.durationMs)}::int[],
          ${attempts.map(({ answer }) => answer.body)}::text[]
        ) AS a (id, attempts, status_code, duration_ms, response)
      ), delivered AS (
        UPDATE deliveries d SET
          status = 'delivered', delivered_at = ${now}, next_attempt_at = NULL,
          attempts = a.attempts, last_attempt_at = ${now}, last_status_code = a.status_code,
          last_duration_ms = a.duration_ms, last_response = a.response, last_error = NULL
        FROM answered a WHERE d.id = a.id AND d.status = 'pending'
        RETURNING d.integration_id
      )
      UPDATE integrations SET failing_since = NULL, consecutive_timeouts = 0, slowed_until = NULL
      WHERE id IN (SELECT integration_id FROM delivered)
        AND (failing_since IS NOT NULL OR consecutive_timeouts > 0)`.execute(trx);
  });
}

type RecordedDelivery = Pick<
  ClaimedDelivery,
  | 'id'
  | 'attempts'
  | 'integration_id'
  | 'organization_id'
  | 'kind'
  | 'url'
  | 'failing_since'
  | 'leased_until'
>;

/**
 * Writes an attempt's outcome; disables the integration on 410 or after three days failing. A
 * 2xx is written while the delivery is pending (whoever holds it now: the receiver has it); any
 * other outcome only while this attempt's claim still holds, so a process whose lease ran out
 * never moves the retry of the one that claimed the delivery after it.
 */
export async function recordAttempt(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  delivery: RecordedDelivery,
  answer: OutboundAnswer,
  random: () => number = Math.random,
): Promise<void> {
  const now = ctx.clock.now();
  const logged = {
    attempts: delivery.attempts + 1,
    last_attempt_at: now,
    last_status_code: answer.statusCode,
    last_duration_ms: answer.durationMs,
    last_response: answer.body,
    last_error: answer.error,
  };
  const ok = accepted(delivery.kind, answer);
  await ctx.db.transaction().execute(async (trx) => {
    // The integration first, in every transaction that changes it and its deliveries (here, the
    // routes, disabling): attempts of one integration recorded at once take turns, never deadlock.
    // NO KEY UPDATE: a change committing an event meanwhile (its deliveries' foreign key takes KEY
    // SHARE on the integration) neither waits for this nor makes it wait.
    const integration = await trx
      .selectFrom('integrations')
      .select(['failing_since', 'enabled', 'consecutive_timeouts'])
      .where('id', '=', delivery.integration_id)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!integration) return; // deleted meanwhile, with its deliveries
    let held = trx
      .selectFrom('deliveries')
      .select('id')
      .where('id', '=', delivery.id)
      .where('status', '=', 'pending');
    if (!ok) held = held.where('next_attempt_at', '=', delivery.leased_until);
    if (!(await held.forUpdate().executeTakeFirst())) return;
    if (ok) {
      await trx
        .updateTable('deliveries')
        .set({ ...logged, status: 'delivered', delivered_at: now, next_attempt_at: null })
        .where('id', '=', delivery.id)
        .execute();
      await trx
        .updateTable('integrations')
        .set({ failing_since: null, consecutive_timeouts: 0, slowed_until: null })
        .where('id', '=', delivery.integration_id)
        .execute();
      return;
    }
    const failingSince = integration.failing_since ?? now;
    const timeouts = answer.error === 'timeout' ? integration.consecutive_timeouts + 1 : 0;
    await trx
      .updateTable('integrations')
      .set({
        failing_since: failingSince,
        consecutive_timeouts: timeouts,
        slowed_until: slowedUntil(timeouts, now),
      })
      .where('id', '=', delivery.integration_id)
      .execute();
    await recordFailure(trx, delivery, answer, { logged, failingSince, now, random });
  });
}

/** A failed attempt: retried on the schedule, failed at its end, or the integration disabled. */
async function recordFailure(
  trx: Tx,
  delivery: RecordedDelivery,
  answer: OutboundAnswer,
  at: { logged: object; failingSince: Date; now: Date; random: () => number },
): Promise<void> {
  const { logged, failingSince, now } = at;
  const gone = delivery.kind === 'webhook' && answer.statusCode === 410;
  const failingTooLong =
    now.getTime() - failingSince.getTime() >= FAILING_DISABLE_AFTER_DAYS * DAY_MS;
  if (gone || failingTooLong) {
    await trx
      .updateTable('deliveries')
      .set({ ...logged, status: 'failed', next_attempt_at: null })
      .where('id', '=', delivery.id)
      .execute();
    await disableIntegration(trx, delivery, gone ? 'gone' : 'failing', now);
    return;
  }
  const delay = retryDelayMs(delivery.attempts + 1, answer.retryAfter, now, at.random);
  await trx
    .updateTable('deliveries')
    .set(
      delay === undefined
        ? { ...logged, status: 'failed', next_attempt_at: null }
        : { ...logged, next_attempt_at: new Date(now.getTime() + delay) },
    )
    .where('id', '=', delivery.id)
    .execute();
}

/**
 * Stops an integration: its reason kept for the console, its pending deliveries abandoned, and an
 * audit event (by the server itself, or by the account that disabled it).
 */
export async function disableIntegration(
  trx: Tx,
  integration: { integration_id: string; organization_id: string; url: string },
  reason: IntegrationDisabledReason,
  now: Date,
  by: Parameters<typeof recordAudit>[1]['by'] = SYSTEM,
): Promise<void> {
  const disabled = await trx
    .updateTable('integrations')
    .set({ enabled: false, disabled_reason: reason, disabled_at: now, updated_at: now })
    .where('id', '=', integration.integration_id)
    .where('enabled', '=', true)
    .returning('id')
    .executeTakeFirst();
  if (!disabled) return;
  await abandonPending(trx, integration.integration_id);
  if (reason === 'by_user') return; // the update that disabled it is audited by its route
  await recordAudit(trx, {
    by,
    at: now,
    action: 'integration.disabled',
    organizationId: integration.organization_id,
    target: { type: 'integration', id: integration.integration_id, label: integration.url },
    changes: { enabled: [true, false], disabled_reason: [null, reason] },
  });
}

export async function abandonPending(db: Db | Tx, integrationId: string): Promise<void> {
  await db
    .updateTable('deliveries')
    .set({ status: 'abandoned', next_attempt_at: null })
    .where('integration_id', '=', integrationId)
    .where('status', '=', 'pending')
    .execute();
}
