import crypto from 'node:crypto';
import type { EnrollBody, EnrollmentCode, EnrollResponse } from '@vrtc/contract';
import { newToken } from '../auth/tokens.ts';
import type { Caller } from '../platform/http/caller.ts';
import { createdChanges, headsetSource, recordAudit } from '../audit/audit.ts';
import { recordOutbox } from '../outbox/outbox.ts';
import { isUniqueViolation } from '../platform/database/pg-errors.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import { AppError } from '../platform/service/errors.ts';
import { checkQuota, quotaExceeded } from '../platform/service/quota.ts';
import {
  countAttempt,
  refundAttempt,
  takeAttempt,
  type Limit,
} from '../platform/service/rate-limit.ts';
import { iso } from '../platform/service/serialize.ts';
import type { HeadsetContext } from './headset-context.ts';

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
          // The code itself is a secret (AUDIT_REDACTED): the log tells that one was issued,
          // named by its organisation (an organisation has one code; its id told a reader nothing).
          await recordAudit(trx, {
            by: caller,
            at: now,
            action: replaceValid ? 'enrollment_code.renewed' : 'enrollment_code.issued',
            target: { type: 'enrollment_code', id: organizationId, label: caller.organizationName },
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
      target: {
        type: 'enrollment_code',
        id: caller.organizationId,
        label: caller.organizationName,
      },
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
 * Why a code was refused: a code of an active organisation that has run out says so
 * (`details.reason: "expired"`), so the headset asks for a new code instead of a retyped one;
 * anything else is the same answer for a wrong code, an old one renewed since, or a deactivated
 * organisation. Both count against the address like every refusal.
 */
async function refusedCode(ctx: HeadsetContext, code: string): Promise<AppError> {
  const expired = await ctx.db
    .selectFrom('enrollment_codes as e')
    .innerJoin('organizations as o', 'o.id', 'e.organization_id')
    .select('e.code')
    .where('e.code', '=', code)
    .where('o.active', '=', true)
    .executeTakeFirst();
  return expired
    ? new AppError('enrollment_code_invalid', 'Enrollment code has expired', {
        details: { reason: 'expired' },
      })
    : new AppError('enrollment_code_invalid', INVALID_CODE_MESSAGE);
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
  if (!owner) throw await refusedCode(ctx, code);
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
