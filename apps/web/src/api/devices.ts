import {
  type AdminDeviceListQuery,
  type DeviceListQuery,
  type Device,
  type DeviceList,
  type DeviceStatus,
  type MovementType,
} from '@vrtc/contract';
import { routes } from './routes';
import {
  keepPreviousData,
  queryOptions,
  useQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
import { useLiveQueryOptions, useLiveMode } from './live-events';
import { PICKER_LIMIT, type PickerQuery } from './lists';
import { useEffect, useState } from 'react';

/**
 * Devices: the organisation's (the devices screen's cards, the wizard's waiting headsets, the
 * History's headset filter, the "Add headset" dialog's newest) and every organisation's (admin).
 * Their keys and queries live here once; `all` covers every one of them.
 */
export const deviceKeys = {
  all: ['devices'] as const,
  lists: ['devices', 'list'] as const,
  list: (query: DeviceListQuery) => ['devices', 'list', query] as const,
  options: (q: string) => ['devices', 'options', q] as const,
  /** The newest devices, asked afresh by each opening of the "Add headset" dialog. */
  newest: (openedAt: number | null) => ['devices', 'newest', openedAt] as const,
  /** Every organisation's devices (admin). */
  admin: ['devices', 'admin'] as const,
  adminList: (query: AdminDeviceListQuery) => ['devices', 'admin', 'list', query] as const,
};

export const deviceQueries = {
  /** A page of the organisation's devices; the last answer stays on screen while the next loads. */
  list: (query: DeviceListQuery) =>
    queryOptions({
      queryKey: deviceKeys.list(query),
      queryFn: ({ signal }) => api.call(routes.listDevices, { query, signal }),
      placeholderData: keepPreviousData,
    }),
  /** A page of every organisation's devices, with the counts by status under the filters. */
  adminList: (query: AdminDeviceListQuery) =>
    queryOptions({
      queryKey: deviceKeys.adminList(query),
      queryFn: ({ signal }) => api.call(routes.listAllDevices, { query, signal }),
      placeholderData: keepPreviousData,
    }),
};

/**
 * A page of devices, refreshed when the live stream tells of a change to a headset. With `poll`,
 * also every 5 s while the stream is down (paused while the tab is hidden); the last answer stays
 * on screen while the next one loads.
 */
export function useDeviceList(query: DeviceListQuery, { poll = false }: { poll?: boolean } = {}) {
  const live = useLiveQueryOptions(['device'], { poll });
  return useQuery({ ...deviceQueries.list(query), ...live });
}

/** The first devices (by name) whose name contains `q`. */
export const deviceOptions: PickerQuery = (q) => ({
  queryKey: deviceKeys.options(q),
  queryFn: async ({ signal }) => {
    const list = await api.call(routes.listDevices, {
      query: { q, limit: PICKER_LIMIT, sort: 'name' },
      signal,
    });
    return list.devices.map((device) => ({ value: device.id, label: device.name }));
  },
});

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

export type DeviceStatusFilter = DeviceStatus | 'all';
export const DEVICE_STATUS_FILTERS: DeviceStatusFilter[] = [
  'all',
  'waiting',
  'in_session',
  'offline',
];

export function useSetMovementType() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, movementType }: { id: string; movementType: MovementType }) =>
      api.call(routes.setMovementType, {
        params: { id },
        body: { movement_type: movementType },
      }),
    onSuccess: (updated) => {
      // Show the server's answer at once, then refresh the lists.
      queryClient.setQueriesData<DeviceList>({ queryKey: deviceKeys.lists }, (old) =>
        old
          ? {
              ...old,
              devices: old.devices.map((device) => (device.id === updated.id ? updated : device)),
            }
          : old,
      );
      return queryClient.invalidateQueries({ queryKey: deviceKeys.all });
    },
  });
}

/** Deletes a headset of any organisation (admin). */
export function useAdminDeleteDevice() {
  return useRefreshingMutation(deviceKeys.all, (id: string) =>
    api.call(routes.deleteDevice, { params: { id } }),
  );
}

/** The organisation's current enrolment code for a new headset (same code until it expires). */
export function useEnrollmentCode() {
  return useMutation({
    mutationFn: () => api.call(routes.currentEnrollmentCode),
  });
}

/** A new code in place of the current one, which stops working at once. */
export function useRenewEnrollmentCode() {
  return useMutation({
    mutationFn: () => api.call(routes.renewEnrollmentCode),
  });
}

/** Revokes the current code: no headset can enrol with it any more. */
export function useRevokeEnrollmentCode() {
  return useMutation({
    mutationFn: () => api.call(routes.revokeEnrollmentCode),
  });
}

/** How often the "Add headset" dialog asks whether a headset has joined, while the stream is down. */
export const ENROLMENT_POLL_MS = 3000;
/** The newest devices asked for each time: more than can enrol in one interval. */
const NEWEST_DEVICES = 20;

/**
 * The headsets that enrol while `watching` is true (the "Add headset" dialog is open), newest
 * first. The organisation's newest devices are asked for as soon as the live stream tells of an
 * enrolment (every few seconds while it is down); those the first answer did not hold have joined
 * since.
 */
export function useJoinedDevices(watching: boolean, intervalMs = ENROLMENT_POLL_MS): Device[] {
  // Each opening watches afresh: its own query, its own first answer.
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const [known, setKnown] = useState<Set<string> | null>(null);
  const [joined, setJoined] = useState<Device[]>([]);
  const queryClient = useQueryClient();
  const live = useLiveQueryOptions(['device']);
  const streaming = useLiveMode() === 'live';

  useEffect(() => {
    setOpenedAt(watching ? Date.now() : null);
    setKnown(null);
    setJoined([]);
  }, [watching]);

  const newest = useQuery({
    queryKey: deviceKeys.newest(openedAt),
    queryFn: ({ signal }) =>
      api.call(routes.listDevices, {
        query: { sort: 'created_at', order: 'desc', limit: NEWEST_DEVICES },
        signal,
      }),
    enabled: openedAt !== null,
    ...live,
    // Like every live list: no polling while the tab is hidden (it resumes on return).
    refetchInterval: streaming ? live.refetchInterval : intervalMs,
    staleTime: 0,
    gcTime: 0,
  });

  const answer = newest.data?.devices;
  useEffect(() => {
    if (!answer) return;
    if (known === null) {
      setKnown(new Set(answer.map((device) => device.id)));
      return;
    }
    const arrived = answer.filter((device) => !known.has(device.id));
    if (arrived.length === 0) return;
    setKnown(new Set([...known, ...arrived.map((device) => device.id)]));
    setJoined((list) => [...arrived, ...list]);
    // The devices screen behind the dialog shows them at once, too.
    void queryClient.invalidateQueries({ queryKey: deviceKeys.lists });
  }, [answer, known, queryClient]);

  // As they are now (a headset that has just joined turns to waiting a moment later).
  return joined.map((device) => answer?.find((latest) => latest.id === device.id) ?? device);
}
