import type {
  Device,
  DeviceList,
  DeviceStatus,
  EnrollmentCode,
  MovementType,
  MovementTypeBody,
  OkBody,
} from '@vrtc/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { pollingOptions } from '../../lib/polling';

export type DeviceStatusFilter = DeviceStatus | 'all';
export const DEVICE_STATUS_FILTERS: DeviceStatusFilter[] = [
  'all',
  'waiting',
  'in_session',
  'offline',
];

export const deviceKeys = {
  all: ['devices'] as const,
  list: (status: DeviceStatusFilter) => ['devices', 'list', status] as const,
};

/** The organisation's devices, refreshed every 5 s (paused while the tab is hidden). */
export function useDevices(status: DeviceStatusFilter) {
  return useQuery({
    queryKey: deviceKeys.list(status),
    queryFn: ({ signal }) =>
      api.get<DeviceList>('/v1/devices', {
        query: { status: status === 'all' ? undefined : status },
        signal,
      }),
    select: (data) => data.devices,
    placeholderData: keepPreviousData,
    ...pollingOptions,
  });
}

export function useSetMovementType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, movementType }: { id: string; movementType: MovementType }) =>
      api.put<Device>(`/v1/devices/${id}/movement-type`, {
        movement_type: movementType,
      } satisfies MovementTypeBody),
    onSuccess: (updated) => {
      // Show the server's answer at once, then refresh the lists.
      queryClient.setQueriesData<DeviceList>({ queryKey: deviceKeys.all }, (old) =>
        old
          ? { devices: old.devices.map((device) => (device.id === updated.id ? updated : device)) }
          : old,
      );
      return queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

export function useDeleteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<OkBody>(`/v1/devices/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
}

/** The organisation's current enrolment code for a new headset (same code until it expires). */
export function useEnrollmentCode() {
  return useMutation({
    mutationFn: () => api.post<EnrollmentCode>('/v1/devices/enrollment-code'),
  });
}

/** A new code in place of the current one, which stops working at once. */
export function useRenewEnrollmentCode() {
  return useMutation({
    mutationFn: () => api.post<EnrollmentCode>('/v1/devices/enrollment-code/renew'),
  });
}

/** Revokes the current code: no headset can enrol with it any more. */
export function useRevokeEnrollmentCode() {
  return useMutation({
    mutationFn: () => api.delete<OkBody>('/v1/devices/enrollment-code'),
  });
}
