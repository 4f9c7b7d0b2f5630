import type { FinishBody, ProgressBody, SessionProgressResponse } from '@vrtc/contract';
import { headsetSource } from '../audit/audit.ts';
import type { SessionStatus } from '../platform/database/schema.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { iso } from '../platform/service/serialize.ts';
import { completeLateResult, endActiveSession, recordSessionEnd } from '../sessions/session-end.ts';
import { publishSession } from '../sessions/session-events.ts';
import { recordProgress } from '../sessions/session-progress.ts';
import { checkTaskNumbers, storeTasks } from '../sessions/tasks.ts';
import type { AuthenticatedDevice } from './device-cache.ts';
import type { HeadsetContext } from './headset-context.ts';
import type { LastSeenBuffer } from './last-seen.ts';
import { once, reportKey, storeAnswer, type ReportKey } from './report-keys.ts';

const notActive = (status: SessionStatus) =>
  new AppError('session_not_active', `Session is no longer active (${status})`, {
    details: { status },
  });

const cancelled = () =>
  new AppError('session_cancelled', 'The session was cancelled in the console; stop playing');

const windowPassed = (endedAt: Date) =>
  new AppError(
    'late_result_window_passed',
    'The server ended this session longer ago than the late-result window; the result is refused',
    { details: { ended_at: iso(endedAt) } },
  );

/** The session as a report found it. */
interface ReportTarget {
  status: SessionStatus;
  maxTasks: number;
  startedAt: Date;
}

/** The earliest server ending a late report may still follow (LATE_RESULT_WINDOW_MS). */
const lateWindowStart = (ctx: HeadsetContext, now: Date) =>
  new Date(now.getTime() - ctx.config.lateResultWindowMs);

/**
 * Why a session takes no report of its headset, if it takes none: cancelled stays cancelled; a
 * session the server ended takes reports within the late-result window; a completed one answers
 * older progress as it stands (changing nothing) but takes no second finish.
 */
function refusal(
  row: { status: SessionStatus; ended_at: Date | null },
  windowStart: Date,
  report: 'progress' | 'finish',
): AppError | undefined {
  switch (row.status) {
    case 'active':
      return undefined;
    case 'cancelled':
      return cancelled();
    case 'completed':
      return report === 'finish' ? notActive(row.status) : undefined;
    case 'disconnected':
    case 'timeout':
      return row.ended_at && row.ended_at < windowStart ? windowPassed(row.ended_at) : undefined;
  }
}

/** The session as this device may report on it: 404 if it is not the device's, else its refusal. */
async function reportTarget(
  ctx: HeadsetContext,
  device: AuthenticatedDevice,
  sessionId: string,
  report: 'progress' | 'finish',
  now: Date,
): Promise<ReportTarget> {
  // The device's active session came with its token (usually from the device cache).
  const launched = device.session;
  if (launched?.id === sessionId) {
    return {
      status: 'active',
      maxTasks: launched.max_tasks,
      startedAt: new Date(launched.started_at),
    };
  }
  const row = await ctx.db
    .selectFrom('sessions')
    .select(['status', 'max_tasks', 'started_at', 'ended_at'])
    .where('id', '=', sessionId)
    .where('device_id', '=', device.id)
    .executeTakeFirst();
  if (!row) throw notFound('Session');
  const refused = refusal(row, lateWindowStart(ctx, now), report);
  if (refused) throw refused;
  return { status: row.status, maxTasks: row.max_tasks, startedAt: row.started_at };
}

function checkTaskCount(completedTasks: number, maxTasks: number) {
  if (completedTasks > maxTasks) {
    throw new AppError(
      'validation_error',
      `body.completed_tasks must be between 0 and ${maxTasks} (the level's task count)`,
    );
  }
}

/**
 * The report wrote nothing: the session is completed, and progress after the finish is an older
 * report, answered with the session as it stands (docs/headset-protocol.md, "Order"); or it
 * changed between our read and our write, and the headset is told how it stands now.
 */
