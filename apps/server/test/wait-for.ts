import { setTimeout as delay } from 'node:timers/promises';

/**
 * The one way the server's tests wait for something they cannot await (a log line written, a port
 * listening, an event heard): checks `condition` at once, then every `interval` ms, and resolves
 * with its first value other than undefined or false; after `timeout` ms it rejects, naming what
 * it waited for. A wait whose timing out is an answer catches it (`.catch(() => undefined)`).
 * Plain Node (no vitest), so that the benchmarks can use the helpers built on it.
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  options: { timeout: number; interval?: number; what?: string },
): Promise<Exclude<T, undefined | false>> {
  const deadline = Date.now() + Math.max(0, options.timeout);
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value as Exclude<T, undefined | false>;
    if (Date.now() >= deadline) {
      throw new Error(`Timed out after ${options.timeout} ms waiting for ${options.what ?? 'it'}`);
    }
    await delay(options.interval ?? 20);
  }
}
