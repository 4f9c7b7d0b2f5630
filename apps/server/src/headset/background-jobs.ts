import type { AppInstance } from '../platform/http/app-types.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import type { HeadsetContext } from './headset-context.ts';
import { DatabaseLostError } from '../platform/database/db.ts';
import {
  noReport,
  repeatJob,
  startRepeatingJob,
  type JobReport,
} from '../platform/ops/job-monitor.ts';
import { pruneRateLimits } from '../platform/service/rate-limit.ts';
import type { DeviceAuthenticator } from './device-auth.ts';
import { DEVICE_CACHE_REFRESH_MS } from './device-cache.ts';
import type { LastSeenBuffer } from './last-seen.ts';
import { purgeReportKeys } from './report-keys.ts';
import { devicesGoneOffline, runSweep } from './sweeper.ts';

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
 * Starts the last-seen flusher, the session sweeper and the device cache's refresh ahead of
 * expiry; they stop when the app closes, before one last flush. They are independent: a flush
 * that fails never stops a sweep. The sweeper flushes this process's sightings first, and
 * whatever could not be written still counts as heard (`pendingSighting`), so it never ends a
 * session on a device that was heard from a moment ago.
 */
export function startHeadsetJobs(
  app: AppInstance,
  ctx: HeadsetContext,
  lastSeen: LastSeenBuffer,
  devices: DeviceAuthenticator,
  report: JobReport = noReport,
) {
  // A lost database is reported once, by the process's fatal handler, which stops these jobs.
  const logFlushFailure = (error: unknown) => {
    if (error instanceof DatabaseLostError) return;
    ctx.log.error({ err: error }, 'flushing last-seen times failed; retrying on the next tick');
  };
  const flush = async () => {
    const started = performance.now();
    const { devices } = await lastSeen.flush();
    if (devices > 0) report.flushed(devices, (performance.now() - started) / 1000);
  };
  const stopFlusher = repeatJob(
    'last_seen_flush',
    Math.max(10, ctx.config.lastSeenFlushMs),
    flush,
    logFlushFailure,
    report,
  );
  // Devices that went offline up to this instant were told of (by this process's sweeps).
  let offlineCheckedUpTo = ctx.clock.now();
  const stopSweeper = repeatJob(
    'sweeper',
    sweepIntervalMs(ctx.config),
    async () => {
      await flush().catch(logFlushFailure);
      const result = await runSweep(ctx, (deviceId) => lastSeen.pendingSighting(deviceId));
      if (result.ran) {
        const now = ctx.clock.now();
        for (const device of await devicesGoneOffline(ctx, offlineCheckedUpTo, now)) {
          ctx.live.publish({
            type: 'device',
            change: 'offline',
            device_id: device.id,
            organization_id: device.organization_id,
          });
        }
        offlineCheckedUpTo = now;
      }
      report.swept(result.ran, {
        disconnected: result.disconnected.length,
        timeout: result.timedOut.length,
      });
      await pruneRateLimits(ctx.db, ctx.clock.now());
      // Report keys are answered again for at least the late-result window, then forgotten.
      await purgeReportKeys(
        ctx.db,
        new Date(ctx.clock.now().getTime() - ctx.config.lateResultWindowMs),
      );
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
    report,
  );
  startRepeatingJob(app, ctx.log, report, {
    job: 'device_cache_refresh',
    everyMs: DEVICE_CACHE_REFRESH_MS,
    run: () => devices.refreshExpiring(),
    failureMessage: 'reading cached devices again failed; they expire as usual',
  });
  // The last flush follows in the headset routes' own onClose hook, which runs after this one.
  app.addHook('onClose', async () => {
    await Promise.all([stopFlusher(), stopSweeper()]);
  });
}
