import type { AppInstance } from '../platform/app-types.ts';
import type { ServiceContext } from '../platform/context.ts';
import { DatabaseLostError } from '../platform/db.ts';
import { pruneRateLimits } from '../platform/rate-limit.ts';
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
 * Starts the last-seen flusher and the session sweeper; both stop when the app closes, before one
 * last flush. They are independent: a flush that fails never stops a sweep. The sweeper flushes
 * this process's sightings first, and whatever could not be written still counts as heard
 * (`pendingSighting`), so it never ends a session on a device that was heard from a moment ago.
 */
export function startHeadsetJobs(app: AppInstance, ctx: ServiceContext, lastSeen: LastSeenBuffer) {
  // A lost database is reported once, by the process's fatal handler, which stops these jobs.
  const logFlushFailure = (error: unknown) => {
    if (error instanceof DatabaseLostError) return;
    ctx.log.error({ err: error }, 'flushing last-seen times failed; retrying on the next tick');
  };
  const flush = async () => {
    await lastSeen.flush();
  };
  const stopFlusher = repeat(Math.max(10, ctx.config.lastSeenFlushMs), flush, logFlushFailure);
  const stopSweeper = repeat(
    sweepIntervalMs(ctx.config),
    async () => {
      await flush().catch(logFlushFailure);
      const result = await runSweep(ctx, (deviceId) => lastSeen.pendingSighting(deviceId));
      await pruneRateLimits(ctx.db, ctx.clock.now());
      if (result.disconnected.length > 0 || result.timedOut.length > 0) {
        ctx.log.info(
          { disconnected: result.disconnected, timeout: result.timedOut },
          'sweeper ended sessions',
        );
      }
    },
    (error) => {
      if (error instanceof DatabaseLostError) return;
      ctx.log.error({ err: error }, 'session sweep failed; retrying on the next tick');
    },
  );
  // The last flush follows in the headset routes' own onClose hook, which runs after this one.
  app.addHook('onClose', async () => {
    await Promise.all([stopFlusher(), stopSweeper()]);
  });
}
