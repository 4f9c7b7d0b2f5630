import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import type { Db, Tx } from '../platform/database/db.ts';
import { DeviceCache } from './device-cache.ts';

/** PostgreSQL channel; the payload is a device id, or `*` for every device. */
export const DEVICE_CHANGED_CHANNEL = 'vrtc_device_changed';
const ALL = '*';
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 10_000;

/**
 * "What a headset call sees of this device may have changed": the device cache of this process
 * forgets it at once, and on PostgreSQL every process (this one included) hears it through
 * NOTIFY, which PostgreSQL delivers when the executor's transaction commits (at once outside
 * one). Call it wherever a heartbeat's answer can change: session start and end, progress, device
 * delete, movement type, organisation (de)activation.
 */
export class DeviceEvents {
  private listener?: DeviceChangeListener;

  constructor(
    readonly cache: DeviceCache,
    private readonly options: { databaseUrl?: string; log: FastifyBaseLogger },
  ) {
    // Off until start() listens: a notification missed before then could leave it stale.
    if (options.databaseUrl) cache.setEnabled(false);
  }

  /** One device changed. */
  async changed(executor: Db | Tx, deviceId: string | null | undefined): Promise<void> {
    if (deviceId) await this.changedMany(executor, [deviceId]);
  }

  /** Several devices changed (one statement for all of them). */
  async changedMany(executor: Db | Tx, deviceIds: readonly string[]): Promise<void> {
    if (deviceIds.length === 0) return;
    for (const id of deviceIds) this.cache.invalidate(id);
    if (this.options.databaseUrl) {
      await sql`SELECT pg_notify(${DEVICE_CHANGED_CHANNEL}, id)
                FROM unnest(${[...deviceIds]}::text[]) AS id`.execute(executor);
    }
  }

  /** Every device may have changed (an organisation was deactivated or reactivated). */
  async allChanged(executor: Db | Tx): Promise<void> {
    this.cache.clear();
    if (this.options.databaseUrl) {
      await sql`SELECT pg_notify(${DEVICE_CHANGED_CHANNEL}, ${ALL})`.execute(executor);
    }
  }

  /**
   * On PostgreSQL, starts listening (one dedicated connection); until it listens, and whenever
   * it is down, the cache is off. Without a database URL (PGlite: one process) there is nothing
   * to hear.
   */
  async start(): Promise<void> {
    if (!this.options.databaseUrl || this.listener) return;
    this.listener = new DeviceChangeListener(
      this.options.databaseUrl,
      this.cache,
      this.options.log,
    );
    await this.listener.start();
  }

  /** True once the cache can be trusted across processes (always, without PostgreSQL). */
  get listening(): boolean {
    return !this.options.databaseUrl || (this.listener?.connected ?? false);
  }

  async close(): Promise<void> {
    await this.listener?.close();
  }
}

/**
 * Holds one pg.Client LISTENing on DEVICE_CHANGED_CHANNEL and invalidates the cache on each
 * notification. A lost connection turns the cache off (a notification may be missed meanwhile),
 * reconnects with backoff, and turns it back on, empty, once listening again. Never throws.
 */
class DeviceChangeListener {
  private client?: pg.Client;
  private timer?: NodeJS.Timeout;
  private delayMs = RECONNECT_MIN_MS;
  private closed = false;
  connected = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly cache: DeviceCache,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.databaseUrl, keepAlive: true });
    this.client = client;
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      this.connected = false;
      this.cache.setEnabled(false);
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.closed) return;
      this.log.warn(
        { err: error },
        `device change notifications lost; device cache off, reconnecting in ${this.delayMs} ms`,
      );
      this.scheduleReconnect();
    };
    // Keep an error listener for the client's whole life: an unhandled 'error' would crash.
    client.on('error', onLost);
    client.on('end', () => onLost());
    client.on('notification', (message) => {
      if (message.channel !== DEVICE_CHANGED_CHANNEL) return;
      if (!message.payload || message.payload === ALL) this.cache.clear();
      else this.cache.invalidate(message.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${DEVICE_CHANGED_CHANNEL}`);
    } catch (error) {
      onLost(error);
      return;
    }
    if (lost || this.closed) return;
    this.connected = true;
    this.delayMs = RECONNECT_MIN_MS;
    // Anything cached or read before we listened may have missed a notification.
    this.cache.setEnabled(true);
  }

  private scheduleReconnect() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.connect();
    }, this.delayMs);
    this.timer.unref();
    this.delayMs = Math.min(RECONNECT_MAX_MS, this.delayMs * 2);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.connected = false;
    this.cache.setEnabled(false);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => {});
  }
}
