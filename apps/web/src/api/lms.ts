import type { LmsPackageKeyQuery, ScormVersion } from '@vrtc/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './mutations';
import { routes } from './routes';

/**
 * Into any LMS (docs/lms.md): SCORM packages exported for a level or a qualification, and the
 * organisation's package keys with their revocation.
 */
export const lmsKeys = {
  all: ['lms'] as const,
  packageKeys: (query: LmsPackageKeyQuery) => ['lms', 'package-keys', query] as const,
};

export function usePackageKeys(query: LmsPackageKeyQuery) {
  return useQuery({
    queryKey: lmsKeys.packageKeys(query),
    queryFn: ({ signal }) => api.call(routes.listLmsPackageKeys, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useRevokePackageKey() {
  return useRefreshingMutation(lmsKeys.all, (id: string) =>
    api.call(routes.revokeLmsPackageKey, { params: { id } }),
  );
}

/** What a package trains: a level, or a qualification (its first level not yet passed). */
export type LmsTarget = { level_id: string } | { qualification_id: string };

/** The package's zip: each export mints a new key (the dialog asks for the list anew). */
export async function downloadLmsPackage(target: LmsTarget, version: ScormVersion) {
  const file = await api.download(routes.exportLmsPackage, {
    query: { ...target, scorm_version: version },
  });
  return { blob: file.blob, filename: file.filename ?? `scorm-${version}.zip` };
}
