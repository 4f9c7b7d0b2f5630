import {
  FAILING_DISABLE_AFTER_DAYS,
  RETRY_SCHEDULE_SECONDS,
  type IntegrationDisabledReason,
  type SessionFinishedData,
  type WebhookPayload,
} from '@vrtc/contract';
import { sql } from 'kysely';
import { SYSTEM, recordAudit } from '../audit/audit.ts';
import { OUTBOX_CHANNEL } from '../outbox/outbox.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import type { NotificationListener } from '../platform/database/pg-listener.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { OutboundPolicy, send, type OutboundAnswer, type OutboundRequest } from './outbound.ts';
import { signatureHeader } from './signing.ts';
import { XAPI_VERSION, sessionStatements } from './xapi.ts';

/**
 * The dispatcher (decision 026): runs in every server process and delivers what the outbox holds.
 * It claims due deliveries with FOR UPDATE SKIP LOCKED and leases them (next_attempt_at moves past
 * the send's timeout) in a short transaction, sends outside any transaction, then records the
 * attempt: so each delivery is sent by one process at a time, a process that dies mid-send leaves
 * its lease to expire and another sends again, with the same webhook-id (statement ids for xAPI).
 *
 * It is woken by the outbox's NOTIFY at commit (every process hears it) and otherwise looks every
 * DELIVERY_POLL_MS. Time comes from the service's clock (decision 017), so tests move it by hand
 * and call runOnce() instead of waiting.
 */

const DAY_MS = 24 * 3600 * 1000;
/** Deliveries claimed per transaction. */
const CLAIM_BATCH = 50;
/** Sends in flight at once per process. */
const CONCURRENCY = 16;
/**
 * The lease a claim takes, in send timeouts: the send ends by its timeout, then the attempt is
 * recorded well within the rest. A process that dies mid-send holds its claims this long, so it
 * follows DELIVERY_TIMEOUT_MS (75 s at the default 15 s) rather than adding a fixed wait to it.
 */
const LEASE_TIMEOUTS = 5;

/** Until when a claim made at `now` holds its deliveries. */
export const leaseUntil = (
  now: Date,
  config: Pick<ServiceContext['config'], 'deliveryTimeoutMs'>,
) => new Date(now.getTime() + LEASE_TIMEOUTS * config.deliveryTimeoutMs);

/** A Retry-After further than this is taken as this. */
const RETRY_AFTER_MAX_MS = DAY_MS;

export interface ClaimedDelivery {
  id: string;
  event_id: string;
  event_type: string;
  attempts: number;
  payload: unknown;
  event_created_at: Date;
  integration_id: string;
  organization_id: string;
  kind: 'webhook' | 'xapi';
  url: string;
  secret: string | null;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  xapi_key: string | null;
  xapi_secret: string | null;
  include_names: boolean;
  failing_since: Date | null;
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

/** A webhook's body as this integration gets it: the trainee's name only when asked for. */
export function payloadFor(payload: unknown, includeNames: boolean): WebhookPayload {
  const event = payload as WebhookPayload;
  if (includeNames) return event;
  if (event.type === 'session.started' || event.type === 'session.finished') {
    const data = { ...event.data, vr_user: { ...event.data.vr_user, name: null } };
    return { ...event, data } as WebhookPayload;
  }
  return event;
}

/** The request one delivery makes, signed (webhook) or authorised (xAPI). */
export function requestFor(
  delivery: Omit<ClaimedDelivery, 'attempts' | 'failing_since'>,
  ctx: Pick<ServiceContext, 'clock' | 'config'>,
  signal?: AbortSignal,
): OutboundRequest {
  const now = ctx.clock.now();
  const payload = payloadFor(delivery.payload, delivery.include_names);
  if (delivery.kind === 'xapi') {
    const statements = sessionStatements(payload.data as SessionFinishedData, {
      homePage: homePageOf(ctx.config),
      includeNames: delivery.include_names,
    });
    return {
      method: 'POST',
      url: `${delivery.url.replace(/\/+$/, '')}/statements`,
      headers: {
        'content-type': 'application/json',
        'x-experience-api-version': XAPI_VERSION,
        authorization: basicAuth(delivery.xapi_key ?? '', delivery.xapi_secret ?? ''),
      },
      body: JSON.stringify(statements),
      timeoutMs: ctx.config.deliveryTimeoutMs,
      signal,
    };
  }
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  const secrets = [delivery.secret ?? ''];
  if (
    delivery.previous_secret &&
    delivery.previous_secret_expires_at &&
    delivery.previous_secret_expires_at > now
  ) {
    secrets.push(delivery.previous_secret);
  }
  return {
    method: 'POST',
    url: delivery.url,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'vrtc-webhooks/1',
      'webhook-id': delivery.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, delivery.event_id, timestamp, body),
    },
    body,
    timeoutMs: ctx.config.deliveryTimeoutMs,
    signal,
  };
}

