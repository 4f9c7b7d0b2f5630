import type { DeviceList, DeviceListQuery } from '@vrtc/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { pollingOptions } from '../lib/polling';
import { api } from './client';
import { PICKER_LIMIT, type PickerQuery } from './lists';

/**
 * The organisation's devices: the devices screen's cards, the wizard's waiting headsets, and the
 * History's headset filter.
 */
export const deviceKeys = {
  all: ['devices'] as const,
  lists: ['devices', 'list'] as const,
  list: (query: DeviceListQuery) => ['devices', 'list', query] as const,
  options: (q: string) => ['devices', 'options', q] as const,
};

/**
 * A page of devices. With `poll`, refreshed every 5 s (paused while the tab is hidden); the last
 * answer stays on screen while the next one loads.
 */
export function useDeviceList(query: DeviceListQuery, { poll = false }: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: deviceKeys.list(query),
    queryFn: ({ signal }) => api.get<DeviceList>('/v1/devices', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
    ...(poll ? pollingOptions : {}),
  });
}

/** The first devices (by name) whose name contains `q`. */
export const deviceOptions: PickerQuery = (q) => ({
  queryKey: deviceKeys.options(q),
  queryFn: async ({ signal }) => {
    const list = await api.get<DeviceList>('/v1/devices', {
      query: { q, limit: PICKER_LIMIT, sort: 'name' } satisfies DeviceListQuery,
      signal,
    });
    return list.devices.map((device) => ({ value: device.id, label: device.name }));
  },
});
