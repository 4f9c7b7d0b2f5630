import { type AuditEventExportQuery, type AuditEventListQuery } from '@vrtc/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { routes } from './routes';

/**
 * The audit log (docs/logging.md): a page of events, newest first, by cursor; the same filters as
 * a CSV file; and the admin's check that every chain still holds.
 */
export const auditKeys = {
  all: ['audit'] as const,
  list: (query: AuditEventListQuery) => ['audit', 'list', query] as const,
};

/** One page of events; the page before stays on screen while the next one loads. */
export function useAuditEvents(query: AuditEventListQuery) {
  return useQuery({
    queryKey: auditKeys.list(query),
    queryFn: ({ signal }) => api.call(routes.listAuditEvents, { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The path of the CSV export under these filters: what the console's "Export CSV" link points at. */
export function auditExportPath(filters: AuditEventExportQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === 'string' && value !== '') params.set(key, value);
  }
  const search = params.toString();
  return search ? `${routes.exportAuditEvents.path}?${search}` : routes.exportAuditEvents.path;
}

/** Every event under the filters as the server's CSV file, with the file name the server gave it. */
export async function exportAuditEvents(filters: AuditEventExportQuery) {
  const { blob, filename } = await api.download(routes.exportAuditEvents, { query: filters });
  return { blob, filename: filename ?? 'audit-log.csv' };
}

/**
 * Walks every chain of the log on the server (admin). A check asked for by a click, not a cached
 * view: each click walks the chains again.
 */
export function useVerifyAudit() {
  return useMutation({
    mutationFn: () => api.call(routes.verifyAudit),
  });
}
