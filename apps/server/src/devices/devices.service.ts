import type {
  ADMIN_DEVICE_SORT_FIELDS,
  AdminDeviceList,
  AdminDeviceListQuery,
  DeviceList,
  BulkDeleteDevicesResponse,
  Device,
  DeviceListQuery,
  DeviceStatus,
  DeviceType,
  MovementType,
} from '@vrtc/contract';
import { sql, type RawBuilder } from 'kysely';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../platform/http/caller.ts';
import { changedFields, deletedChanges, recordAudit } from '../audit/audit.ts';
import { recordOutbox } from '../outbox/outbox.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import {
  containsPattern,
  hasSearch,
  orderBySql,
  pageOf,
  pageRead,
  countRows,
  inListOrder,
  type ListQuery,
} from '../platform/database/paging.ts';
import { iso, isoOrNull } from '../platform/service/serialize.ts';
import { deviceStatusSql } from './device-status.ts';
import type { WithLive } from '../events/live-events.ts';
import type { WithDeviceChanges } from './device-changes.ts';
import type { WithFleetCounts } from './device-figures.ts';

/** What the devices services are handed beside the infrastructure. */
export type DevicesContext = ServiceContext & WithLive & WithDeviceChanges & WithFleetCounts;

export const DEVICE_IN_SESSION_MESSAGE = 'Cannot delete device during active session';

/** What narrows a device list; every field is optional and they combine with AND. */
export interface DeviceFilter {
  organizationId?: string;
  id?: string;
  status?: DeviceStatus;
  type?: DeviceType;
  movementType?: MovementType;
  /** Matches the device's name, or its organisation's name when `searchOrganization`. */
  q?: string;
  searchOrganization?: boolean;
}

type AdminDeviceSortField = (typeof ADMIN_DEVICE_SORT_FIELDS)[number];

/**
 * The one device query behind the client list, the admin list and single-device answers. Status
 * and the status filter use the same SQL expression, evaluated at `ctx.clock.now()`.
 */
function deviceQuery(
  ctx: DevicesContext,
  db: Db | Tx,
  filter: DeviceFilter,
  now: Date = ctx.clock.now(),
  /** Without them, neither the status nor the organisation's name may be filtered or read. */
  withJoins = true,
) {
  const status = deviceStatusSql('d', 'active', now, ctx.config.offlineAfterMs);
  const joined = db
    .selectFrom('devices as d')
    .innerJoin('organizations as o', 'o.id', 'd.organization_id')
    .leftJoin('sessions as active', (join) =>
      join.onRef('active.device_id', '=', 'd.id').on('active.status', '=', 'active'),
    );
  let query = withJoins ? joined : (db.selectFrom('devices as d') as unknown as typeof joined);
  if (filter.organizationId) query = query.where('d.organization_id', '=', filter.organizationId);
  if (filter.id) query = query.where('d.id', '=', filter.id);
  if (filter.status) query = query.where(status, '=', filter.status);
  if (filter.type) query = query.where('d.type', '=', filter.type);
  if (filter.movementType) query = query.where('d.movement_type', '=', filter.movementType);
  if (hasSearch(filter.q)) {
    const pattern = containsPattern(filter.q);
    query = query.where((eb) =>
      filter.searchOrganization
        ? eb.or([eb('d.name', 'ilike', pattern), eb('o.name', 'ilike', pattern)])
        : eb('d.name', 'ilike', pattern),
    );
  }
  return { query, status };
}

const sortColumns = (
  status: RawBuilder<DeviceStatus>,
): Record<AdminDeviceSortField, RawBuilder<unknown>> => ({
  name: sql`lower(d.name)`,
  type: sql`d.type`,
  // in_session, waiting, offline: the order of how much a device is in use.
  status: sql`CASE ${status} WHEN 'in_session' THEN 0 WHEN 'waiting' THEN 1 ELSE 2 END`,
  last_seen: sql`d.last_seen_at`,
  created_at: sql`d.created_at`,
  organization_name: sql`lower(o.name)`,
  movement_type: sql`d.movement_type`,
});

/**
 * Whether a page's ids must be chosen with the organisation and active session joined: only to
 * filter or sort on them. Joined, every device's row had to be read and sorted (the middle page of
 * 20,000 took 50–100 ms); alone, the order by name walks its index. The joins never change which
 * devices match (each device has its organisation, and at most one active session).
 */
const idsNeedJoins = (filter: DeviceFilter, list: ListQuery<AdminDeviceSortField>) =>
  filter.status !== undefined ||
  (hasSearch(filter.q) && filter.searchOrganization === true) ||
  list.sort === 'status' ||
  list.sort === 'organization_name';

