import { sql } from 'kysely';
import type { Db } from '../platform/db.ts';

/** What one device told this process since the last flush. */
interface Sighting {
  seen: Date;
  /** As last reported (null when not reported); the flush writes a row only if a value changed. */
  batteryPercent: number | null;
  appVersion: string | null;
}

export interface ReportedState {
  batteryPercent?: number;
  appVersion?: string;
}

export interface FlushResult {
  /** Devices sent to the database in the one UPDATE (0 when nothing was buffered). */
  devices: number;
  /** Rows the UPDATE changed (fewer when a device was deleted or another process was newer). */
  rowsUpdated: number;
}

/**
 * The heartbeat hot path keeps "last seen" in memory and writes it in bulk: one UPDATE per
 * flush, whatever the number of devices. A crash loses at most one flush interval of sightings
 * (LAST_SEEN_FLUSH_MS, far below OFFLINE_AFTER_MS), never sessions or progress, which are written
 * synchronously. Battery and app version ride on the same UPDATE, and only when they changed.
 */
export class LastSeenBuffer {
  private pending = new Map<string, Sighting>();

  constructor(private readonly db: Db) {}

  /** Devices waiting for the next flush. */
  get size(): number {
    return this.pending.size;
  }

  /** Records that the device was heard from at `seen`, with changed battery/app version if any. */
  record(deviceId: string, seen: Date, changed: ReportedState = {}): void {
    const previous = this.pending.get(deviceId);
    this.pending.set(deviceId, {
      seen: previous && previous.seen > seen ? previous.seen : seen,
      batteryPercent: changed.batteryPercent ?? previous?.batteryPercent ?? null,
      appVersion: changed.appVersion ?? previous?.appVersion ?? null,
    });
  }

  /**
   * Writes everything buffered with one statement. On failure the sightings go back into the
   * buffer (unless newer ones arrived meanwhile) and the error is thrown for the caller to log.
   * Last-seen never moves backwards, so processes flushing in any order agree.
   */
  async flush(): Promise<FlushResult> {
    if (this.pending.size === 0) return { devices: 0, rowsUpdated: 0 };
    const batch = this.pending;
    this.pending = new Map();
    const ids: string[] = [];
    const seen: Date[] = [];
    const battery: Array<number | null> = [];
    const appVersion: Array<string | null> = [];
    for (const [id, sighting] of batch) {
      ids.push(id);
      seen.push(sighting.seen);
      battery.push(sighting.batteryPercent);
      appVersion.push(sighting.appVersion);
    }
    try {
      // A sighting older than what another process already wrote moves nothing; battery and
      // app version are taken only from a sighting at least as new as the stored last-seen.
      const result = await sql`
        UPDATE devices d SET
          last_seen_at = greatest(d.last_seen_at, v.seen),
          battery_percent = CASE WHEN d.last_seen_at IS NULL OR d.last_seen_at <= v.seen
            THEN coalesce(v.battery_percent, d.battery_percent) ELSE d.battery_percent END,
          app_version = CASE WHEN d.last_seen_at IS NULL OR d.last_seen_at <= v.seen
            THEN coalesce(v.app_version, d.app_version) ELSE d.app_version END
        FROM (SELECT unnest(${ids}::uuid[]) AS id,
                     unnest(${seen}::timestamptz[]) AS seen,
                     unnest(${battery}::int[]) AS battery_percent,
                     unnest(${appVersion}::text[]) AS app_version) v
        WHERE d.id = v.id
          AND (d.last_seen_at IS NULL OR d.last_seen_at < v.seen
               OR (d.last_seen_at = v.seen
                   AND (coalesce(v.battery_percent, d.battery_percent) IS DISTINCT FROM d.battery_percent
                        OR coalesce(v.app_version, d.app_version) IS DISTINCT FROM d.app_version)))`.execute(
        this.db,
      );
      return { devices: ids.length, rowsUpdated: Number(result.numAffectedRows ?? 0n) };
    } catch (error) {
      for (const [id, sighting] of batch) {
        const newer = this.pending.get(id);
        if (!newer) {
          this.pending.set(id, sighting);
        } else {
          this.pending.set(id, {
            seen: newer.seen,
            batteryPercent: newer.batteryPercent ?? sighting.batteryPercent,
            appVersion: newer.appVersion ?? sighting.appVersion,
          });
        }
      }
      throw error;
    }
  }
}
