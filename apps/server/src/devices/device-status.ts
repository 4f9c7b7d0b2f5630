import { sql, type RawBuilder } from 'kysely';
import type { DeviceStatus } from '@vrtc/contract';

/**
 * Device status is derived, never stored: in_session while the device has an active session,
 * waiting while it was seen within OFFLINE_AFTER_MS, offline otherwise. `deviceAlias` is the SQL
 * alias of the devices table in the surrounding query.
 */
export function deviceStatusSql(
  deviceAlias: string,
  now: Date,
  offlineAfterMs: number,
): RawBuilder<DeviceStatus> {
  const device = sql.ref(deviceAlias);
  const seenSince = new Date(now.getTime() - offlineAfterMs);
  return sql<DeviceStatus>`CASE
    WHEN EXISTS (SELECT 1 FROM sessions active_session
                 WHERE active_session.device_id = ${device}.id AND active_session.status = 'active')
      THEN 'in_session'
    WHEN ${device}.last_seen_at > ${seenSince} THEN 'waiting'
    ELSE 'offline' END`;
}

/** The id of the device's active session, or null. */
export function currentSessionIdSql(deviceAlias: string): RawBuilder<string | null> {
  const device = sql.ref(deviceAlias);
  return sql<string | null>`(SELECT active_session.id FROM sessions active_session
    WHERE active_session.device_id = ${device}.id AND active_session.status = 'active' LIMIT 1)`;
}

/** Online = waiting or in session while still heard from. */
export function deviceOnlineSql(deviceAlias: string, now: Date, offlineAfterMs: number) {
  const device = sql.ref(deviceAlias);
  return sql<boolean>`(${device}.last_seen_at > ${new Date(now.getTime() - offlineAfterMs)})`;
}
