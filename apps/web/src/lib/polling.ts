/** Auto-refresh interval of live lists (5 s). Queries stop polling while the tab is hidden. */
export const REFRESH_INTERVAL_MS = 5000;

/** Query options for a list that refreshes itself: keeps showing the last data, no flicker. */
export const pollingOptions = {
  refetchInterval: REFRESH_INTERVAL_MS,
  refetchIntervalInBackground: false,
} as const;