async function asItStands(
  ctx: HeadsetContext,
  sessionId: string,
  report: 'progress' | 'finish',
  now: Date,
): Promise<SessionProgressResponse> {
  const row = await ctx.db
    .selectFrom('sessions')
    .select(['id', 'status', 'ended_at', 'completed_tasks', 'max_tasks'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (!row) throw notFound('Session');
  const refused = refusal(row, lateWindowStart(ctx, now), report);
  if (refused) throw refused;
  if (row.status === 'completed' && report === 'progress') return progressAnswer(row);
  throw notActive(row.status);
}

/** A time the headset reported, as it sent it and clamped to [started_at, now]. */
function reportedTime(occurredAt: string | undefined, startedAt: Date, now: Date) {
  if (occurredAt === undefined) return undefined;
  const reported = new Date(occurredAt);
  const clamped = new Date(
    Math.min(Math.max(reported.getTime(), startedAt.getTime()), now.getTime()),
  );
  return { reported, clamped };
}

/** A report as the protocol names it: the path its key's request hash is taken over. */
const reportPath = (sessionId: string, report: 'progress' | 'finish') =>
  `/v1/headset/sessions/${sessionId}/${report}`;

/** A report (progress or finish) of one headset on one of its sessions, as the route hands it. */
export interface Report<Body> {
  device: AuthenticatedDevice;
  sessionId: string;
  body: Body;
  idempotencyKey?: string;
  /** Where it came from, for the audit log (the headset is the actor of its reports). */
  request?: RequestFacts;
}

/** What applying a report did, once its transaction committed: its answer, and what to publish. */
interface Applied {
  answer: SessionProgressResponse;
  publish(): void;
}

/**
 * What every report goes through around its own write: it shows the headset is alive (as a
 * heartbeat does); a repeated idempotency key gets the stored answer; the session must be the
 * headset's and take this report (reportTarget), with a task count within its level's; `apply`
 * then writes, storing its answer under the key in the same transaction. When it wrote nothing
 * (the session changed meanwhile), the headset is told how the session stands now; else the
 * change is published once committed.
 */
async function acceptReport<Body extends { completed_tasks: number }>(
  ctx: HeadsetContext,
  lastSeen: LastSeenBuffer,
  kind: 'progress' | 'finish',
  { device, sessionId, body, idempotencyKey }: Report<Body>,
  apply: (step: {
    target: ReportTarget;
    now: Date;
    key: ReportKey | undefined;
  }) => Promise<Applied | undefined>,
): Promise<SessionProgressResponse> {
  const now = ctx.clock.now();
  lastSeen.record(device.id, now);
  const key = reportKey(device.id, idempotencyKey, {
    method: 'POST',
    path: reportPath(sessionId, kind),
    body,
  });
  return once(ctx.db, key, async () => {
    const target = await reportTarget(ctx, device, sessionId, kind, now);
    checkTaskCount(body.completed_tasks, target.maxTasks);
    const applied = await apply({ target, now, key });
    if (!applied) return asItStands(ctx, sessionId, kind, now);
    applied.publish();
    return applied.answer;
  });
}

const progressAnswer = (row: {
  id: string;
  status: SessionStatus;
  completed_tasks: number;
  max_tasks: number;
}): SessionProgressResponse => ({
  id: row.id,
  status: row.status,
  completed_tasks: row.completed_tasks,
  max_tasks: row.max_tasks,
});

/**
 * A progress report, applied through the sessions domain (recordProgress: the count never goes
 * down, tasks merge by number, a session the server ended takes it within the late-result window)
 * in one transaction with its answer under the key. Progress after the finish changes nothing.
 */
export function reportProgress(
  ctx: HeadsetContext,
  lastSeen: LastSeenBuffer,
  report: Report<ProgressBody>,
): Promise<SessionProgressResponse> {
  const { device, sessionId, body } = report;
  return acceptReport(ctx, lastSeen, 'progress', report, async ({ target, now, key }) => {
    if (body.task) checkTaskNumbers([body.task], target.maxTasks, 'body.task.number');
    // Progress after the finish: nothing to write, asItStands answers.
    if (target.status === 'completed') return undefined;
    const progress = await ctx.db.transaction().execute(async (trx) => {
      const applied = await recordProgress(
        ctx.deviceEvents,
        trx,
        { sessionId, deviceId: device.id },
        {
          completedTasks: body.completed_tasks,
          seq: body.seq,
          task: body.task,
          occurredAt: reportedTime(body.occurred_at, target.startedAt, now),
          now,
          windowStart: lateWindowStart(ctx, now),
          by: headsetSource(device, report.request),
        },
      );
      if (!applied) return undefined;
      const answer = progressAnswer(applied.session);
      if (key) await storeAnswer(trx, key, answer, now);
      return { ...applied, answer };
    });
    return (
      progress && {
        answer: progress.answer,
        publish: () => publishSession(ctx.live, 'progress', progress.session, progress.task),
      }
    );
  });
}

/**
 * Ends the session as completed (success=false is still completed, with success false), at the
 * headset's occurred_at when it tells it. A session the server ended as disconnected or timeout
 * within the late-result window takes the finish as a late result. The count never goes down: a
 * finish with fewer tasks than reported keeps the higher count.
 */
export function finishSession(
  ctx: HeadsetContext,
  lastSeen: LastSeenBuffer,
  report: Report<FinishBody>,
): Promise<SessionProgressResponse> {
  const { device, sessionId, body } = report;
  return acceptReport(ctx, lastSeen, 'finish', report, async ({ target, now, key }) => {
    if (body.tasks) checkTaskNumbers(body.tasks, target.maxTasks, 'body.tasks[].number');
    const occurredAt = body.occurred_at ? new Date(body.occurred_at) : undefined;
    const outcome = {
      now,
      occurredAt,
      completedTasks: body.completed_tasks,
      success: body.success,
    };
    const ended = await ctx.db.transaction().execute(async (trx) => {
      // Active as far as we know; else (or if the sweeper ended it meanwhile) a late result.
      const session =
        (await endActiveSession(
          ctx.deviceEvents,
          trx,
          { sessionId, deviceId: device.id },
          { status: 'completed', ...outcome },
        )) ??
        (await completeLateResult(
          trx,
          { sessionId, deviceId: device.id },
          { ...outcome, windowStart: lateWindowStart(ctx, now) },
        ));
      if (!session) return undefined;
      if (body.tasks) await storeTasks(trx, sessionId, body.tasks, now);
      await recordSessionEnd(
        trx,
        headsetSource(device, report.request),
        now,
        session.late_result ? 'session.late_result' : 'session.finished',
        session,
      );
      const answer = progressAnswer(session);
      if (key) await storeAnswer(trx, key, answer, now);
      return { session, answer };
    });
    return (
      ended && {
        answer: ended.answer,
        publish: () => publishSession(ctx.live, 'ended', ended.session),
      }
    );
  });
}
