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
 * the send's timeout) in one statement, sends outside any transaction, then records the attempt
 * (the delivered ones of a moment together): so each delivery is sent by one process at a time, a
 * process that dies mid-send leaves its lease to expire and another sends again, with the same
 * webhook-id (statement ids for xAPI).
 *
 * It is woken by the outbox's NOTIFY at commit (every process hears it) and otherwise looks every
 * DELIVERY_POLL_MS. Time comes from the service's clock (decision 017), so tests move it by hand
 * and call runOnce() instead of waiting.
 */

const DAY_MS = 24 * 3600 * 1000;
/** Deliveries one process holds at once: claimed, and not yet recorded or released. */
const CLAIM_BATCH = 50;
/** Sends in flight at once per process. */
const CONCURRENCY = 16;
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
 * Running (start()), how long answers gather before they are written (unless a batch's worth is
 * in): a write per answer would cost PGlite's one connection four turns per delivery.
 */
const RECORD_GATHER_MS = 200;
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

/** A sent delivery and what its receiver answered, waiting to be recorded. */
interface Attempt {
  delivery: ClaimedDelivery;
  answer: OutboundAnswer;
  recorded(): void;
}

export class Dispatcher {
  private stopped = false;
  private running: Promise<void> | undefined;
  private wakeSleeper: (() => void) | undefined;
  private woken = false;
  /** Claimed by this process and not yet recorded (or released). */
  private held = 0;
  /** The loop stopped claiming because CLAIM_BATCH were held: wake it when a wave's room is free. */
  private full = false;
  private readonly handling = new Set<Promise<void>>();
  private readonly inFlight = new Set<AbortController>();
  /** Sends waiting for one of the CONCURRENCY slots, oldest claim first. */
  private readonly waitingForSlot: Array<(slot: boolean) => void> = [];
  private sending = 0;
  /** Answers waiting to be written, and the write under way (one at a time, each takes them all). */
  private unrecorded: Attempt[] = [];
  private recording: Promise<void> | undefined;
  /** 0 until start(): runOnce() (tests) writes its answers at once. */
  private gatherMs = 0;
  private writeNow: (() => void) | undefined;
  readonly policy: OutboundPolicy;

  constructor(
    private readonly ctx: ServiceContext,
    notifications?: NotificationListener,
    private readonly random: () => number = Math.random,
    /**
     * Where claims go (DatabaseHandle.urgentDb): between a commit and its delivery there is only
     * the claim, which should not wait behind the requests of a busy moment.
     */
    private readonly claimDb: Db = ctx.db,
  ) {
    this.policy = new OutboundPolicy(ctx.config.outboundAllowPrivate);
    notifications?.on(OUTBOX_CHANNEL, () => this.wake());
  }

  /** Runs until stop(): each wake or poll claims what is due, while it holds fewer than a batch. */
  start(): void {
    this.gatherMs = RECORD_GATHER_MS;
    this.running ??= this.loop();
  }

  /** Something was committed to the outbox: look now. */
  wake(): void {
    this.woken = true;
    this.wakeSleeper?.();
  }

  /**
   * Stops looking, aborts sends in flight and releases what waits for a slot (their deliveries are
   * due again at once), and waits for the answers already in to be recorded.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wakeSleeper?.();
    for (const controller of this.inFlight) controller.abort();
    for (const next of this.waitingForSlot.splice(0)) next(false);
    this.writeNow?.();
    await this.running;
    await Promise.all(this.handling);
  }

  /**
   * The loop is a pipeline: a claim does not wait for the sends of the one before. Every commit
   * to the outbox wakes it (wakes during a claim are taken by the next claim, so a burst costs few
   * claims), and the claim takes at most what brings the deliveries this process holds to
   * CLAIM_BATCH. That bound keeps every lease safe: at most CLAIM_BATCH / CONCURRENCY waves of
   * sends, each ending by the timeout, stand between a claim and its record.
   */
  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      try {
        while (!this.stopped && this.held < CLAIM_BATCH) {
          const room = CLAIM_BATCH - this.held;
          const claimed = await claimDue({ ...this.ctx, db: this.claimDb }, room);
          void this.handle(claimed);
          if (claimed.length < room) break;
        }
        this.full = this.held >= CLAIM_BATCH;
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'claiming integration deliveries failed; retrying');
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