export interface DevicePage {
  devices: Device[];
  total: number;
  limit: number;
  offset: number;
}

/** A page of devices matching `filter`, sorted as asked (by name by default). */
export async function findDevices(
  ctx: DevicesContext,
  db: Db | Tx,
  filter: DeviceFilter,
  list: ListQuery<AdminDeviceSortField> = {},
  /** The total when the caller knows it already (it is then not counted again). */
  knownTotal?: number,
): Promise<DevicePage> {
  const page = pageOf(list);
  const now = ctx.clock.now();
  const status = deviceStatusSql('d', 'active', now, ctx.config.offlineAfterMs);
  const total =
    knownTotal ??
    (await countRows(deviceQuery(ctx, db, filter, now, idsNeedJoins(filter, {})).query));
  const read = pageRead(page, total);
  const order = orderBySql(list, sortColumns(status), 'name', [sql`d.id`], read.reversed);
  // The page is chosen on ids alone, then only its rows are read in full. Sorting every matching
  // device's whole row (20,000 on the admin list) spilled to disk on deep pages (bench:console,
  // docs/benchmarks.md); by name, the page still follows a (…, lower(name), id) index and stops
  // after its rows, and a page past the middle is read from the far end (pageRead).
  const pageIds = deviceQuery(ctx, db, filter, now, idsNeedJoins(filter, list))
    .query.select('d.id')
    .orderBy(order)
    .limit(read.limit)
    .offset(read.offset);
  const rows =
    page.offset >= total
      ? []
      : await deviceQuery(ctx, db, {}, now)
          .query.where('d.id', 'in', pageIds)
          .select([
            'd.id',
            'd.name',
            'd.type',
            status.as('status'),
            'd.last_seen_at',
            'active.id as current_session_id',
            'd.organization_id',
            'o.name as organization_name',
            'd.movement_type',
            'd.battery_percent',
            'd.app_version',
            'd.pending_reports',
            'd.created_at',
          ])
          .orderBy(order)
          .execute();
  return {
    devices: inListOrder(rows, read).map((row) => ({
      id: row.id,
      name: row.name,
      type: row.type,
      status: row.status,
      last_seen: isoOrNull(row.last_seen_at),
      current_session_id: row.current_session_id,
      organization_id: row.organization_id,
      organization_name: row.organization_name,
      movement_type: row.movement_type,
      battery_percent: row.battery_percent,
      app_version: row.app_version,
      pending_reports: row.pending_reports,
      created_at: iso(row.created_at),
    })),
    total,
    ...page,
  };
}

export function listDevices(
  ctx: DevicesContext,
  caller: Caller,
  query: DeviceListQuery,
): Promise<DeviceList> {
  return findDevices(
    ctx,
    ctx.db,
    { organizationId: caller.organizationId, status: query.status, q: query.q },
    query,
  );
}

/** Every organisation's devices, a page at a time, with the status counts of the stat cards. */
export async function listAllDevices(
  ctx: DevicesContext,
  query: AdminDeviceListQuery,
): Promise<AdminDeviceList> {
  const filter: DeviceFilter = {
    organizationId: query.organization_id,
    type: query.device_type,
    movementType: query.movement_type,
  };
  // The stat cards count the fleet's shared figures (device-figures.ts), not the rows again.
  const counts = await ctx.deviceFigures.counts(filter);
  const summary = {
    total: counts.total,
    waiting: counts.waiting,
    in_session: counts.in_session,
    offline: counts.offline,
  };
  // Without a search, the summary holds the list's total already: the devices are counted once.
  const knownTotal = hasSearch(query.q) ? undefined : summary[query.status ?? 'total'];
  const page = await findDevices(
    ctx,
    ctx.db,
    { ...filter, status: query.status, q: query.q, searchOrganization: true },
    query,
    knownTotal,
  );
  return { ...page, summary };
}

export async function getDevice(
  ctx: DevicesContext,
  organizationId: string,
  id: string,
): Promise<Device> {
  const {
    devices: [device],
  } = await findDevices(ctx, ctx.db, { organizationId, id });
  if (!device) throw notFound('Device');
  return device;
}

export async function setMovementType(
  ctx: DevicesContext,
  caller: Caller,
  id: string,
  movementType: MovementType,
): Promise<Device> {
  await ctx.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('devices')
      .select(['name', 'movement_type'])
      .where('id', '=', id)
      .where('organization_id', '=', caller.organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound('Device');
    await trx
      .updateTable('devices')
      .set({ movement_type: movementType })
      .where('id', '=', id)
      .execute();
    await ctx.deviceEvents.changed(trx, id);
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'device.updated',
      target: { type: 'device', id, label: before.name },
      changes: changedFields(before, { movement_type: movementType }),
    });
  });
  publishDevice(ctx, 'updated', [{ id, organization_id: caller.organizationId }]);
  return getDevice(ctx, caller.organizationId, id);
}

