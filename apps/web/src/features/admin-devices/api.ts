import { type AdminDeviceListQuery } from '@vrtc/contract';
import { routes } from '../../api/routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { deviceKeys, deviceQueries } from '../../api/devices';
import { useLiveQueryOptions } from '../../api/live-events';

/**
 * A page of every organisation's devices, filtered, sorted and searched on the server, with the
 * counts by status under the filters (summary). While autoRefresh is on, refreshed when the live
 * stream tells of a change to any headset, and polled every 5 s while the stream is down.
 */
export function useAdminDevices(query: AdminDeviceListQuery, autoRefresh: boolean) {
  const live = useLiveQueryOptions(['anyDevice'], { enabled: autoRefresh });
  return useQuery({
    ...deviceQueries.adminList(query),
    ...live,
  });
}

export function useDeleteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(routes.adminDeleteDevice, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.admin }),
  });
}

export interface BulkDeleteResult {
  deleted: string[];
  /** Devices left in place (in a session, or gone). */
  failed: string[];
}

/** Deletes the devices with one POST /v1/admin/devices/bulk-delete. */
export async function deleteDevices(ids: string[]): Promise<BulkDeleteResult> {
  const result = await api.call(routes.bulkDeleteDevices, { body: { device_ids: ids } });
  return { deleted: result.deleted, failed: result.skipped.map((skipped) => skipped.id) };
}

export function useBulkDeleteDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDevices,
    onSettled: () => queryClient.invalidateQueries({ queryKey: deviceKeys.admin }),
  });
}
