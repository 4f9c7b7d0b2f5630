import crypto from 'node:crypto';
import { sql } from 'kysely';
import type {
  EnrollBody,
  EnrollmentCode,
  EnrollResponse,
  FinishBody,
  HeartbeatBody,
  HeartbeatResponse,
  ProgressBody,
  SessionLaunch,
  SessionProgressResponse,
} from '@vrtc/contract';
import { newToken } from '../auth/tokens.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Caller } from '../auth/caller.ts';
import type { Db } from '../platform/database/db.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import { checkQuota, quotaExceeded } from '../platform/service/quota.ts';
import {
  countAttempt,
  refundAttempt,
  takeAttempt,
  type Limit,
} from '../platform/service/rate-limit.ts';
import type { MovementType, SessionStatus } from '../platform/database/schema.ts';
import { iso } from '../platform/service/serialize.ts';
import {
  completeLateResult,
  endActiveSession,
  raisedTaskCount,
  recordSessionEnd,
  sessionLabel,
} from '../sessions/session-end.ts';
import { publishSession } from '../sessions/session-events.ts';
import { checkTaskNumbers, storeTasks } from '../sessions/tasks.ts';
import type { AuthenticatedDevice } from './device-cache.ts';
import { once, reportKey, storeAnswer, type ReportKey } from './report-keys.ts';
import { LastSeenBuffer } from './last-seen.ts';
import { createdChanges, headsetSource, recordAudit } from '../audit/audit.ts';
import { DeviceRefused } from './device-refusals.ts';
import { recordOutbox } from '../outbox/outbox.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import type { WithLive } from '../events/live-events.ts';
import type { WithDeviceChanges } from '../devices/device-changes.ts';

/** What the headset services are handed beside the infrastructure. */
export type HeadsetContext = ServiceContext & WithLive & WithDeviceChanges;

export type { AuthenticatedDevice };

/** No look-alikes (0/O, 1/I): a code is read off a screen and typed on a headset. */
export const ENROLLMENT_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const ENROLLMENT_CODE_LENGTH = 8;
export const ENROLLMENT_CODE_TTL_MS = 24 * 3600 * 1000;
/**
 * Wrong enrolment codes one address may present per 15 minutes (decision 008). Loose: a site
 * enrols its whole fleet through one NAT, and a few wrong codes from there must not stop it. The
 * code is the guard against guessing: 32^8 codes, each valid a day, against 300 guesses per
 * address per quarter hour. Right codes are not counted.
 */
export const ENROLL_MAX_FAILURES_PER_ADDRESS = 300;
export const ENROLL_WINDOW_MS = 15 * 60 * 1000;
export const INVALID_CODE_MESSAGE = 'Enrollment code is invalid or has expired';
export const INVALID_DEVICE_TOKEN_MESSAGE = 'Device token is invalid or the device was removed';

export function newEnrollmentCode(): string {
  let code = '';
  for (let i = 0; i < ENROLLMENT_CODE_LENGTH; i++) {
    code += ENROLLMENT_CODE_ALPHABET[crypto.randomInt(ENROLLMENT_CODE_ALPHABET.length)];
  }
  return code;
}

/** As typed on a headset: case, surrounding blanks and separators do not matter. */
export function normalizeEnrollmentCode(input: string): string {
  return input.trim().toUpperCase().replace(/[\s-]/g, '');
}

const codeBody = (row: { code: string; expires_at: Date }): EnrollmentCode => ({
  code: row.code,
  expires_at: iso(row.expires_at),
});

/**
 * Counts one code issued by the organisation against its daily quota (QUOTA_ENROLLMENT_CODES_PER_DAY),
 * refusing with 409 quota_exceeded past it: renewing a code is cheap for a person and must not
 * be a loop for a script.
 */
async function countIssuedCode(ctx: HeadsetContext, organizationId: string, now: Date) {
  const max = ctx.config.quotas.enrollmentCodesPerDay;
  const [count] = await countAttempt(ctx.db, now, [
    { key: `enrollment-codes:${organizationId}`, max, windowMs: ENROLLMENT_CODE_TTL_MS },
  ]);
  if (count && count.hits > max) throw quotaExceeded('enrollment_codes', max);
}

