import { useEffect, useState } from 'react';

/**
 * The current time, refreshed every `intervalMs`: lets relative times ("2 minutes ago") and
 * running durations re-render as time passes, between data refreshes.
 */
export function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
