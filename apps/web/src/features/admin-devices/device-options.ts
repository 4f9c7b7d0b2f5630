import {
  ADMIN_DEVICE_SORT_FIELDS,
  type Device,
  type DeviceStatus,
  type DeviceType,
  type MovementType,
} from '@vrtc/contract';
import { PAGE_SIZE } from '../../components/DataTable';
import { isUuid, oneOf, useListState, type ListState } from '../../lib/list-state';

/** The values the All devices filters offer. */
export const STATUSES: DeviceStatus[] = ['waiting', 'in_session', 'offline'];
export const TYPES: DeviceType[] = ['oculus', 'pico', 'quest', 'other'];
export const MOVEMENT_TYPES: MovementType[] = ['slide', 'teleport'];

/** A headset in a session cannot be deleted (nor selected for deletion). */
export const canDelete = (device: Device) => device.status !== 'in_session';

const FILTERS = {
  organization_id: isUuid,
  status: oneOf(STATUSES),
  device_type: oneOf(TYPES),
  movement_type: oneOf(MOVEMENT_TYPES),
};

export type AdminDeviceListState = ListState<
  (typeof ADMIN_DEVICE_SORT_FIELDS)[number],
  typeof FILTERS
>;

/** The page, sort, search and filters of All devices, kept in the URL. */
export function useAdminDeviceListState(): AdminDeviceListState {
  return useListState({
    pageSize: PAGE_SIZE,
    sortFields: ADMIN_DEVICE_SORT_FIELDS,
    defaultSort: { sort: 'name', order: 'asc' },
    filters: FILTERS,
  });
}
