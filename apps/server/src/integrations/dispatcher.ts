import { DatabaseLostError, type Db } from '../platform/database/db.ts';
import type { NotificationListener } from '../platform/database/pg-listener.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { OUTBOX_CHANNEL } from '../outbox/outbox.ts';
import { requestFor } from './delivery-request.ts';
import {
  claimDue,
  recordAttempts,
  type ClaimFairness,
  type ClaimedDelivery,
} from './delivery-store.ts';
import { HeldClaims, hostKey, organizationKey } from './held-claims.ts';
import { OutboundPolicy, send, type OutboundAnswer } from './outbound.ts';
import { SendSlots } from './send-slots.ts';

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

/** Deliveries one process holds at once: claimed, and not yet recorded or released. */
const CLAIM_BATCH = 50;
/** Sends in flight at once per process (of one organisation, of one host: config). */
const CONCURRENCY = 16;
/**
 * A claimed delivery waits at most this many send timeouts for its slots, then is released (due
 * again, not an attempt): whatever it waits behind, its lease is never outlived.
 */
const SLOT_WAIT_TIMEOUTS = 2;
/**
 * Running (start()), how long answers gather before they are written (unless a batch's worth is
 * in): a write per answer would cost PGlite's one connection four turns per delivery.
 */
const RECORD_GATHER_MS = 200;

/** A sent delivery and what its receiver answered, waiting to be recorded. */
interface Answered {
  delivery: ClaimedDelivery;
  answer: OutboundAnswer;
  recorded(): void;
}

export class Dispatcher {
  private stopped = false;
  private running: Promise<void> | undefined;
  private wakeSleeper: (() => void) | undefined;
  private woken = false;
  /** Claimed by this process and not yet recorded (or released), by organisation and host. */
  private readonly held: HeldClaims;
  /** The loop stopped claiming because CLAIM_BATCH were held: wake it when a wave's room is free. */
  private full = false;
  private readonly handling = new Set<Promise<void>>();
  private readonly inFlight = new Set<AbortController>();
  /** Send slots: CONCURRENCY in all, and per organisation and per host (config). */
  private readonly slots: SendSlots;
  /** Answers waiting to be written, and the write under way (one at a time, each takes them all). */
  private unrecorded: Answered[] = [];
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
    const perOrganization = ctx.config.deliveryConcurrencyPerOrganization;
    const perHost = ctx.config.deliveryConcurrencyPerHost;
    this.held = new HeldClaims({ organization: 2 * perOrganization, host: 2 * perHost });
    this.slots = new SendSlots((key) =>
      key.startsWith('org:') ? perOrganization : key.startsWith('host:') ? perHost : CONCURRENCY,
    );
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
    this.slots.close();
    this.writeNow?.();
    await this.running;
    await Promise.all(this.handling);
  }

  /**
   * The loop is a pipeline: a claim does not wait for the sends of the one before. Every commit
   * to the outbox wakes it (wakes during a claim are taken by the next claim, so a burst costs few
   * claims), and the claim takes at most what brings the deliveries this process holds to
   * CLAIM_BATCH, and of one organisation or host at most twice its slots (HeldClaims): so the
   * deliveries of one organisation's slow receivers never fill what the process holds. A claim
   * that left some out is followed by another at once. Every lease stays safe: a delivery waits
   * at most SLOT_WAIT_TIMEOUTS for its slots, then ends by the timeout, then is recorded.
   */
  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      try {
        while (!this.stopped && this.held.total < CLAIM_BATCH) {
          const room = CLAIM_BATCH - this.held.total;
          const fairness = this.held.fairness();
          const claimed = await claimDue({ ...this.ctx, db: this.claimDb }, room, fairness);
          void this.handle(claimed);
          if (claimed.length < room && !leavesOutMore(fairness, this.held.fairness())) break;
        }
        this.full = this.held.total >= CLAIM_BATCH;
      } catch (error) {
        // A lost database is reported once, by the process's fatal handler, as the repeating
        // jobs leave it (startRepeatingJob): the process is exiting, nothing is retried.
        if (error instanceof DatabaseLostError) return;
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
    const claimed = await claimDue(
      { ...this.ctx, db: this.claimDb },
      CLAIM_BATCH - this.held.total,
      this.held.fairness(),
    );
    await this.handle(claimed);
    return claimed.length;
  }

  /** Sends and records each of `claimed`; resolves when every one is recorded or released. */
  private handle(claimed: ClaimedDelivery[]): Promise<void> {
    if (claimed.length === 0) return Promise.resolve();
    for (const delivery of claimed) this.held.add(delivery);
    const all = Promise.all(
      claimed.map(async (delivery) => {
        try {
          await this.deliver(delivery);
        } catch (error) {
          // Its lease runs out and it is sent again; the others go on.
          this.ctx.log.warn({ err: error, delivery: delivery.id }, 'recording a delivery failed');
        } finally {
          const freed = this.held.remove(delivery);
          if (this.full && this.held.total <= CLAIM_BATCH - CONCURRENCY) {
            this.full = false;
            this.wake();
          } else if (freed) this.wake();
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
        .where('next_attempt_at', '=', delivery.leased_until)
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

  /**
   * Sends once a slot of the process, of its organisation and of its host is free; undefined when
   * stopped before its turn came, or when none came within SLOT_WAIT_TIMEOUTS (released).
   */
  private async send(delivery: ClaimedDelivery): Promise<OutboundAnswer | undefined> {
    if (this.stopped) return undefined;
    const keys = ['all', organizationKey(delivery), hostKey(delivery)];
    const waitMs = SLOT_WAIT_TIMEOUTS * this.ctx.config.deliveryTimeoutMs;
    if (!(await this.slots.take(keys, waitMs))) return undefined;
    const controller = new AbortController();
    this.inFlight.add(controller);
    try {
      return this.stopped
        ? undefined
        : await send(this.policy, requestFor(delivery, delivery, this.ctx, controller.signal));
    } finally {
      this.inFlight.delete(controller);
      this.slots.give(keys);
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
          // Never throws: what cannot be written is left to its lease, and logged.
          await recordAttempts(this.ctx, attempts, this.random);
        } finally {
          for (const attempt of attempts) attempt.recorded();
        }
      }
    })().finally(() => {
      this.recording = undefined;
    });
  }
}

/** Did a claim make more organisations or integrations full, so that it may have left some out? */
const leavesOutMore = (before: ClaimFairness, after: ClaimFairness) =>
  after.fullOrganizations.length > before.fullOrganizations.length ||
  after.fullIntegrations.length > before.fullIntegrations.length;