export const basicAuth = (key: string, secret: string) =>
  `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

/** The actor's homePage and the activities' base: PUBLIC_URL, else the local address. */
export const homePageOf = (config: ServiceContext['config']) =>
  config.publicUrl ?? `http://${config.host}:${config.port}`;

/** Did the receiver take it? 2xx; for xAPI also 409 (the store already has these ids). */
export const accepted = (kind: 'webhook' | 'xapi', answer: OutboundAnswer) =>
  answer.statusCode !== null &&
  ((answer.statusCode >= 200 && answer.statusCode < 300) ||
    (kind === 'xapi' && answer.statusCode === 409));

export class Dispatcher {
  private stopped = false;
  private running: Promise<void> | undefined;
  private wakeSleeper: (() => void) | undefined;
  private woken = false;
  private readonly inFlight = new Set<AbortController>();
  readonly policy: OutboundPolicy;

  constructor(
    private readonly ctx: ServiceContext,
    notifications?: NotificationListener,
    private readonly random: () => number = Math.random,
  ) {
    this.policy = new OutboundPolicy(ctx.config.outboundAllowPrivate);
    notifications?.on(OUTBOX_CHANNEL, () => this.wake());
  }

  /** Runs until stop(): each wake or poll delivers everything due. */
  start(): void {
    this.running ??= this.loop();
  }

  /** Something was committed to the outbox: look now. */
  wake(): void {
    this.woken = true;
    this.wakeSleeper?.();
  }

  /** Stops looking, aborts sends in flight (their deliveries are due again at once). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeSleeper?.();
    for (const controller of this.inFlight) controller.abort();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      try {
        while (!this.stopped && (await this.runOnce()) > 0);
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'delivering integration events failed; retrying');
      }
      if (this.stopped || this.woken) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.ctx.config.deliveryPollMs);
        timer.unref();
        this.wakeSleeper = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeSleeper = undefined;
    }
  }

  /** Claims what is due now and delivers it; answers how many it claimed. */
  async runOnce(): Promise<number> {
    const claimed = await claimDue(this.ctx, CLAIM_BATCH);
    const queue = [...claimed];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          await this.deliver(next);
        } catch (error) {
          // Its lease runs out and it is sent again; the others go on.
          this.ctx.log.warn({ err: error, delivery: next.id }, 'recording a delivery failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
    return claimed.length;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      const answer = await send(this.policy, requestFor(delivery, this.ctx, controller.signal));
      if (answer.aborted) {
        await this.ctx.db
          .updateTable('deliveries')
          .set({ next_attempt_at: this.ctx.clock.now() })
          .where('id', '=', delivery.id)
          .where('status', '=', 'pending')
          .execute();
        return;
      }
      await recordAttempt(this.ctx, delivery, answer, this.random);
      // One line per attempt, as a request has (never the URL: its query may hold a token).
      this.ctx.log.info(
        {
          delivery_id: delivery.id,
          event_id: delivery.event_id,
          integration_id: delivery.integration_id,
          attempt: delivery.attempts + 1,
          status: answer.statusCode,
          ms: answer.durationMs,
          ...(answer.error ? { error: answer.error } : {}),
        },
        'delivery',
      );
    } finally {
      this.inFlight.delete(controller);
    }
  }
}

/** Leases up to `limit` due deliveries of enabled integrations, one process each. */
export async function claimDue(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'config'>,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const now = ctx.clock.now();
  const until = leaseUntil(now, ctx.config);
  return ctx.db.transaction().execute(async (trx) => {
    const { rows } = await sql<ClaimedDelivery>`
      WITH due AS (
        SELECT d.id FROM deliveries d
        JOIN integrations i ON i.id = d.integration_id
        WHERE d.status = 'pending' AND d.next_attempt_at <= ${now} AND i.enabled
        ORDER BY d.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED
      ), leased AS (
        UPDATE deliveries SET next_attempt_at = ${until}
        FROM due WHERE deliveries.id = due.id
        RETURNING deliveries.*
      )
      SELECT leased.id, leased.event_id, leased.event_type, leased.attempts,
        e.payload, e.created_at AS event_created_at,
        i.id AS integration_id, i.organization_id, i.kind, i.url, i.secret, i.previous_secret,
        i.previous_secret_expires_at, i.xapi_key, i.xapi_secret, i.include_names, i.failing_since
      FROM leased
      JOIN outbox_events e ON e.id = leased.event_id
      JOIN integrations i ON i.id = leased.integration_id`.execute(trx);
    return rows.map((row) => ({
      ...row,
      payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
    }));
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
