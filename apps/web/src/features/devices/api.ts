import { type Device, type DeviceList, type DeviceStatus, type MovementType } from '@vrtc/contract';
import { routes } from '../../api/routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { deviceKeys } from '../../api/devices';
import { useLiveMode, useLiveQueryOptions } from '../../api/live-events';

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

export function useDeleteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.call(routes.deleteDevice, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deviceKeys.all }),
  });
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