/**
 * Stores a fresh code for the organisation, replacing its row when `replaceValid` or when the
 * stored code has expired; undefined when a valid code is stored and was not to be replaced.
 * Draws again in the (about one in 10^12) case that another organisation holds the drawn code.
 */
async function storeNewCode(
  ctx: HeadsetContext,
  caller: Caller,
  now: Date,
  replaceValid: boolean,
): Promise<EnrollmentCode | undefined> {
  const organizationId = caller.organizationId;
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      const stored = await ctx.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('enrollment_codes')
          .values({
            organization_id: organizationId,
            code: newEnrollmentCode(),
            created_at: now,
            expires_at: new Date(now.getTime() + ENROLLMENT_CODE_TTL_MS),
          })
          .onConflict((conflict) => {
            const update = conflict.column('organization_id').doUpdateSet((eb) => ({
              code: eb.ref('excluded.code'),
              created_at: eb.ref('excluded.created_at'),
              expires_at: eb.ref('excluded.expires_at'),
            }));
            return replaceValid ? update : update.where('enrollment_codes.expires_at', '<=', now);
          })
          .returning(['code', 'expires_at'])
          .executeTakeFirst();
        if (row) {
          // The code itself is a secret (AUDIT_REDACTED): the log tells that one was issued.
          await recordAudit(trx, {
            by: caller,
            at: now,
            action: replaceValid ? 'enrollment_code.renewed' : 'enrollment_code.issued',
            target: { type: 'enrollment_code', id: organizationId, label: null },
            changes: { code: [null, row.code], expires_at: [null, row.expires_at] },
          });
        }
        return row;
      });
      return stored ? codeBody(stored) : undefined;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new AppError('conflict', 'Could not issue an enrollment code. Please try again.');
}

/**
 * The organisation's current enrolment code: the stored one while it is valid, else a fresh one
 * replacing it. Concurrent callers agree: the upsert only replaces an expired row, and a caller
 * that loses the race reads the winner's code.
 */
export async function currentEnrollmentCode(
  ctx: HeadsetContext,
  caller: Caller,
): Promise<EnrollmentCode> {
  const now = ctx.clock.now();
  const readValid = () =>
    ctx.db
      .selectFrom('enrollment_codes')
      .select(['code', 'expires_at'])
      .where('organization_id', '=', caller.organizationId)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  const current = await readValid();
  if (current) return codeBody(current);
  await countIssuedCode(ctx, caller.organizationId, now);
  const issued = await storeNewCode(ctx, caller, now, false);
  if (issued) return issued;
  // Another request issued one first: answer with its code.
  const winner = await readValid();
  if (winner) return codeBody(winner);
  throw new AppError('conflict', 'Could not issue an enrollment code. Please try again.');
}

/** Replaces the organisation's code with a new one at once: the old code stops working. */
export async function renewEnrollmentCode(
  ctx: HeadsetContext,
  caller: Caller,
): Promise<EnrollmentCode> {
  const now = ctx.clock.now();
  await countIssuedCode(ctx, caller.organizationId, now);
  const renewed = await storeNewCode(ctx, caller, now, true);
  if (!renewed) throw new AppError('conflict', 'Could not issue an enrollment code.');
  return renewed;
}

/** Revokes the organisation's code: no headset can enrol until a code is issued again. */
export async function revokeEnrollmentCode(ctx: HeadsetContext, caller: Caller): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const revoked = await trx
      .deleteFrom('enrollment_codes')
      .where('organization_id', '=', caller.organizationId)
      .returning(['code', 'expires_at'])
      .executeTakeFirst();
    if (!revoked) return;
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'enrollment_code.revoked',
      target: { type: 'enrollment_code', id: caller.organizationId, label: null },
      changes: { code: [revoked.code, null], expires_at: [revoked.expires_at, null] },
    });
  });
}

function enrollLimits(clientAddress: string): Limit[] {
  return [
    {
      key: `enroll:address:${clientAddress}`,
      max: ENROLL_MAX_FAILURES_PER_ADDRESS,
      windowMs: ENROLL_WINDOW_MS,
    },
  ];
}

