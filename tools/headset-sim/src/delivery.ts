import crypto from 'node:crypto';
import type { FinishBody, ProgressBody } from '@vrtc/contract';
import type { EventDetails } from './events.ts';
import { Outbox, type OutboxEntry, type ReportRoute } from './outbox.ts';
import { isRetryableStatus, retryDelayMs, type RetryPolicy } from './retry.ts';
import { errorMessage, ServerError, sleep, untilWoken } from './transport.ts';

/** What the delivery loop needs of its headset. */
export interface DeliveryHost {
  retry: RetryPolicy;
  /** False once the headset stops. */
  running: () => boolean;
  /** Resolves once the network is back (or the headset stops). */
  online: (signal: AbortSignal) => Promise<void>;
  /** Sends one report with its Idempotency-Key. */
  send: (entry: OutboxEntry) => Promise<unknown>;
  emit: (details: EventDetails) => void;
  /** A network error: the server may have stopped hearing the headset. */
  lostContact: () => void;
  /** A report refused for good, after it was taken out of the outbox. */
  onRefused: (entry: OutboxEntry, error: ServerError) => void;
}

/**
 * The headset's reports on their way: each goes into the outbox first (on disk before `queue`
 * returns, with its key made once) and the loop sends them from there.
 */
export class ReportDelivery {
  outbox = Outbox.open();
  private readonly queuedWaiters = new Set<() => void>();

  /** Puts a report in the outbox (on disk before this returns) with its key made once. */
  queue(sessionId: string, route: ReportRoute, body: ProgressBody | FinishBody): void {
    this.outbox.add({ key: crypto.randomUUID(), route, session_id: sessionId, body });
    for (const wake of this.queuedWaiters) wake();
  }

  private async nextReport(signal: AbortSignal): Promise<OutboxEntry> {
    for (;;) {
      const entry = this.outbox.first();
      if (entry) return entry;
      await untilWoken(this.queuedWaiters, signal);
      if (signal.aborted) throw signal.reason;
    }
  }

  /**
   * Sends the outbox, oldest report first, each with its Idempotency-Key, one at a time so they
   * arrive in the order they were made. A network error, 408, 429 or 5xx keeps the report at the
   * head and tries it again after a backoff with jitter (or the server's Retry-After); any other
   * answer takes it out: delivered, or refused for good (dropped, and told as an event).
   */
  async run(host: DeliveryHost, signal: AbortSignal): Promise<void> {
    let failures = 0;
    while (host.running()) {
      let entry: OutboxEntry;
      try {
        entry = await this.nextReport(signal);
        await host.online(signal);
      } catch {
        return;
      }
      try {
        await host.send(entry);
        failures = 0;
        this.delivered(host, entry);
        continue;
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof ServerError && !isRetryableStatus(error.status)) {
          failures = 0;
          this.dropped(host, entry, error);
          continue;
        }
        if (!(error instanceof ServerError)) host.lostContact();
        failures += 1;
        const delay = retryDelayMs(
          failures,
          host.retry,
          Math.random,
          error instanceof ServerError ? error.retryAfterMs : undefined,
        );
        host.emit({
          type: 'error',
          message: `${entry.route} report failed: ${errorMessage(error)}; retrying in ${delay} ms`,
        });
        try {
          await sleep(delay, signal);
        } catch {
          return;
        }
      }
    }
  }

  private delivered(host: DeliveryHost, entry: OutboxEntry): void {
    this.outbox.remove(entry.key);
    host.emit({
      type: 'report_delivered',
      route: entry.route,
      sessionId: entry.session_id,
      key: entry.key,
      pendingReports: this.outbox.size,
    });
  }

  private dropped(host: DeliveryHost, entry: OutboxEntry, error: ServerError): void {
    this.outbox.remove(entry.key);
    host.emit({
      type: 'report_dropped',
      route: entry.route,
      sessionId: entry.session_id,
      key: entry.key,
      status: error.status,
      code: error.code,
      message: error.message,
    });
    host.onRefused(entry, error);
  }
}