  /** Claims what is due now and delivers it; answers how many it claimed once all are recorded. */
  async runOnce(): Promise<number> {
    const claimed = await claimDue({ ...this.ctx, db: this.claimDb }, CLAIM_BATCH);
    await this.handle(claimed);
    return claimed.length;
  }

  /** Sends and records each of `claimed`; resolves when every one is recorded or released. */
  private handle(claimed: ClaimedDelivery[]): Promise<void> {
    if (claimed.length === 0) return Promise.resolve();
    this.held += claimed.length;
    const all = Promise.all(
      claimed.map(async (delivery) => {
        try {
          await this.deliver(delivery);
        } catch (error) {
          // Its lease runs out and it is sent again; the others go on.
          this.ctx.log.warn({ err: error, delivery: delivery.id }, 'recording a delivery failed');
        } finally {
          this.held -= 1;
          if (this.full && this.held <= CLAIM_BATCH - CONCURRENCY) {
            this.full = false;
            this.wake();
          }
        }
      }),
    ).then(() => undefined);
    this.handling.add(all);
    void all.finally(() => this.handling.delete(all));
    return all;
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const answer = await this.send(delivery);
    if (!answer || answer.aborted) {
      await this.ctx.db
        .updateTable('deliveries')
        .set({ next_attempt_at: this.ctx.clock.now() })
        .where('id', '=', delivery.id)
        .where('status', '=', 'pending')
        .execute();
      return;
    }
    await new Promise<void>((recorded) => {
      this.unrecorded.push({ delivery, answer, recorded });
      if (this.unrecorded.length >= CLAIM_BATCH) this.writeNow?.();
      this.recordAll();
    });
    // One line per attempt once it is recorded, as a request has (never the URL: its query may
    // hold a token).
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
  }

  /** Sends in one of the CONCURRENCY slots; undefined when stopped before its turn came. */
  private async send(delivery: ClaimedDelivery): Promise<OutboundAnswer | undefined> {
    if (this.stopped) return undefined;
    if (this.sending < CONCURRENCY) this.sending += 1;
    // A send that ends hands its slot over; stop() lets the waiting go without one.
    else if (!(await new Promise<boolean>((resolve) => this.waitingForSlot.push(resolve)))) {
      return undefined;
    }
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      return this.stopped
        ? undefined
        : await send(this.policy, requestFor(delivery, this.ctx, controller.signal));
    } finally {
      this.inFlight.delete(controller);
      const next = this.waitingForSlot.shift();
      if (next) next(true);
      else this.sending -= 1;
    }
  }

  /**
   * Records the answers that came in, all at once (recordAttempts), after gathering them for
   * RECORD_GATHER_MS when running, and again those that came in meanwhile.
   */
  private recordAll(): void {
    if (this.recording) return;
    this.recording = (async () => {
      while (this.unrecorded.length > 0) {
        if (this.gatherMs > 0 && !this.stopped && this.unrecorded.length < CLAIM_BATCH) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, this.gatherMs);
            this.writeNow = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.writeNow = undefined;
        }
        const attempts = this.unrecorded;
        this.unrecorded = [];
        try {
          await recordAttempts(this.ctx, attempts, this.random);
        } catch (error) {
          // Their leases run out and they are sent again.
          this.ctx.log.warn(
            { err: error, deliveries: attempts.map((attempt) => attempt.delivery.id) },
            'recording deliveries failed',
          );
        } finally {
          for (const attempt of attempts) attempt.recorded();
        }
      }
    })().finally(() => {
      this.recording = undefined;
    });
  }
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
  attempts: ReadonlyArray<Pick<Attempt, 'delivery' | 'answer'>>,
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
  attempts: ReadonlyArray<Pick<Attempt, 'delivery' | 'answer'>>,
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
