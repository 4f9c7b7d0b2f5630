import { type AdminDeviceListQuery, type DeviceListQuery } from '@vrtc/contract';
import { routes } from './routes';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useLiveQueryOptions } from './live-events';
import { PICKER_LIMIT, type PickerQuery } from './lists';

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
