import { type StatsExportQuery, type StatsRangeQuery } from '@vrtc/contract';
import { routes } from './routes';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';

export const statsKeys = {
  all: ['admin', 'stats'] as const,
  global: ['admin', 'stats', 'global'] as const,
  range: (range: StatsRangeQuery) => ['admin', 'stats', 'range', range] as const,
};

/** Figures, daily series, device types and top organisations over the range. */
export function useStatsRange(range: StatsRangeQuery) {
  return useQuery({
    queryKey: statsKeys.range(range),
    queryFn: ({ signal }) => api.call(routes.rangeStats, { query: range, signal }),
    placeholderData: keepPreviousData,
  });
}

/** All-time figures: sessions today, this week and this month come from here. */
export function useGlobalStats() {
  return useQuery({
    queryKey: statsKeys.global,
    queryFn: ({ signal }) => api.call(routes.globalStats, { signal }),
  });
}

/** The range as the server's CSV file, with the file name the server gave it. */
export async function exportStatsCsv(
  range: StatsRangeQuery,
  reader: Pick<StatsExportQuery, 'lang' | 'utc_offset'>,
) {
  const { blob, filename } = await api.download(routes.exportStats, {
    query: { format: 'csv', ...range, ...reader },
  });
  return { blob, filename: filename ?? `statistics_${range.start_date}_${range.end_date}.csv` };
}

/** The signed-in account's organisation's figures over the range (staff and the auditor). */
export function useOrganizationStats(range: StatsRangeQuery) {
  return useQuery({
    queryKey: ['stats', 'organization', range] as const,
    queryFn: ({ signal }) => api.call(routes.organizationStats, { query: range, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The organisation's figures over the range as the server's CSV file. */
export async function exportOrganizationStatsCsv(
  range: StatsRangeQuery,
  reader: Pick<StatsExportQuery, 'lang' | 'utc_offset'>,
) {
  const { blob, filename } = await api.download(routes.exportOrganizationStats, {
    query: { format: 'csv', ...range, ...reader },
  });
  return { blob, filename: filename ?? `statistics_${range.start_date}_${range.end_date}.csv` };
}
