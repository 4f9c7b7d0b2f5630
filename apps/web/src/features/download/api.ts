import type { DownloadLinks } from '@vrtc/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';

export const downloadKeys = { links: ['vr-app', 'download'] as const };

/** Fresh signed links to the Oculus and Pico builds (404 when there is no build at all). */
export function useDownloadLinks() {
  return useQuery({
    queryKey: downloadKeys.links,
    queryFn: ({ signal }) => api.get<DownloadLinks>('/v1/vr-app/download', { signal }),
    // Signed links expire: never serve old ones from the cache.
    staleTime: 0,
    gcTime: 0,
  });
}
