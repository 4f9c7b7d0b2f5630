import { sql } from 'kysely';
import type { Db } from '../platform/database/db.ts';

/** What one device told this process since the last flush. */
interface Sighting {
  seen: Date;
  /** As last reported (null when not reported); the flush writes a row only if a value changed. */
  batteryPercent: number | null;
  appVersion: string | null;
  pendingReports: number | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Last-seen times waiting to be written; `app.lastSeen.flush()` writes them now. */
    lastSeen: LastSeenBuffer;
  }
}

export interface ReportedState {
  batteryPercent?: number;
  appVersion?: string;
  /** Reports the headset still holds, unsent (heartbeat's pending_reports). */
  pendingReports?: number;
}

export interface FlushResult {
  /** Devices sent to the database (0 when nothing was buffered). */
  devices: number;
  /** Rows changed (fewer when a device was deleted or another process was newer). */
  rowsUpdated: number;
  /** Devices whose sighting the database refused and that were dropped (logged one by one). */
  dropped: string[];
}

/** Where a dropped sighting is reported (a pino logger in the app). */
export interface LastSeenLog {
  error(details: object, message: string): void;
}

/** A device heard again after it had gone offline (or heard for the first time). */
export interface CameOnline {
  id: string;
  organization_id: string;
}

export interface LastSeenOptions {
  log?: LastSeenLog;
  /**
   * Told after each write of the devices it brought back online: their last-seen had been older
   * than `offlineAfterMs` before the sighting (their status changes from offline to waiting).
   */
  cameOnline?: (devices: CameOnline[]) => void;
  offlineAfterMs?: number;
}

/**
 * The database refused the values themselves (SQLSTATE class 22 "data exception", 23 "integrity
 * constraint violation", 54 "program limit exceeded"), not the connection or the server: the same
 * rows would fail again on every retry, while the other rows of their batch are fine.
 */
function isRefusedData(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|23|54)/.test(code);
}

type Entry = [deviceId: string, sighting: Sighting];

/**
 * The heartbeat hot path keeps "last seen" in memory and writes it in bulk: one UPDATE per
 * flush, whatever the number of devices. A crash loses at most one flush interval of sightings
 * (LAST_SEEN_FLUSH_MS, far below OFFLINE_AFTER_MS), never sessions or progress, which are written
 * synchronously. Battery and app version ride on the same UPDATE, and only when they changed.
 *
 * One device must never hold up the others: when the database refuses a batch for its data, the
 * batch is split in halves until the refused rows stand alone, and those are dropped with one log
 * line each (log k bad rows of n in about k·log2(n) statements). Anything else (the database
 * unreachable) puts the whole batch back for the next tick.
 */
export class LastSeenBuffer {
  private pending = new Map<string, Sighting>();

  private readonly log?: LastSeenLog;

  constructor(
    private readonly db: Db,
    private readonly options: LastSeenOptions = {},
  ) {
    this.log = options.log;
  }

  /** Devices waiting for the next flush. */
  get size(): number {
    return this.pending.size;
  }

  /** When this process last heard from the device, if that is not written yet. */
  pendingSighting(deviceId: string): Date | undefined {
    return this.pending.get(deviceId)?.seen;
  }

  /** Records that the device was heard from at `seen`, with what it reported (battery, app version, backlog). */
  record(deviceId: string, seen: Date, changed: ReportedState = {}): void {
    const previous = this.pending.get(deviceId);
    this.pending.set(deviceId, {
      seen: previous && previous.seen > seen ? previous.seen : seen,
      batteryPercent: changed.batteryPercent ?? previous?.batteryPercent ?? null,
      appVersion: changed.appVersion ?? previous?.appVersion ?? null,
      pendingReports: changed.pendingReports ?? previous?.pendingReports ?? null,
    });
  }

