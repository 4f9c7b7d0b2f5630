import type {
  MfaProofBody,
  MfaStatus,
  PasskeyRegisterBody,
  PasskeyRegistered,
  RecoveryCodes,
  TotpEnrolment,
} from '@vrtc/contract';
import type { Tx } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { AppError, notFound } from '../platform/service/errors.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Caller } from '../platform/http/caller.ts';
import { confirmOwnPassword } from './auth.service.ts';
import { countPasswordAttempt, forgivePasswordAttempt, loginLimits } from './sign-in-limits.ts';
import {
  keepRegistrationChallenge,
  methodsOf,
  mfaInvalid,
  takeRegistrationChallenge,
} from './mfa-challenge.ts';
import { mfaRequiredFor } from './mfa-policy.ts';
import {
  registrationOptions,
  toPasskey,
  verifiedRegistration,
  type RelyingParty,
} from './mfa-passkeys.ts';
import { issueRecoveryCodes, recoveryCodesLeft, takeRecoveryCode } from './mfa-recovery.ts';
import { beginTotp, hasConfirmedTotp, takeTotpCode } from './mfa-totp.ts';

/**
 * The caller's own second factors (decision 031): the authenticator app, passkeys, recovery
 * codes. Every change is audited in its transaction, never with a secret or a code. A code typed
 * here counts, as at the sign-in, under the sign-in limits (sign-in-limits.ts).
 */

const target = (caller: Caller) => ({
  type: 'account' as const,
  id: caller.accountId,
  label: caller.email,
});

const accountOf = (caller: Caller) => ({
  role: caller.role,
  organization_id: caller.organizationId,
});

export async function mfaStatus(ctx: ServiceContext, caller: Caller): Promise<MfaStatus> {
  const passkeys = await ctx.db
    .selectFrom('mfa_passkeys')
    .select(['id', 'name', 'created_at', 'last_used_at'])
    .where('account_id', '=', caller.accountId)
    .orderBy('created_at')
    .execute();
  return {
    totp: await hasConfirmedTotp(ctx.db, caller.accountId),
    passkeys: passkeys.map(toPasskey),
    recovery_codes_left: await recoveryCodesLeft(ctx.db, caller.accountId),
    required: await mfaRequiredFor(ctx.db, accountOf(caller)),
  };
}

export async function startTotp(ctx: ServiceContext, caller: Caller): Promise<TotpEnrolment> {
  if (await hasConfirmedTotp(ctx.db, caller.accountId)) {
    throw new AppError('conflict', 'An authenticator app is set up already: remove it first');
  }
  const account = { id: caller.accountId, email: caller.email };
  return beginTotp(ctx.db, ctx.config, account, ctx.clock.now());
}

/**
 * The account has its first factor: recovery codes for it (when it had none), and a sign-in made
 * for the enrolment only becomes a whole one.
 */
async function factorAdded(trx: Tx, caller: Caller, now: Date): Promise<string[]> {
  await trx
    .updateTable('auth_tokens')
    .set({ mfa_enrolment_only: false })
    .where('account_id', '=', caller.accountId)
    .where('mfa_enrolment_only', '=', true)
    .execute();
  if ((await recoveryCodesLeft(trx, caller.accountId)) > 0) return [];
  return issueRecoveryCodes(trx, caller.accountId, now);
}

/** Runs `check` counted as a sign-in attempt of the caller; mfa_invalid when it answers false. */
async function counted(
  ctx: ServiceContext,
  caller: Caller,
  check: (trx: Tx, now: Date) => Promise<boolean>,
  after: (trx: Tx, now: Date) => Promise<void>,
) {
  const now = ctx.clock.now();
  const limits = loginLimits(caller.email, caller.request?.ip ?? '');
  await countPasswordAttempt(ctx, now, limits);
  const accepted = await ctx.db.transaction().execute(async (trx) => {
    if (!(await check(trx, now))) return false;
    await after(trx, now);
    return true;
  });
  if (!accepted) throw mfaInvalid();
  await forgivePasswordAttempt(ctx, now, limits);
}

export async function confirmTotp(
  ctx: ServiceContext,
  caller: Caller,
  code: string,
): Promise<RecoveryCodes> {
  let codes: string[] = [];
  await counted(
    ctx,
    caller,
    (trx, now) => takeTotpCode(trx, ctx.config, caller.accountId, code, now, 'pending'),
    async (trx, now) => {
      codes = await factorAdded(trx, caller, now);
      await recordAudit(trx, {
        by: caller,
        at: now,
        action: 'mfa.totp_enrolled',
        target: target(caller),
        changes: { totp: [false, true] },
      });
    },
  );
  return { recovery_codes: codes };
}

