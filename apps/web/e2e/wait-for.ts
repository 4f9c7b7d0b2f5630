import { vi } from 'vitest';

/**
 * The one way the browser tests wait for something outside the page (the API, a simulated
 * headset): `vi.waitFor` (real timers, usable in hooks, where seeding happens, unlike
 * expect.poll) on a condition that holds once it returns something other than undefined or false,
 * which it resolves with. Inside the page, Playwright's own waits are the way.
 */
export function waitFor<T>(
  condition: () => T | Promise<T>,
  options: { what: string; timeout?: number; interval?: number },
): Promise<Exclude<T, undefined | false>> {
  const timeout = options.timeout ?? 15_000;
  return vi.waitFor(
    async () => {
      const value = await condition();
      if (value === undefined || value === false)
        throw new Error(`Timed out after ${timeout} ms waiting for ${options.what}`);
      return value as Exclude<T, undefined | false>;
    },
    { timeout, interval: options.interval ?? 200 },
  );
}
