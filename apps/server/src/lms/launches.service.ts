import crypto from 'node:crypto';
import {
  LMS_PIN_TTL_MS,
  type ClaimLaunchBody,
  type LmsLaunch,
  type LmsLaunchBody,
  type LmsLaunchCreated,
  type LmsResult,
  type StartedSession,
} from '@vrtc/contract';
import { sql } from 'kysely';
import { createdChanges, headsetSource, recordAudit, type AuditSource } from '../audit/audit.ts';
import type { Tx } from '../platform/database/db.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import { checkQuota } from '../platform/service/quota.ts';
import { AppError } from '../platform/service/errors.ts';
import { refundAttempt, takeAttempt, type Limit } from '../platform/service/rate-limit.ts';
import { iso, isoOrNull } from '../platform/service/serialize.ts';
import { startSessionAs, type SessionsContext } from '../sessions/sessions.service.ts';
import { keyHash } from './package-keys.service.ts';

/**
 * Launches from an LMS (docs/lms.md, decision 030): the launch page asks for a PIN with its
 * package key, follows the launch with its token, and a headset of the organisation claims the
 * PIN, which starts the session as the console's start does.
 */

const WINDOW_MS = 15 * 60 * 1000;
/** Per client address: a classroom behind one NAT opens a few dozen launches, not hundreds. */
const LAUNCHES_PER_ADDRESS = 60;
/** A page polls every 3 s: 300 in 15 minutes per learner, a few classrooms behind one address. */
const POLLS_PER_ADDRESS = 3000;
const WRONG_PINS_PER_DEVICE = 10;
const WRONG_PINS_PER_ORGANIZATION = 100;

const KEY_INVALID = 'Unknown or revoked package key';
const TOKEN_INVALID = 'Unknown launch token';
const PIN_INVALID = 'No launch is waiting with this PIN';

const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const newPin = () => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');

/** A launch's row with what its page shows. */
interface LaunchRow {
  id: string;
  pin: string;
  pin_expires_at: Date;
  claimed_at: Date | null;
  vr_user_name: string;
  level_name: string;
  level_name_en: string | null;
  status: LmsResult['status'] | null;
  success: boolean | null;
  completed_tasks: number | null;
  max_tasks: number | null;
  duration_seconds: number | null;
  ended_at: Date | null;
  late_result: boolean | null;
}

function toLaunch(row: LaunchRow, now: Date): LmsLaunch {
  const waiting = row.claimed_at === null;
  let state: LmsLaunch['state'];
  if (waiting) state = row.pin_expires_at > now ? 'waiting' : 'expired';
  else if (row.status === null) state = 'expired';
  else state = row.status === 'active' ? 'running' : 'ended';
  return {
    launch_id: row.id,
    state,
    pin: state === 'waiting' ? row.pin : null,
    pin_expires_at: iso(row.pin_expires_at),
    learner_name: row.vr_user_name,
    level_name: row.level_name,
    level_name_en: row.level_name_en,
    result: state === 'ended' ? resultOf(row) : null,
  };
}

/** score: per cent of the level's tasks done (a level without tasks: 100 on success). */
function resultOf(row: LaunchRow): LmsResult {
  const max = row.max_tasks ?? 0;
  const done = row.completed_tasks ?? 0;
  const score = max > 0 ? Math.round((100 * Math.min(done, max)) / max) : row.success ? 100 : 0;
  return {
    status: row.status!,
    success: row.success,
    completed_tasks: done,
    max_tasks: max,
    score,
    duration_seconds: row.duration_seconds,
    ended_at: isoOrNull(row.ended_at),
    late_result: row.late_result ?? false,
  };
}

function readLaunch(db: SessionsContext['db'] | Tx, where: { id?: string; tokenHash?: string }) {
  let query = db
    .selectFrom('lms_launches as x')
    .innerJoin('vr_users as v', 'v.id', 'x.vr_user_id')
    .innerJoin('levels as l', 'l.id', 'x.level_id')
    .leftJoin('sessions as s', 's.id', 'x.session_id')
    .select([
      'x.id',
      'x.pin',
      'x.pin_expires_at',
      'x.claimed_at',
      'v.name as vr_user_name',
      'l.name as level_name',
      'l.name_en as level_name_en',
      's.status',
      's.success',
      's.completed_tasks',
      's.max_tasks',
      's.duration_seconds',
      's.ended_at',
      's.late_result',
    ]);
  if (where.id) query = query.where('x.id', '=', where.id);
  if (where.tokenHash) query = query.where('x.token_hash', '=', where.tokenHash);
  return query.executeTakeFirst();
}

