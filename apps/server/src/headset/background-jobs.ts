import type { AppInstance } from '../platform/app-types.ts';
import type { ServiceContext } from '../platform/context.ts';
import type { LastSeenBuffer } from './last-seen.ts';
import { runSweep } from './sweeper.ts';

/** How often the sweeper runs: a quarter of the shortest delay it enforces, at least 100 ms. */
export function sweepIntervalMs(config: ServiceContext['config']): number {
  const shortest = Math.min(
    config.disconnectAfterMs,
    config.sessionTimeoutMs,
    config.offlineAfterMs,
  );
  return Math.max(100, Math.floor(shortest / 4));
}

/**
 * Runs `task` every `everyMs` until stopped, never two at once; a failure is logged and the next
 * tick tries again (a database hiccup must not take the server down).
 */
function repeat(everyMs: number, task: () => Promise<void>, onError: (error: unknown) => void) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = task().catch(onError).finally(schedule);
    }, everyMs);
    timer.unref();
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

/**
 * Starts the last-seen flusher and the session sweeper; both stop when the app closes, after one
 * last flush. The sweeper flushes this process's sightings first so it never ends a session on a
 * device that was heard from a moment ago.
 */
export function startHeadsetJobs(app: AppInstance, ctx: ServiceContext, lastSeen: LastSeenBuffer) {
  const flush = async () => {
    await lastSeen.flush();
  };
  const stopFlusher = repeat(Math.max(10, ctx.config.lastSeenFlushMs), flush, (error) =>
    ctx.log.error({ err: error }, 'flushing last-seen times failed; retrying on the next tick'),
  );
  const stopSweeper = repeat(
    sweepIntervalMs(ctx.config),
    async () => {
      await flush();
      const result = await runSweep(ctx);
      if (result.disconnected.length > 0 || result.timedOut.length > 0) {
        ctx.log.info(
          { disconnected: result.disconnected, timeout: result.timedOut },
          'sweeper ended sessions',
        );
      }
    },
    (error) => ctx.log.error({ err: error }, 'session sweep failed; retrying on the next tick'),
  );
  app.addHook('onClose', async () => {
    await Promise.all([stopFlusher(), stopSweeper()]);
    await lastSeen.flush().catch((error: unknown) => {
      ctx.log.error({ err: error }, 'final flush of last-seen times failed');
    });
  });
}
