import type {
  AdminDeviceList,
  AdminDeviceListQuery,
  BulkDeleteDevicesBody,
  BulkDeleteDevicesResponse,
  OkBody,
} from '@vrtc/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiError } from '../../api/client';
import { REFRESH_INTERVAL_MS } from '../../lib/polling';

export const adminDeviceKeys = {
  all: ['admin', 'devices'] as const,
  list: (query: AdminDeviceListQuery) => ['admin', 'devices', 'list', query] as const,
};

/**
 * A page of every organisation's devices, filtered, sorted and searched on the server, with the
 * counts by status under the filters (summary); polled every 5 s while autoRefresh is on.
 */
export function useAdminDevices(query: AdminDeviceListQuery, autoRefresh: boolean) {
  return useQuery({
    queryKey: adminDeviceKeys.list(query),
    queryFn: ({ signal }) =>
      api.get<AdminDeviceList>('/v1/admin/devices/all', { query: { ...query }, signal }),
    refetchInterval: autoRefresh ? REFRESH_INTERVAL_MS : false,
    refetchIntervalInBackground: false,
    placeholderData: keepPreviousData,
  });
}

export function useDeleteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<OkBody>(`/v1/admin/devices/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminDeviceKeys.all }),
  });
}

export interface BulkDeleteResult {
  deleted: string[];
  /** Devices left in place (in a session, gone, or the call for them failed). */
  failed: string[];
}

/**
 * Deletes the devices with one POST /v1/admin/devices/bulk-delete; when the server does not offer
 * that call (404 or 405), with one DELETE per device instead.
 */
export async function deleteDevices(ids: string[]): Promise<BulkDeleteResult> {
  try {
    const result = await api.post<BulkDeleteDevicesResponse>('/v1/admin/devices/bulk-delete', {
      device_ids: ids,
    } satisfies BulkDeleteDevicesBody);
    return { deleted: result.deleted, failed: result.skipped.map((skipped) => skipped.id) };
  } catch (error) {
    if (!(error instanceof ApiError && (error.status === 404 || error.status === 405))) throw error;
  }
  const outcomes = await Promise.allSettled(
    ids.map((id) => api.delete<OkBody>(`/v1/admin/devices/${id}`)),
  );
  const result: BulkDeleteResult = { deleted: [], failed: [] };
  outcomes.forEach((outcome, index) => {
    (outcome.status === 'fulfilled' ? result.deleted : result.failed).push(ids[index]!);
  });
  return result;
}

export function useBulkDeleteDevices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDevices,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminDeviceKeys.all }),
  });
}
