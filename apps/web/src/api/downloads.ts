import { type AppPlatform } from '@vrtc/contract';
import { routes } from './routes';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

export const downloadKeys = {
  links: ['vr-app', 'download'] as const,
  builds: ['admin', 'vr-app', 'builds'] as const,
};

/** Fresh signed links to the Oculus and Pico builds (404 when there is no build at all). */
export function useDownloadLinks() {
  return useQuery({
    queryKey: downloadKeys.links,
    queryFn: ({ signal }) => api.call(routes.downloadLinks, { signal }),
    // Signed links expire: never serve old ones from the cache.
    staleTime: 0,
    gcTime: 0,
  });
}

/** The builds on the server (admin): platform, version, size and when each was uploaded. */
export function useAppBuilds(enabled: boolean) {
  return useQuery({
    queryKey: downloadKeys.builds,
    queryFn: ({ signal }) => api.call(routes.listBuilds, { signal }),
    select: (data) => data.builds,
    enabled,
  });
}

/** The content type the server takes an APK as. */
export const APK_CONTENT_TYPE = 'application/vnd.android.package-archive';

export interface UploadBuildArgs {
  platform: AppPlatform;
  file: File;
  /** As the admin typed it; blank sends none. */
  version: string;
  onProgress?: (percent: number) => void;
}

/** Uploads (or replaces) a platform's build; the builds and the download links refresh. */
export function useUploadBuild() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ platform, file, version, onProgress }: UploadBuildArgs) =>
      api.upload(routes.uploadBuild, file, {
        params: { platform },
        contentType: APK_CONTENT_TYPE,
        query: { version: version.trim() || undefined },
        onProgress: (sent, total) => onProgress?.(total > 0 ? (sent / total) * 100 : 0),
      }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: downloadKeys.builds }),
        queryClient.invalidateQueries({ queryKey: downloadKeys.links }),
      ]),
  });
}
