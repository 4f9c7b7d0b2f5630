import type { Db, Tx } from '../platform/database/db.ts';

/**
 * "What a headset call sees of these devices may have changed": each process drops what it
 * cached of them. Called inside the writing transaction when there is one, so other processes
 * hear it when it commits. Declared here, with the devices, so every domain that changes a device
 * or its session can tell it; implemented by the headset domain (headset/device-events.ts), whose
 * device cache it keeps coherent.
 */
export interface DeviceChanges {
  changed(executor: Db | Tx, deviceId: string | null | undefined): Promise<void>;
  changedMany(executor: Db | Tx, deviceIds: readonly string[]): Promise<void>;
  allChanged(executor: Db | Tx): Promise<void>;
}

/** What a service that changes devices or their sessions is handed beside the ServiceContext. */
export interface WithDeviceChanges {
  deviceEvents: DeviceChanges;
}