/**
 * A headset joins the organisation whose valid code it presents and receives its own token,
 * shown once and stored only as a hash. Wrong codes count against the client address.
 */
export async function enroll(
  ctx: HeadsetContext,
  body: EnrollBody,
  request: RequestFacts,
): Promise<EnrollResponse> {
  const now = ctx.clock.now();
  const limits = enrollLimits(request.ip ?? '');
  await takeAttempt(ctx.db, now, limits);
  const code = normalizeEnrollmentCode(body.code);
  const owner = await ctx.db
    .selectFrom('enrollment_codes as e')
    .innerJoin('organizations as o', 'o.id', 'e.organization_id')
    .select('e.organization_id')
    .where('e.code', '=', code)
    .where('e.expires_at', '>', now)
    .where('o.active', '=', true)
    .executeTakeFirst();
  if (!owner) throw new AppError('enrollment_code_invalid', INVALID_CODE_MESSAGE);
  // A fleet enrolled from one address with a valid code is not a run of failures.
  await refundAttempt(
    ctx.db,
    now,
    limits.map((limit) => limit.key),
  );
  const { token, hash } = newToken();
  const device = await ctx.db.transaction().execute(async (trx) => {
    await checkQuota(trx, owner.organization_id, 'devices', ctx.config.quotas.devices);
    const values = { name: body.name.trim(), type: body.type, movement_type: 'slide' as const };
    const enrolled = await trx
      .insertInto('devices')
      .values({
        ...values,
        organization_id: owner.organization_id,
        token_hash: hash,
        last_seen_at: now,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The headset enrols itself: it is the actor, with the code's organisation.
    await recordAudit(trx, {
      by: headsetSource({ id: enrolled.id, organizationId: owner.organization_id }, request),
      at: now,
      action: 'device.enrolled',
      target: { type: 'device', id: enrolled.id, label: values.name },
      changes: createdChanges(values),
    });
    await recordOutbox(trx, {
      organizationId: owner.organization_id,
      type: 'device.enrolled',
      at: now,
      data: {
        device_id: enrolled.id,
        organization_id: owner.organization_id,
        name: values.name,
        type: values.type,
        enrolled_at: now.toISOString(),
      },
    });
    return enrolled;
  });
  ctx.live.publish({
    type: 'device',
    change: 'enrolled',
    device_id: device.id,
    organization_id: owner.organization_id,
  });
  return { device_id: device.id, device_token: token };
}

/**
 * One statement: the device by token hash, its organisation's state and its active session (at
 * most one, by the partial unique index). A deleted device's token finds no row. The headset
 * routes keep the answer in the device cache (device-cache.ts) until the device changes.
 */
export async function resolveDevice(db: Db, tokenHash: string): Promise<AuthenticatedDevice> {
  const [found] = await resolveDevices(db, [tokenHash]);
  return deviceOrRefusal(found);
}

/** A device, or the 401 its token deserves (unknown/deleted, or organisation deactivated). */
export function deviceOrRefusal(found: ResolvedDevice | undefined): AuthenticatedDevice {
  if (!found) throw new AppError('unauthorized', INVALID_DEVICE_TOKEN_MESSAGE);
  if (!found.organizationActive) {
    throw new DeviceRefused('This organization is deactivated', found.device);
  }
  return found.device;
}

export interface ResolvedDevice {
  tokenHash: string;
  organizationActive: boolean;
  device: AuthenticatedDevice;
}

/** resolveDevice for several tokens in one statement (misses of the device cache, batched). */
export async function resolveDevices(db: Db, tokenHashes: string[]): Promise<ResolvedDevice[]> {
  if (tokenHashes.length === 0) return [];
  const rows = await db
    .selectFrom('devices as d')
    .innerJoin('organizations as o', 'o.id', 'd.organization_id')
    .leftJoin('sessions as s', (join) =>
      join.onRef('s.device_id', '=', 'd.id').on('s.status', '=', 'active'),
    )
    // The session that ended last (index sessions_device_ended_idx, migration 0020).
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('sessions as e')
          .select(['e.id as ended_id', 'e.status as ended_status'])
          .whereRef('e.device_id', '=', 'd.id')
          .where('e.status', '<>', 'active')
          .orderBy('e.ended_at', 'desc')
          .limit(1)
          .as('e'),
      (join) => join.onTrue(),
    )
    .select([
      'e.ended_id',
      'e.ended_status',
      'd.id',
      'd.token_hash',
      'd.organization_id',
      'd.movement_type',
      'd.battery_percent',
      'd.app_version',
      'o.active as organization_active',
      's.id as session_id',
      's.scenario_id',
      's.module_id',
      's.level_id',
      's.level_revision',
      's.vr_user_name',
      's.scenario_name',
      's.module_name',
      's.level_name',
      's.level_number',
      's.max_tasks',
      's.selected_options',
      's.started_at',
      's.completed_tasks',
    ])
    .where('d.token_hash', 'in', tokenHashes)
    .execute();
  return rows.map((row) => ({
    tokenHash: row.token_hash ?? '',
    organizationActive: row.organization_active,
    device: toAuthenticatedDevice(row),
  }));
}

function toAuthenticatedDevice(row: {
  id: string;
  organization_id: string;
  movement_type: MovementType;
  battery_percent: number | null;
  app_version: string | null;
  session_id: string | null;
  scenario_id: string | null;
  module_id: string | null;
  level_id: string | null;
  level_revision: number | null;
  ended_id: string | null;
  ended_status: SessionStatus | null;
  vr_user_name: string | null;
  scenario_name: string | null;
  module_name: string | null;
  level_name: string | null;
  level_number: number | null;
  max_tasks: number | null;
  selected_options: SessionLaunch['selected_options'] | null;
  started_at: Date | null;
  completed_tasks: number | null;
}): AuthenticatedDevice {
  const session: SessionLaunch | null =
    row.session_id && row.started_at
      ? {
          id: row.session_id,
          scenario_id: row.scenario_id,
          module_id: row.module_id,
          level_id: row.level_id,
          level_revision: row.level_revision ?? 1,
          movement_type: row.movement_type,
          vr_user_name: row.vr_user_name ?? '',
          scenario_name: row.scenario_name ?? '',
          module_name: row.module_name ?? '',
          level_name: row.level_name ?? '',
          level_number: row.level_number ?? 1,
          max_tasks: row.max_tasks ?? 0,
          selected_options: row.selected_options ?? [],
          started_at: iso(row.started_at),
          completed_tasks: row.completed_tasks ?? 0,
        }
      : null;
  return {
    id: row.id,
    organizationId: row.organization_id,
    movementType: row.movement_type,
    batteryPercent: row.battery_percent,
    appVersion: row.app_version,
    session,
    lastEnded:
      row.ended_id && row.ended_status && row.ended_status !== 'active'
        ? { id: row.ended_id, status: row.ended_status }
        : null,
  };
}

/**
 * Where this process keeps the headsets' sightings until the next flush. A headset heard again
 * after it had gone offline is waiting again: the console's device lists hear it at once.
 */
export function sightings(ctx: HeadsetContext): LastSeenBuffer {
  return new LastSeenBuffer(ctx.db, {
    log: ctx.log,
    offlineAfterMs: ctx.config.offlineAfterMs,
    cameOnline: (devices) => {
      for (const device of devices) {
        ctx.live.publish({
          type: 'device',
          change: 'online',
          device_id: device.id,
          organization_id: device.organization_id,
        });
      }
    },
  });
}

/**
 * Costs no query of its own: the device and its session were read with the token (usually from
 * the device cache), and last-seen, battery, app version and backlog go to the in-memory buffer. Battery
 * and app version are passed on whenever reported: the cached device's may be older than what
 * another process wrote since, and the flush writes a row only when a value changed anyway.
 */
export function heartbeat(
  ctx: HeadsetContext,
  lastSeen: LastSeenBuffer,
  device: AuthenticatedDevice,
  body: HeartbeatBody,
): HeartbeatResponse {
  const now = ctx.clock.now();
  lastSeen.record(device.id, now, {
    batteryPercent: body.battery_percent,
    appVersion: body.app_version,
    pendingReports: body.pending_reports,
  });
  return {
    device_id: device.id,
    movement_type: device.movementType,
    heartbeat_interval_ms: ctx.config.heartbeatIntervalMs,
    session: device.session,
    ended_session: device.lastEnded,
    server_time: now.toISOString(),
  };
}

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
 * session the server ended takes reports within the late-result window; a completed one takes
 * older progress (which changes nothing it holds) but no second finish.
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

/** The session changed between our read and our write: tell the headset how it stands now. */
async function changedMeanwhile(
  ctx: HeadsetContext,
  sessionId: string,
  report: 'progress' | 'finish',
  now: Date,
): Promise<never> {
  const row = await ctx.db
    .selectFrom('sessions')
    .select(['status', 'ended_at'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  if (!row) throw notFound('Session');
  throw refusal(row, lateWindowStart(ctx, now), report) ?? notActive(row.status);
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
    if (!applied) return changedMeanwhile(ctx, sessionId, kind, now);
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
 * Records the count of completed tasks and, when the headset tells it, the task that just ended
 * (older headsets send the count only), in one transaction, by the protocol's order rules
 * (docs/headset-protocol.md): the count never goes down, so an older or repeated report changes
 * nothing; a report older than one applied (`seq`) only adds tasks not told yet. A session the
 * server ended takes progress within the late-result window (its status stays; the finish
 * decides it), a completed one takes it as the older report it is.
 */
export function reportProgress(
  ctx: HeadsetContext,
  lastSeen: LastSeenBuffer,
  report: Report<ProgressBody>,
): Promise<SessionProgressResponse> {
  const { device, sessionId, body } = report;
  return acceptReport(ctx, lastSeen, 'progress', report, async ({ target, now, key }) => {
    if (body.task) checkTaskNumbers([body.task], target.maxTasks, 'body.task.number');
    const occurredAt = reportedTime(body.occurred_at, target.startedAt, now);
    const windowStart = lateWindowStart(ctx, now);
    const progress = await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('sessions')
        .set({
          completed_tasks: raisedTaskCount(body.completed_tasks),
          ...(body.seq !== undefined
            ? { progress_seq: sql<number>`greatest(coalesce(progress_seq, 0), ${body.seq}::int)` }
            : {}),
        })
        .where('id', '=', sessionId)
        .where('device_id', '=', device.id)
        .where((eb) =>
          eb.or([
            eb('status', 'in', ['active', 'completed']),
            eb.and([
              eb('status', 'in', ['disconnected', 'timeout']),
              eb('ended_at', '>=', windowStart),
            ]),
          ]),
        )
        .returning([
          'id',
          'status',
          'completed_tasks',
          'max_tasks',
          'device_id',
          'organization_id',
          'progress_seq',
          'vr_user_name',
          'scenario_name',
          'level_name',
          // As it was before this statement (its snapshot), for the audit log.
          sql<number>`(SELECT b.completed_tasks FROM sessions b WHERE b.id = sessions.id)`.as(
            'completed_tasks_before',
          ),
        ])
        .executeTakeFirst();
      if (!row) return undefined;
      const older =
        body.seq !== undefined && row.progress_seq !== null && row.progress_seq > body.seq;
      const [task] = body.task
        ? await storeTasks(trx, sessionId, [body.task], now, { occurredAt, older })
        : [];
      if (task || row.completed_tasks !== row.completed_tasks_before) {
        await recordAudit(trx, {
          by: headsetSource(device, report.request),
          at: now,
          action: 'session.progress',
          organizationId: row.organization_id,
          target: { type: 'session', id: sessionId, label: sessionLabel(row) },
          changes: {
            completed_tasks: [row.completed_tasks_before, row.completed_tasks],
            ...(task ? { task: [null, task] } : {}),
          },
        });
      }
      // The launch description a heartbeat answers carries completed_tasks.
      if (row.status === 'active') await ctx.deviceEvents.changed(trx, device.id);
      const answer = progressAnswer(row);
      if (key) await storeAnswer(trx, key, answer, now);
      return { row, task, answer };
    });
    return (
      progress && {
        answer: progress.answer,
        publish: () => publishSession(ctx.live, 'progress', progress.row, progress.task),
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
