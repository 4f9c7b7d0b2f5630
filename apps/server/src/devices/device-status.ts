import { sql, type RawBuilder } from 'kysely';
import type { DeviceStatus } from '@vrtc/contract';

/**
 * Device status is derived, never stored: in_session while the device has an active session,
 * waiting while it was seen within OFFLINE_AFTER_MS, offline otherwise. `deviceAlias` is the SQL
 * alias of the devices table and `activeSessionAlias` that of its active session, left-joined on
 * `device_id = devices.id AND status = 'active'` (at most one row: sessions_one_active_per_device).
 * A join rather than a subquery per device: a list of 20,000 devices reads the few hundred active
 * sessions once.
 */
export function deviceStatusSql(
  deviceAlias: string,
  activeSessionAlias: string,
  now: Date,
  offlineAfterMs: number,
): RawBuilder<DeviceStatus> {
  const seenSince = new Date(now.getTime() - offlineAfterMs);
  return sql<DeviceStatus>`CASE
    WHEN ${sql.ref(`${activeSessionAlias}.id`)} IS NOT NULL THEN 'in_session'
    WHEN ${sql.ref(`${deviceAlias}.last_seen_at`)} > ${seenSince} THEN 'waiting'
    ELSE 'offline' END`;
}

/** Online = waiting or in session while still heard from. */
export function deviceOnlineSql(deviceAlias: string, now: Date, offlineAfterMs: number) {
  const device = sql.ref(deviceAlias);
  return sql<boolean>`(${device}.last_seen_at > ${new Date(now.getTime() - offlineAfterMs)})`;
}