  /**
   * Writes everything buffered. On a failure other than refused data the sightings go back into
   * the buffer (unless newer ones arrived meanwhile) and the error is thrown for the caller to log.
   * Last-seen never moves backwards, so processes flushing in any order agree.
   */
  async flush(): Promise<FlushResult> {
    if (this.pending.size === 0) return { devices: 0, rowsUpdated: 0, dropped: [] };
    const batch = [...this.pending];
    this.pending = new Map();
    const result: FlushResult = { devices: batch.length, rowsUpdated: 0, dropped: [] };
    const queue: Entry[][] = [batch];
    try {
      for (let part = queue.shift(); part; part = queue.shift()) {
        try {
          result.rowsUpdated += await this.write(part);
        } catch (error) {
          if (!isRefusedData(error)) {
            queue.unshift(part);
            throw error;
          }
          if (part.length > 1) {
            const half = Math.ceil(part.length / 2);
            queue.unshift(part.slice(0, half), part.slice(half));
            continue;
          }
          const [deviceId] = part[0]!;
          result.dropped.push(deviceId);
          this.log?.error(
            { err: error, deviceId },
            `dropped the last-seen update of device ${deviceId}: the database refused its values`,
          );
        }
      }
    } catch (error) {
      this.putBack(queue.flat());
      throw error;
    }
    return result;
  }

  /** One UPDATE for the given sightings; the number of rows it changed. */
  private async write(entries: Entry[]): Promise<number> {
    const ids: string[] = [];
    const seen: Date[] = [];
    const battery: Array<number | null> = [];
    const appVersion: Array<string | null> = [];
    const pendingReports: Array<number | null> = [];
    for (const [id, sighting] of entries) {
      ids.push(id);
      seen.push(sighting.seen);
      battery.push(sighting.batteryPercent);
      appVersion.push(sighting.appVersion);
      pendingReports.push(sighting.pendingReports);
    }
    // A sighting older than what another process already wrote moves nothing; battery and
    // app version are taken only from a sighting at least as new as the stored last-seen. The
    // answer counts the rows written and names the devices that came back online (`before` is
    // read from the same snapshot, before the update).
    const offlineAfter = `${this.options.offlineAfterMs ?? 0} milliseconds`;
    const { rows } = await sql<{ updated: number; online: CameOnline[] | null }>`
      WITH updated AS (
        UPDATE devices d SET
          last_seen_at = greatest(d.last_seen_at, v.seen),
          battery_percent = CASE WHEN d.last_seen_at IS NULL OR d.last_seen_at <= v.seen
            THEN coalesce(v.battery_percent, d.battery_percent) ELSE d.battery_percent END,
          app_version = CASE WHEN d.last_seen_at IS NULL OR d.last_seen_at <= v.seen
            THEN coalesce(v.app_version, d.app_version) ELSE d.app_version END,
          pending_reports = CASE WHEN d.last_seen_at IS NULL OR d.last_seen_at <= v.seen
            THEN coalesce(v.pending_reports, d.pending_reports) ELSE d.pending_reports END
        FROM (SELECT u.*, before.last_seen_at AS before
              FROM (SELECT unnest(${ids}::uuid[]) AS id,
                           unnest(${seen}::timestamptz[]) AS seen,
                           unnest(${battery}::int[]) AS battery_percent,
                           unnest(${appVersion}::text[]) AS app_version,
                           unnest(${pendingReports}::int[]) AS pending_reports) u
              JOIN devices before ON before.id = u.id) v
        WHERE d.id = v.id
          AND (d.last_seen_at IS NULL OR d.last_seen_at < v.seen
               OR (d.last_seen_at = v.seen
                   AND (coalesce(v.battery_percent, d.battery_percent) IS DISTINCT FROM d.battery_percent
                        OR coalesce(v.app_version, d.app_version) IS DISTINCT FROM d.app_version
                        OR coalesce(v.pending_reports, d.pending_reports) IS DISTINCT FROM d.pending_reports)))
        RETURNING d.id, d.organization_id,
          (v.before IS NULL OR v.before <= v.seen - ${offlineAfter}::interval) AS came_online)
      SELECT count(*)::int AS updated,
        json_agg(json_build_object('id', id, 'organization_id', organization_id))
          FILTER (WHERE came_online) AS online
      FROM updated`.execute(this.db);
    const online = rows[0]?.online ?? [];
    if (online.length > 0) this.options.cameOnline?.(online);
    return rows[0]?.updated ?? 0;
  }

  /** Unwritten sightings return to the buffer, merged with any that arrived since. */
  private putBack(entries: Entry[]): void {
    for (const [id, sighting] of entries) {
      const newer = this.pending.get(id);
      if (!newer) {
        this.pending.set(id, sighting);
      } else {
        this.pending.set(id, {
          seen: newer.seen,
          batteryPercent: newer.batteryPercent ?? sighting.batteryPercent,
          appVersion: newer.appVersion ?? sighting.appVersion,
          pendingReports: newer.pendingReports ?? sighting.pendingReports,
        });
      }
    }
  }
}