/**
 * The holder proves it is itself before a factor goes or codes are renewed: its password (checked
 * as a sign-in's), or a code of its app or a recovery code (the recovery code is used up).
 */
async function proveHolder(ctx: ServiceContext, caller: Caller, proof: MfaProofBody) {
  if (proof.password !== undefined) {
    if (await confirmOwnPassword(ctx, caller, proof.password, caller.request?.ip ?? '')) return;
    throw mfaInvalid('The password is wrong');
  }
  const code = proof.code;
  if (code === undefined) throw mfaInvalid('Give your password or a code');
  await counted(
    ctx,
    caller,
    async (trx, now) =>
      (await takeTotpCode(trx, ctx.config, caller.accountId, code, now)) ||
      (await takeRecoveryCode(trx, caller.accountId, code, now)),
    async () => undefined,
  );
}

/** Refuses to remove the last factor of an account that must have one. */
async function refuseLastRequiredFactor(trx: Tx, caller: Caller) {
  const left = (await methodsOf(trx, caller.accountId)).filter((m) => m !== 'recovery_code');
  if (left.length === 0 && (await mfaRequiredFor(trx, accountOf(caller)))) {
    throw new AppError(
      'mfa_enrolment_required',
      'Your organisation requires a second factor: add another before removing this one',
    );
  }
  if (left.length === 0) {
    await trx.deleteFrom('mfa_recovery_codes').where('account_id', '=', caller.accountId).execute();
  }
}

export async function removeTotp(ctx: ServiceContext, caller: Caller, proof: MfaProofBody) {
  if (!(await hasConfirmedTotp(ctx.db, caller.accountId))) throw notFound('Authenticator app');
  await proveHolder(ctx, caller, proof);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('mfa_totp').where('account_id', '=', caller.accountId).execute();
    await refuseLastRequiredFactor(trx, caller);
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'mfa.totp_removed',
      target: target(caller),
      changes: { totp: [true, false] },
    });
  });
}

export async function renewRecoveryCodes(
  ctx: ServiceContext,
  caller: Caller,
  proof: MfaProofBody,
): Promise<RecoveryCodes> {
  await proveHolder(ctx, caller, proof);
  return ctx.db.transaction().execute(async (trx) => {
    const before = await recoveryCodesLeft(trx, caller.accountId);
    const codes = await issueRecoveryCodes(trx, caller.accountId, ctx.clock.now());
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'mfa.recovery_codes_renewed',
      target: target(caller),
      changes: { recovery_codes_left: [before, codes.length] },
    });
    return { recovery_codes: codes };
  });
}

export async function passkeyRegistrationOptions(
  ctx: ServiceContext,
  caller: Caller,
  rp: RelyingParty,
) {
  const options = await registrationOptions(
    ctx.db,
    { id: caller.accountId, email: caller.email },
    rp,
  );
  await ctx.db
    .transaction()
    .execute((trx) =>
      keepRegistrationChallenge(trx, caller.accountId, options.challenge, ctx.clock.now()),
    );
  return { options };
}

export async function addPasskey(
  ctx: ServiceContext,
  caller: Caller,
  body: PasskeyRegisterBody,
  rp: RelyingParty,
): Promise<PasskeyRegistered> {
  const now = ctx.clock.now();
  return ctx.db.transaction().execute(async (trx) => {
    const challenge = await takeRegistrationChallenge(trx, caller.accountId, now);
    if (!challenge) throw mfaInvalid('The passkey’s registration has expired: try again');
    const credential = await verifiedRegistration(body.credential, challenge, rp);
    const name = body.name.trim();
    const row = await trx
      .insertInto('mfa_passkeys')
      .values({ ...credential, account_id: caller.accountId, name, created_at: now })
      .onConflict((oc) => oc.column('credential_id').doNothing())
      .returning(['id', 'name', 'created_at', 'last_used_at'])
      .executeTakeFirst();
    if (!row) throw mfaInvalid('This passkey is registered already');
    const codes = await factorAdded(trx, caller, now);
    await recordAudit(trx, {
      by: caller,
      at: now,
      action: 'mfa.passkey_added',
      target: target(caller),
      changes: { passkey: [null, name] },
    });
    return { passkey: toPasskey(row), recovery_codes: codes };
  });
}

export async function removePasskey(ctx: ServiceContext, caller: Caller, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const removed = await trx
      .deleteFrom('mfa_passkeys')
      .where('id', '=', id)
      .where('account_id', '=', caller.accountId)
      .returning('name')
      .executeTakeFirst();
    if (!removed) throw notFound('Passkey');
    await refuseLastRequiredFactor(trx, caller);
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'mfa.passkey_removed',
      target: target(caller),
      changes: { passkey: [removed.name, null] },
    });
  });
}