/** The organisation's actor for what a launch does by itself (a learner seen first). */
const lmsSource = (organizationId: string, request?: RequestFacts): AuditSource => ({
  actor: { type: 'system', id: null, email: null, role: null },
  organizationId,
  request,
});

/**
 * A launch for the learner of the LMS: the package key must be live; the learner is the VR user
 * with this external id (a new one is created, audited); the level is the package's, or for a
 * qualification its first level the learner has not passed yet.
 */
export async function createLaunch(
  ctx: SessionsContext,
  body: LmsLaunchBody,
  request: RequestFacts,
): Promise<LmsLaunchCreated> {
  const now = ctx.clock.now();
  await takeAttempt(ctx.db, now, [
    { key: `lms-launch:${request.ip ?? ''}`, max: LAUNCHES_PER_ADDRESS, windowMs: WINDOW_MS },
  ]);
  const token = crypto.randomBytes(24).toString('base64url');
  const id = await ctx.db.transaction().execute(async (trx) => {
    const key = await trx
      .selectFrom('lms_package_keys')
      .select(['id', 'organization_id', 'level_id', 'qualification_id'])
      .where('key_hash', '=', keyHash(body.package_key))
      .where('revoked_at', 'is', null)
      .forShare()
      .executeTakeFirst();
    if (!key) throw new AppError('lms_key_invalid', KEY_INVALID);
    const org = key.organization_id;
    const vrUserId = await learnerOf(ctx, trx, org, body, request);
    const levelId = key.level_id ?? (await nextLevelOf(trx, key.qualification_id!, vrUserId));
    const pin = await drawPin(trx, org, now);
    const launch = await trx
      .insertInto('lms_launches')
      .values({
        organization_id: org,
        package_key_id: key.id,
        vr_user_id: vrUserId,
        level_id: levelId,
        pin,
        pin_expires_at: new Date(now.getTime() + LMS_PIN_TTL_MS),
        token_hash: tokenHash(token),
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return launch.id;
  });
  const row = await readLaunch(ctx.db, { id });
  return { ...toLaunch(row!, now), launch_token: token };
}

/** The learner's VR user by external id, made on first sight (two launches at once: one). */
async function learnerOf(
  ctx: SessionsContext,
  trx: Tx,
  organizationId: string,
  body: LmsLaunchBody,
  request: RequestFacts,
): Promise<string> {
  const externalId = body.learner_id.trim();
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${organizationId}::text || ':lms:' || ${externalId}::text, 0))`.execute(
    trx,
  );
  const known = await trx
    .selectFrom('vr_users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  if (known) return known.id;
  await checkQuota(trx, organizationId, 'vr_users', ctx.config.quotas.vrUsers);
  const name = (body.learner_name ?? '').trim() || externalId;
  const now = ctx.clock.now();
  const created = await trx
    .insertInto('vr_users')
    .values({
      organization_id: organizationId,
      name,
      notes: null,
      external_id: externalId,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordAudit(trx, {
    by: lmsSource(organizationId, request),
    at: now,
    action: 'vr_user.created',
    target: { type: 'vr_user', id: created.id, label: name },
    changes: createdChanges({
      name,
      notes: null,
      external_id: externalId,
      created_by: 'lms_launch',
    }),
  });
  return created.id;
}

/**
 * The qualification's first level (by level number, then id) the learner has no successful
 * session of; all passed: the first again.
 */
async function nextLevelOf(trx: Tx, qualificationId: string, vrUserId: string): Promise<string> {
  const levels = await trx
    .selectFrom('qualification_levels as q')
    .innerJoin('levels as l', 'l.id', 'q.level_id')
    .select([
      'l.id',
      sql<boolean>`EXISTS (SELECT 1 FROM sessions s WHERE s.level_id = l.id AND s.vr_user_id = ${vrUserId} AND s.success)`.as(
        'passed',
      ),
    ])
    .where('q.qualification_id', '=', qualificationId)
    .orderBy('l.level_number')
    .orderBy('l.id')
    .execute();
  const next = levels.find((level) => !level.passed) ?? levels[0];
  if (!next) throw new AppError('lms_key_invalid', 'The qualification has no levels');
  return next.id;
}

/** Six digits no other waiting launch of the organisation holds, drawn under its lock. */
async function drawPin(trx: Tx, organizationId: string, now: Date): Promise<string> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${organizationId}::text || ':lms-pin', 0))`.execute(
    trx,
  );
  for (;;) {
    const pin = newPin();
    const taken = await trx
      .selectFrom('lms_launches')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('pin', '=', pin)
      .where('claimed_at', 'is', null)
      .where('pin_expires_at', '>', now)
      .executeTakeFirst();
    if (!taken) return pin;
  }
}

