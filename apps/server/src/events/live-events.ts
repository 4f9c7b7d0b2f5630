import type { LiveEvent } from '@vrtc/contract';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../platform/database/db.ts';
import type { NotificationListener } from '../platform/database/pg-listener.ts';

/** PostgreSQL channel of the console's live events; the payload is the event as JSON. */
export const LIVE_CHANNEL = 'vrtc_live';

export type LiveListener = (event: LiveEvent) => void;

/** Publishes an event to every open live stream of every process. */
export interface LivePublisher {
  publish(event: LiveEvent): void;
}

/** What a service that tells the live streams of its changes is handed beside the ServiceContext. */
export interface WithLive {
  live: LivePublisher;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The console's live events of this process (tests publish and listen through it). */
    live: LiveEvents;
  }
}

/**
 * What happens on headsets and in the console, told to every open live stream of every server
 * process. On the embedded database there is one process: an event goes straight to this
 * process's listeners. On PostgreSQL it goes through NOTIFY on LIVE_CHANNEL, which every process
 * LISTENs to (this one included, so each event reaches each listener once, whichever process
 * published it).
 *
 * Publishing costs nothing when no stream is open anywhere but a NOTIFY; a heartbeat that
 * changes nothing publishes nothing (callers publish on a change only). Events are published after
 * the change they tell of is committed, so a console that reads on an event reads the change.
 */
export class LiveEvents implements LivePublisher {
  private readonly listeners = new Set<LiveListener>();
  /** Events published during this turn of the event loop, sent in one statement at its end. */
  private pending: string[] = [];

  /**
   * `listener`: the process's PostgreSQL notifications (PgListener), which also hears the
   * notifications this process sends. Without it (PGlite: one process) events stay in-process.
   */
  constructor(
    private readonly db: Db,
    private readonly options: { listener?: NotificationListener; log: FastifyBaseLogger },
  ) {
    options.listener?.on(LIVE_CHANNEL, (payload) => {
      try {
        this.deliver(JSON.parse(payload) as LiveEvent);
      } catch (error) {
        this.options.log.warn({ err: error }, 'ignored a malformed live event');
      }
    });
  }

  /** Open streams on this process. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: LiveEvent): void {
    if (!this.options.listener) {
      this.deliver(event);
      return;
    }
    this.pending.push(JSON.stringify(event));
    if (this.pending.length === 1) setImmediate(() => this.sendPending());
  }

  /**
   * One NOTIFY statement for everything published in one turn: the sweeper telling of a thousand
   * headsets gone offline takes one pooled connection, not a thousand queued statements that
   * would hold back the requests behind them, and the events arrive in the order published
   * (separate statements on separate connections could overtake one another).
   */
  private sendPending(): void {
    const payloads = this.pending;
    this.pending = [];
    sql`SELECT pg_notify(${LIVE_CHANNEL}, payload) FROM unnest(${payloads}::text[]) WITH ORDINALITY AS p(payload, n) ORDER BY n`
      .execute(this.db)
      .catch((error: unknown) => {
        // A live stream missing an event refetches on its next one, or polls: not worth failing
        // the request that made the change.
        this.options.log.warn(
          { err: error, events: payloads.length },
          'could not publish live events',
        );
      });
  }

  close(): void {
    this.listeners.clear();
  }

  private deliver(event: LiveEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
