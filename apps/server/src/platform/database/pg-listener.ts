import pg from 'pg';

const RECONNECT_MIN_MS = 100;
/**
 * Capped low: after an outage, notifications (live events, cache invalidations, ended sign-ins)
 * flow again within about a second of the database answering, and a retry a second per process
 * costs the database nothing.
 */
const RECONNECT_MAX_MS = 1000;

export type NotificationHandler = (payload: string) => void;
export type ListeningHandler = (listening: boolean) => void;

/**
 * PostgreSQL notifications on named channels, as the process's subscribers see them: every
 * NOTIFY of any process (this one included), delivered once its transaction commits, in commit
 * order. Subscribers register before start(). A subscriber that caches what a notification
 * would invalidate hears `false` when notifications may be missed (the connection is lost) and
 * `true` once they flow again, after which it must assume it missed some.
 */
export interface NotificationListener {
  on(channel: string, handler: NotificationHandler): void;
  onListening(handler: ListeningHandler): void;
  readonly listening: boolean;
  start(): Promise<void>;
  close(): Promise<void>;
}

interface WarnLog {
  warn(object: object, message: string): void;
}

/** Channel names are fixed identifiers of this product; quoted anyway. */
const listenStatement = (channel: string) => `LISTEN "${channel.replaceAll('"', '""')}"`;

/**
 * The process's one LISTEN connection on PostgreSQL, shared by every channel (live events, device
 * changes, access changes), so notifications of all of them arrive in one commit order.
 *
 * A lost connection (the database restarted, an administrator terminated the backend, the network
 * dropped) is replaced with backoff, and every channel is LISTENed again. Every client it ever
 * made keeps an 'error' listener for the rest of its life: pg may emit 'error' (ECONNRESET) on a
 * client after it was given up, and an 'error' without a listener ends the process.
 */
export class PgListener implements NotificationListener {
  private readonly handlers = new Map<string, NotificationHandler[]>();
  private readonly listeningHandlers: ListeningHandler[] = [];
  private client?: pg.Client;
  private timer?: NodeJS.Timeout;
  private delayMs = RECONNECT_MIN_MS;
  private started = false;
  private closed = false;
  listening = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: WarnLog,
  ) {}

  on(channel: string, handler: NotificationHandler): void {
    if (this.started) throw new Error(`LISTEN ${channel}: subscribe before start()`);
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
  }

  onListening(handler: ListeningHandler): void {
    this.listeningHandlers.push(handler);
  }

  /** Resolves once listening, or after the first attempt failed (it keeps retrying). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    if (this.handlers.size > 0) await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.setListening(false);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, keepAlive: true });
    this.client = client;
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      // Stays subscribed to 'error' (onLost ignores repeats): see the class comment.
      client.removeAllListeners('notification');
      client.removeAllListeners('end');
      client.end().catch(() => {});
      if (this.client === client) this.client = undefined;
      this.setListening(false);
      if (this.closed) return;
      this.log.warn(
        { err: error },
        `database notifications lost; listening again in ${this.delayMs} ms`,
      );
      this.scheduleReconnect();
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.payload === undefined) return;
      for (const handler of this.handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload);
        } catch (error) {
          this.log.warn({ err: error, channel: message.channel }, 'a notification handler failed');
        }
      }
    });
    try {
      await client.connect();
      for (const channel of this.handlers.keys()) await client.query(listenStatement(channel));
    } catch (error) {
      onLost(error);
      return;
    }
    if (lost || this.closed) return;
    this.delayMs = RECONNECT_MIN_MS;
    this.setListening(true);
  }

  private setListening(listening: boolean): void {
    if (this.listening === listening) return;
    this.listening = listening;
    for (const handler of this.listeningHandlers) handler(listening);
  }

  private scheduleReconnect(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.connect(), this.delayMs);
    this.timer.unref();
    this.delayMs = Math.min(RECONNECT_MAX_MS, this.delayMs * 2);
  }
}
