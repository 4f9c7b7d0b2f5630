import { sql } from 'kysely';
import type { Db, Tx } from '../platform/database/db.ts';
import type { NotificationListener } from '../platform/database/pg-listener.ts';
import { DeviceCache } from './device-cache.ts';

/** PostgreSQL channel; the payload is a device id, or `*` for every device. */
export const DEVICE_CHANGED_CHANNEL = 'vrtc_device_changed';
const ALL = '*';

declare module 'fastify' {
  interface FastifyInstance {
    /** Device-change invalidation and the device cache behind headset authentication. */
    deviceEvents: DeviceEvents;
  }
}

/**
 * "What a headset call sees of this device may have changed": the device cache of this process
 * forgets it at once, and on PostgreSQL every process (this one included) hears it through
 * NOTIFY, which PostgreSQL delivers when the executor's transaction commits (at once outside
 * one). Call it wherever a heartbeat's answer can change: session start and end, progress, device
 * delete, movement type, organisation (de)activation.
 */
export class DeviceEvents {
  /**
   * `listener`: the process's PostgreSQL notifications (PgListener). Without it (PGlite: one
   * process) invalidation stays in-process.
   */
  constructor(
    readonly cache: DeviceCache,
    private readonly listener?: NotificationListener,
  ) {
    if (!listener) return;
    // Off until listening: a notification missed before then could leave it stale. Whenever the
    // connection is lost it goes off again, and comes back empty once listening again.
    cache.setEnabled(false);
    listener.on(DEVICE_CHANGED_CHANNEL, (payload) => {
      if (!payload || payload === ALL) cache.clear();
      else cache.invalidate(payload);
    });
    listener.onListening((listening) => cache.setEnabled(listening));
  }

  /** One device changed. */
  async changed(executor: Db | Tx, deviceId: string | null | undefined): Promise<void> {
    if (deviceId) await this.changedMany(executor, [deviceId]);
  }

  /** Several devices changed (one statement for all of them). */
  async changedMany(executor: Db | Tx, deviceIds: readonly string[]): Promise<void> {
    if (deviceIds.length === 0) return;
    for (const id of deviceIds) this.cache.invalidate(id);
    if (this.listener) {
      await sql`SELECT pg_notify(${DEVICE_CHANGED_CHANNEL}, id)
                FROM unnest(${[...deviceIds]}::text[]) AS id`.execute(executor);
    }
  }

  /** Every device may have changed (an organisation was deactivated or reactivated). */
  async allChanged(executor: Db | Tx): Promise<void> {
    this.cache.clear();
    if (this.listener) {
      await sql`SELECT pg_notify(${DEVICE_CHANGED_CHANNEL}, ${ALL})`.execute(executor);
    }
  }

  /** True once the cache can be trusted across processes (always, without PostgreSQL). */
  get listening(): boolean {
    return this.listener?.listening ?? true;
  }
}
