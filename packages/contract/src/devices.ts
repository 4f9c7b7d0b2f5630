import { Type, type Static } from 'typebox';
import { DeviceStatus, DeviceType, MovementType, Nullable, Timestamp, Uuid } from './common.ts';
import { listPageFields, listQueryFields } from './lists.ts';

/**
 * A headset as the console shows it; status is derived on the server (docs/ARCHITECTURE.md,
 * "Headset protocol").
 */
export const Device = Type.Object({
  id: Uuid,
  name: Type.String(),
  type: DeviceType,
  status: DeviceStatus,
  last_seen: Nullable(Timestamp),
  current_session_id: Nullable(Uuid),
  organization_id: Uuid,
  organization_name: Type.String(),
  movement_type: MovementType,
  battery_percent: Nullable(Type.Integer()),
  app_version: Nullable(Type.String()),
  /** Reports the headset said it still holds, unsent, at its last heartbeat (0: none or not told). */
  pending_reports: Type.Integer(),
  created_at: Timestamp,
});
export type Device = Static<typeof Device>;

export const DEVICE_SORT_FIELDS = ['name', 'type', 'status', 'last_seen', 'created_at'] as const;

/** `q` matches the device's name. Default order: by name. */
export const DeviceListQuery = Type.Object(
  { status: Type.Optional(DeviceStatus), ...listQueryFields(DEVICE_SORT_FIELDS) },
  { additionalProperties: false },
);
export type DeviceListQuery = Static<typeof DeviceListQuery>;

export const DeviceList = Type.Object({ devices: Type.Array(Device), ...listPageFields });
export type DeviceList = Static<typeof DeviceList>;

export const MovementTypeBody = Type.Object(
  { movement_type: MovementType },
  { additionalProperties: false },
);
export type MovementTypeBody = Static<typeof MovementTypeBody>;

export const ADMIN_DEVICE_SORT_FIELDS = [
  ...DEVICE_SORT_FIELDS,
  'organization_name',
  'movement_type',
] as const;

/**
 * GET /v1/admin/devices/all: every organisation's devices, optionally filtered. `q` matches the
 * device's or its organisation's name.
 */
export const AdminDeviceListQuery = Type.Object(
  {
    organization_id: Type.Optional(Uuid),
    status: Type.Optional(DeviceStatus),
    device_type: Type.Optional(DeviceType),
    movement_type: Type.Optional(MovementType),
    ...listQueryFields(ADMIN_DEVICE_SORT_FIELDS),
  },
  { additionalProperties: false },
);
export type AdminDeviceListQuery = Static<typeof AdminDeviceListQuery>;

/** Devices by status under the list's filters other than status and q (the stat cards). */
export const DeviceSummary = Type.Object({
  total: Type.Integer(),
  waiting: Type.Integer(),
  in_session: Type.Integer(),
  offline: Type.Integer(),
});
export type DeviceSummary = Static<typeof DeviceSummary>;

export const AdminDeviceList = Type.Object({
  devices: Type.Array(Device),
  ...listPageFields,
  summary: DeviceSummary,
});
export type AdminDeviceList = Static<typeof AdminDeviceList>;

export const BULK_DELETE_MAX_DEVICES = 500;

export const BulkDeleteDevicesBody = Type.Object(
  {
    device_ids: Type.Array(Uuid, { minItems: 1, maxItems: BULK_DELETE_MAX_DEVICES }),
  },
  { additionalProperties: false },
);
export type BulkDeleteDevicesBody = Static<typeof BulkDeleteDevicesBody>;

/** Why a device was left in place by a bulk delete. */
export const BulkDeleteSkipReason = Type.Union([
  Type.Literal('device_in_session'),
  Type.Literal('not_found'),
]);
export type BulkDeleteSkipReason = Static<typeof BulkDeleteSkipReason>;

export const BulkDeleteDevicesResponse = Type.Object({
  deleted: Type.Array(Uuid),
  skipped: Type.Array(Type.Object({ id: Uuid, reason: BulkDeleteSkipReason })),
});
export type BulkDeleteDevicesResponse = Static<typeof BulkDeleteDevicesResponse>;
