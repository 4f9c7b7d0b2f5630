import type { FastifyBaseLogger } from 'fastify';
import { DatabaseLostError } from '../database/db.ts';
import type { AppInstance } from '../http/app-types.ts';

/**
 * The background jobs of a server process (headset/background-jobs.ts, audit/audit-purge.ts,
 * integrations/upkeep.ts).
 */
export type BackgroundJob =
  | 'last_seen_flush'
  | 'sweeper'
  | 'device_cache_refresh'
  | 'audit_link'
  | 'audit_purge'
  | 'integrations_upkeep'
  | 'qualification_notices'
  | 'qualification_digest';

/** What the background jobs tell the rest of the process: for metrics and for /readyz. */
export interface JobReport {
  /** The job runs from now on, every `everyMs`. */
  started(job: BackgroundJob, everyMs: number): void;
  /** One run of the job ended after `seconds`, failed when `error` is given. */
  ran(job: BackgroundJob, seconds: number, error?: unknown): void;
  /** A flush wrote the last-seen times of `devices` devices (flushes with nothing to write: none). */
  flushed(devices: number, seconds: number): void;
  /**
   * A sweep ended: `ran` false when another process held the sweeper lock (it did nothing), and
   * the sessions it ended by reason.
   */
  swept(ran: boolean, ended: { disconnected: number; timeout: number }): void;
}

/** Reports nothing (tests that start the jobs without watching them). */
export const noReport: JobReport = { started() {}, ran() {}, flushed() {}, swept() {} };

/**
 * Runs `task` every `everyMs` until stopped, never two at once; a failure is logged and the next
 * tick tries again (a database hiccup must not take the server down). Each run is reported, so
 * /readyz can tell a stalled job and the metrics count runs and failures. The first run comes
 * after `firstAfterMs` (default: one interval): a daily job in a process restarted more often than
 * daily still runs.
 */
export function repeatJob(
  job: BackgroundJob,
  everyMs: number,
  task: () => Promise<void>,
  onError: (error: unknown) => void,
  report: JobReport,
  firstAfterMs = everyMs,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = async () => {
    const started = performance.now();
    try {
      await task();
      report.ran(job, (performance.now() - started) / 1000);
    } catch (error) {
      report.ran(job, (performance.now() - started) / 1000, error);
      onError(error);
    }
  };
  const schedule = (delayMs = everyMs) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run().finally(() => schedule());
    }, delayMs);
    timer.unref();
  };
  report.started(job, everyMs);
  schedule(firstAfterMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}

/** A job that runs every `everyMs` in every process from its start until the app closes. */
export interface RepeatingJob {
  job: BackgroundJob;
  everyMs: number;
  /** The first run's delay (default: one interval). */
  firstAfterMs?: number;
  run: () => Promise<void>;
  /** What the log says when a run fails, and when it is tried again. */
  failureMessage: string;
}

/**
 * Starts `spec` with repeatJob and stops it when the app closes. A failed run is logged, except a
 * lost database: the process's fatal handler reports that once, and stops the jobs.
 */
export function startRepeatingJob(
  app: Pick<AppInstance, 'addHook'>,
  log: FastifyBaseLogger,
  report: JobReport,
  spec: RepeatingJob,
): void {
  const stop = repeatJob(
    spec.job,
    spec.everyMs,
    spec.run,
    (error) => {
      if (error instanceof DatabaseLostError) return;
      log.error({ err: error }, spec.failureMessage);
    },
    report,
    spec.firstAfterMs,
  );
  app.addHook('onClose', stop);
}

/** What a domain says of its job: `run` takes the context it is started with. */
export type JobOf<C> = Omit<RepeatingJob, 'run'> & { run: (ctx: C) => Promise<unknown> };

/**
 * The starter of a domain's repeating job, `start(app, ctx, report)`: the job's facts stay with
 * its domain and the starting, stopping and logging stay here (startRepeatingJob).
 */
export function repeatingJob<C extends { log: FastifyBaseLogger }>(spec: JobOf<C>) {
  return (app: Pick<AppInstance, 'addHook'>, ctx: C, report: JobReport = noReport): void => {
    startRepeatingJob(app, ctx.log, report, {
      ...spec,
      run: async () => {
        await spec.run(ctx);
      },
    });
  };
}

export type JobsState =
  | { status: 'off' }
  | { status: 'ok' }
  | { status: 'stalled'; job: BackgroundJob; silentForMs: number };

/**
 * Remembers when each job last finished a run and passes every report on (to the metrics). A job
 * that has not finished a run for ten of its intervals (plus a second) is stalled: its statement
 * hangs or its timer is gone. A run that fails still counts as a run: the job is alive and retries,
 * and what made it fail (the database) has its own readiness check.
 */
export class JobMonitor implements JobReport {
  private readonly jobs = new Map<BackgroundJob, { everyMs: number; lastRunAt: number }>();

  constructor(
    private readonly next?: JobReport,
    private readonly now: () => number = Date.now,
  ) {}

  started(job: BackgroundJob, everyMs: number): void {
    this.jobs.set(job, { everyMs, lastRunAt: this.now() });
    this.next?.started(job, everyMs);
  }

  ran(job: BackgroundJob, seconds: number, error?: unknown): void {
    const entry = this.jobs.get(job);
    if (entry) entry.lastRunAt = this.now();
    this.next?.ran(job, seconds, error);
  }

  flushed(devices: number, seconds: number): void {
    this.next?.flushed(devices, seconds);
  }

  swept(ran: boolean, ended: { disconnected: number; timeout: number }): void {
    this.next?.swept(ran, ended);
  }

  state(): JobsState {
    if (this.jobs.size === 0) return { status: 'off' };
    const now = this.now();
    for (const [job, { everyMs, lastRunAt }] of this.jobs) {
      const silentForMs = now - lastRunAt;
      if (silentForMs > everyMs * 10 + 1000) return { status: 'stalled', job, silentForMs };
    }
    return { status: 'ok' };
  }
}