/**
 * Locks the given devices (in id order, so concurrent callers never deadlock) and tells which of
 * them have an active session. A session start locks the same row first, so none can slip in
 * between this check and the delete.
 */
async function lockDevices(trx: Tx, ids: string[], organizationId: string | undefined) {
  let query = trx.selectFrom('devices').select('id').where('id', 'in', ids);
  if (organizationId) query = query.where('organization_id', '=', organizationId);
  const locked = await query.orderBy('id').forUpdate().execute();
  const found = locked.map((row) => row.id);
  const busy =
    found.length === 0
      ? []
      : await trx
          .selectFrom('sessions')
          .select('device_id')
          .distinct()
          .where('device_id', 'in', found)
          .where('status', '=', 'active')
          .execute();
  return { found: new Set(found), inSession: new Set(busy.map((row) => row.device_id)) };
}

/**
 * Deletes a device unless it is in a session. Its token dies with the row; its sessions keep the
 * device's name (the foreign key is ON DELETE SET NULL). `organizationId` undefined = any
 * organisation (admin).
 */
export async function deleteDevice(
  ctx: DevicesContext,
  caller: Caller,
  organizationId: string | undefined,
  id: string,
): Promise<void> {
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const { found, inSession } = await lockDevices(trx, [id], organizationId);
    if (!found.has(id)) throw notFound('Device');
    if (inSession.has(id)) throw new AppError('device_in_session', DEVICE_IN_SESSION_MESSAGE);
    const rows = await trx
      .deleteFrom('devices')
      .where('id', '=', id)
      .returning(DELETED_DEVICE_COLUMNS)
      .execute();
    // Its token stops working at once here, and in other processes from commit on.
    await ctx.deviceEvents.changed(trx, id);
    await recordDeletions(ctx, trx, caller, rows);
    return rows;
  });
  publishDevice(ctx, 'deleted', deleted);
}

const DELETED_DEVICE_COLUMNS = ['id', 'organization_id', 'name', 'type'] as const;

/** A headset removed: one event each, in its organisation's chain. */
async function recordDeletions(
  ctx: DevicesContext,
  trx: Tx,
  caller: Caller,
  rows: Array<{ id: string; organization_id: string; name: string; type: DeviceType }>,
) {
  for (const row of rows) {
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'device.deleted',
      organizationId: row.organization_id,
      target: { type: 'device', id: row.id, label: row.name },
      changes: deletedChanges({ name: row.name, type: row.type }),
    });
    await recordOutbox(trx, {
      organizationId: row.organization_id,
      type: 'device.removed',
      at: ctx.clock.now(),
      data: {
        device_id: row.id,
        organization_id: row.organization_id,
        name: row.name,
        type: row.type,
        removed_at: ctx.clock.now().toISOString(),
      },
    });
  }
}

/** Tells the live streams (and the fleet's counts) of committed device changes. */
function publishDevice(
  ctx: DevicesContext,
  change: 'updated' | 'deleted',
  devices: Array<{ id: string; organization_id: string }>,
) {
  for (const device of devices) {
    ctx.live.publish({
      type: 'device',
      change,
      device_id: device.id,
      organization_id: device.organization_id,
    });
  }
}

/** Deletes every listed device that exists and is not in a session; the rest are reported. */
export async function bulkDeleteDevices(
  ctx: DevicesContext,
  caller: Caller,
  deviceIds: string[],
): Promise<BulkDeleteDevicesResponse> {
  const ids = [...new Set(deviceIds)];
  const result = await ctx.db.transaction().execute(async (trx) => {
    const { found, inSession } = await lockDevices(trx, ids, undefined);
    const deleted: string[] = [];
    const skipped: BulkDeleteDevicesResponse['skipped'] = [];
    for (const id of ids) {
      if (!found.has(id)) skipped.push({ id, reason: 'not_found' });
      else if (inSession.has(id)) skipped.push({ id, reason: 'device_in_session' });
      else deleted.push(id);
    }
    const rows =
      deleted.length > 0
        ? await trx
            .deleteFrom('devices')
            .where('id', 'in', deleted)
            .returning(DELETED_DEVICE_COLUMNS)
            .execute()
        : [];
    if (deleted.length > 0) await ctx.deviceEvents.changedMany(trx, deleted);
    await recordDeletions(ctx, trx, caller, rows);
    return { response: { deleted, skipped }, rows };
  });
  publishDevice(ctx, 'deleted', result.rows);
  return result.response;
}