/** The launch of a launch token, as its page polls it. */
export async function getLaunch(
  ctx: SessionsContext,
  token: string,
  request: RequestFacts,
): Promise<LmsLaunch> {
  const now = ctx.clock.now();
  await takeAttempt(ctx.db, now, [
    { key: `lms-poll:${request.ip ?? ''}`, max: POLLS_PER_ADDRESS, windowMs: WINDOW_MS },
  ]);
  const row = await readLaunch(ctx.db, { tokenHash: tokenHash(token) });
  if (!row) throw new AppError('lms_key_invalid', TOKEN_INVALID);
  return toLaunch(row, now);
}

export interface ClaimingDevice {
  id: string;
  organizationId: string;
}

const pinLimits = (device: ClaimingDevice): Limit[] => [
  { key: `lms-pin:device:${device.id}`, max: WRONG_PINS_PER_DEVICE, windowMs: WINDOW_MS },
  {
    key: `lms-pin:org:${device.organizationId}`,
    max: WRONG_PINS_PER_ORGANIZATION,
    windowMs: WINDOW_MS,
  },
];

/**
 * A headset claims a waiting launch of its organisation by PIN: the session starts for the
 * launch's learner on its level through the sessions service (same checks, record, live view
 * and audit event, the headset as actor, started_by lms_launch). The launch is marked in the
 * start's transaction, so a PIN starts one session however many claims race.
 */
export async function claimLaunch(
  ctx: SessionsContext,
  device: ClaimingDevice,
  body: ClaimLaunchBody,
  request: RequestFacts,
): Promise<StartedSession> {
  const now = ctx.clock.now();
  const limits = pinLimits(device);
  await takeAttempt(ctx.db, now, limits);
  const launch = await ctx.db
    .selectFrom('lms_launches as x')
    .innerJoin('lms_package_keys as k', 'k.id', 'x.package_key_id')
    .innerJoin('vr_users as v', 'v.id', 'x.vr_user_id')
    .select(['x.id', 'x.level_id', 'x.vr_user_id', 'v.name'])
    .where('x.organization_id', '=', device.organizationId)
    .where('x.pin', '=', body.pin)
    .where('x.claimed_at', 'is', null)
    .where('x.pin_expires_at', '>', now)
    .where('k.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!launch) throw new AppError('launch_pin_invalid', PIN_INVALID);
  await refundAttempt(
    ctx.db,
    now,
    limits.map((limit) => limit.key),
  );
  return startSessionAs(
    ctx,
    {
      organizationId: device.organizationId,
      accountId: null,
      email: null,
      by: headsetSource(device, request),
      deviceIsCaller: true,
      via: 'lms_launch',
      inTransaction: async (trx, session) => {
        const claimed = await trx
          .updateTable('lms_launches')
          .set({ claimed_at: now, session_id: session.id })
          .where('id', '=', launch.id)
          .where('claimed_at', 'is', null)
          .returning('id')
          .executeTakeFirst();
        // Another claim took it first: this start rolls back.
        if (!claimed) throw new AppError('launch_pin_invalid', PIN_INVALID);
      },
    },
    {
      device_id: device.id,
      level_id: launch.level_id,
      vr_user_id: launch.vr_user_id,
      vr_user_name: launch.name,
      selected_options: [],
    },
  );
}
