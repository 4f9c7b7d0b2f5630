/**
 * Auto-refresh interval of live lists (5 s) while the live stream is down (see
 * api/live-events.tsx). Queries stop polling while the tab is hidden.
 */
export const REFRESH_INTERVAL_MS = 5000;
