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

/**
 * Leases up to `limit` due deliveries of enabled integrations, one process each: one statement
 * (its own transaction), so on PGlite's one connection a claim takes one turn, not three.
 */
export async function claimDue(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'config'>,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const now = ctx.clock.now();
  const until = leaseUntil(now, ctx.config);
  const { rows } = await sql<ClaimedDelivery>`
    WITH due AS (
      SELECT d.id, d.next_attempt_at FROM deliveries d
      JOIN integrations i ON i.id = d.integration_id
      WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND i.enabled
      ORDER BY d.next_attempt_at
      LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED
    ), leased AS (
      UPDATE deliveries SET next_attempt_at = ${until}
      FROM due WHERE deliveries.id = due.id
      RETURNING deliveries.*, due.next_attempt_at AS due_at
    )
    SELECT leased.id, leased.event_id, leased.event_type, leased.attempts,
      e.payload, e.created_at AS event_created_at,
      i.id AS integration_id, i.organization_id, i.kind, i.url, i.secret, i.previous_secret,
      i.previous_secret_expires_at, i.xapi_key, i.xapi_secret, i.include_names, i.failing_since
    FROM leased
    JOIN outbox_events e ON e.id = leased.event_id
    JOIN integrations i ON i.id = leased.integration_id
    ORDER BY leased.due_at`.execute(ctx.db);
  return rows.map((row) => ({
    ...row,
    payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
  }));
}

/**
 * Records sent attempts: the delivered ones together (recordDelivered), each other one by itself
 * (recordAttempt: retries, disabling).
 */
export async function recordAttempts(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  attempts: readonly Attempt[],
  random: () => number = Math.random,
): Promise<void> {
  const delivered = attempts.filter(({ delivery, answer }) => accepted(delivery.kind, answer));
  if (delivered.length > 0) await recordDelivered(ctx, delivered);
  for (const { delivery, answer } of attempts) {
    if (!accepted(delivery.kind, answer)) await recordAttempt(ctx, delivery, answer, random);
  }
}

/**
 * Marks accepted attempts delivered and clears their integrations' failing_since: one transaction
 * of two statements, however many they are. The integrations are locked first, in one order, as in
 * every transaction that changes an integration and its deliveries (see recordAttempt).
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
        FROM answered a WHERE d.id = a.id
        RETURNING d.integration_id
      )
      UPDATE integrations SET failing_since = NULL
      WHERE id IN (SELECT integration_id FROM delivered) AND failing_since IS NOT NULL`.execute(
      trx,
    );
  });
}

/** Writes an attempt's outcome; disables the integration on 410 or after three days failing. */
export async function recordAttempt(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  delivery: Pick<
    ClaimedDelivery,
    'id' | 'attempts' | 'integration_id' | 'organization_id' | 'kind' | 'url' | 'failing_since'
  >,
  answer: OutboundAnswer,
  random: () => number = Math.random,
): Promise<void> {
  const now = ctx.clock.now();
  const attempts = delivery.attempts + 1;
  const logged = {
    attempts,
    last_attempt_at: now,
    last_status_code: answer.statusCode,
    last_duration_ms: answer.durationMs,
    last_response: answer.body,
    last_error: answer.error,
  };
  await ctx.db.transaction().execute(async (trx) => {
    // The integration first, in every transaction that changes it and its deliveries (here, the
    // routes, disabling): attempts of one integration recorded at once take turns, never deadlock.
    // NO KEY UPDATE: a change committing an event meanwhile (its deliveries' foreign key takes KEY
    // SHARE on the integration) neither waits for this nor makes it wait.
    const integration = await trx
      .selectFrom('integrations')
      .select(['failing_since', 'enabled'])
      .where('id', '=', delivery.integration_id)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!integration) return; // deleted meanwhile, with its deliveries
    if (accepted(delivery.kind, answer)) {
      await trx
        .updateTable('deliveries')
        .set({ ...logged, status: 'delivered', delivered_at: now, next_attempt_at: null })
        .where('id', '=', delivery.id)
        .execute();
      await trx
        .updateTable('integrations')
        .set({ failing_since: null })
        .where('id', '=', delivery.integration_id)
        .where('failing_since', 'is not', null)
        .execute();
      return;
    }
    const failingSince = integration.failing_since ?? now;
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
    const delay = retryDelayMs(attempts, answer.retryAfter, now, random);
    await trx
      .updateTable('deliveries')
      .set(
        delay === undefined
          ? { ...logged, status: 'failed', next_attempt_at: null }
          : { ...logged, next_attempt_at: new Date(now.getTime() + delay) },
      )
      .where('id', '=', delivery.id)
      .execute();
    await trx
      .updateTable('integrations')
      .set({ failing_since: failingSince })
      .where('id', '=', delivery.integration_id)
      .where('failing_since', 'is', null)
      .execute();
  });
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
