import type { MovementType, SessionLaunch } from '@vrtc/contract';
import type { Db } from '../platform/database/db.ts';
import { AppError } from '../platform/service/errors.ts';
import { iso } from '../platform/service/serialize.ts';
import type { AuthenticatedDevice } from './device-cache.ts';
import { DeviceRefused } from './device-refusals.ts';

export const INVALID_DEVICE_TOKEN_MESSAGE = 'Device token is invalid or the device was removed';

/**
 * One statement: the device by token hash, its organisation's state and its active session (at
 * most one, by the partial unique index). A deleted device's token finds no row. The headset
 * routes keep the answer in the device cache (device-cache.ts) until the device changes.
 */
export async function resolveDevice(db: Db, tokenHash: string): Promise<AuthenticatedDevice> {
  const [found] = await resolveDevices(db, [tokenHash]);
  return deviceOrRefusal(found);
}

/** A device, or the 401 its token deserves (unknown/deleted, or organisation deactivated). */
export function deviceOrRefusal(found: ResolvedDevice | undefined): AuthenticatedDevice {
  if (!found) throw new AppError('unauthorized', INVALID_DEVICE_TOKEN_MESSAGE);
  if (!found.organizationActive) {
    throw new DeviceRefused('This organization is deactivated', found.device);
  }
  return found.device;
}

export interface ResolvedDevice {
  tokenHash: string;
  organizationActive: boolean;
  device: AuthenticatedDevice;
}

/** resolveDevice for several tokens in one statement (misses of the device cache, batched). */
export async function resolveDevices(db: Db, tokenHashes: string[]): Promise<ResolvedDevice[]> {
  if (tokenHashes.length === 0) return [];
  const rows = await db
    .selectFrom('devices as d')
    .innerJoin('organizations as o', 'o.id', 'd.organization_id')
    .leftJoin('sessions as s', (join) =>
      join.onRef('s.device_id', '=', 'd.id').on('s.status', '=', 'active'),
    )
    // The session that ended last (index sessions_device_ended_idx, migration 0020): the
    // heartbeat tells the headset why its session went.
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('sessions as e')
          .select(['e.id as ended_id', 'e.status as ended_status'])
          .whereRef('e.device_id', '=', 'd.id')
          .where('e.status', '<>', 'active')
          .orderBy('e.ended_at', 'desc')
          .limit(1)
          .as('e'),
      (join) => join.onTrue(),
    )
    .select([
      'e.ended_id',
      'e.ended_status',
      'd.id',
      'd.token_hash',
      'd.organization_id',
      'd.movement_type',
      'd.battery_percent',
      'd.app_version',
      'o.active as organization_active',
      ...LAUNCH_COLUMNS,
    ])
    .where('d.token_hash', 'in', tokenHashes)
    .execute();
  return rows.map((row) => ({
    tokenHash: row.token_hash ?? '',
    organizationActive: row.organization_active,
    device: {
      id: row.id,
      organizationId: row.organization_id,
      movementType: row.movement_type,
      batteryPercent: row.battery_percent,
      appVersion: row.app_version,
      session: sessionLaunchOf(row),
      lastEnded:
        row.ended_id && row.ended_status && row.ended_status !== 'active'
          ? { id: row.ended_id, status: row.ended_status }
          : null,
    },
  }));
}

/** The active session's columns the launch description is built from (`sessionLaunchOf`). */
const LAUNCH_COLUMNS = [
  's.id as session_id',
  's.scenario_id',
  's.module_id',
  's.level_id',
  's.level_revision',
  's.vr_user_name',
  's.scenario_name',
  's.module_name',
  's.level_name',
  's.level_number',
  's.max_tasks',
  's.selected_options',
  's.started_at',
  's.completed_tasks',
] as const;

/**
 * The session a heartbeat answers (and reports check against): what the console started on the
 * headset, as the session recorded it at its start. Null without an active session (the LEFT
 * JOIN found none).
 */
function sessionLaunchOf(row: {
  session_id: string | null;
  scenario_id: string | null;
  module_id: string | null;
  level_id: string | null;
  level_revision: number | null;
  movement_type: MovementType;
  vr_user_name: string | null;
  scenario_name: string | null;
  module_name: string | null;
  level_name: string | null;
  level_number: number | null;
  max_tasks: number | null;
  selected_options: SessionLaunch['selected_options'] | null;
  started_at: Date | null;
  completed_tasks: number | null;
}): SessionLaunch | null {
  if (!row.session_id || !row.started_at) return null;
  return {
    id: row.session_id,
    scenario_id: row.scenario_id,
    module_id: row.module_id,
    level_id: row.level_id,
    level_revision: row.level_revision ?? 1,
    movement_type: row.movement_type,
    vr_user_name: row.vr_user_name ?? '',
    scenario_name: row.scenario_name ?? '',
    module_name: row.module_name ?? '',
    level_name: row.level_name ?? '',
    level_number: row.level_number ?? 1,
    max_tasks: row.max_tasks ?? 0,
    selected_options: row.selected_options ?? [],
    started_at: iso(row.started_at),
    completed_tasks: row.completed_tasks ?? 0,
  };
}
