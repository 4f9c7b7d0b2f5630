import type { MfaResetBody, MfaVerifyBody, LoginResponse } from '@vrtc/contract';
import type { Db, Tx } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import { notFound } from '../platform/service/errors.ts';
import type { RequestFacts } from '../platform/http/request-facts.ts';
import { recordAudit, recordAuditAlone } from '../audit/audit.ts';
import type { Caller } from '../platform/http/caller.ts';
import { accountActor, endSignIns, finishSignIn } from './auth.service.ts';
import {
  countPasswordAttempt,
  forgivePasswordAttempt,
  loginLimits,
  type SignInSource,
} from './sign-in-limits.ts';
import { mfaInvalid, openSignInChallenge } from './mfa-challenge.ts';
import { authenticationOptions, takePasskeyAssertion, type RelyingParty } from './mfa-passkeys.ts';
import { recoveryCodesLeft, takeRecoveryCode } from './mfa-recovery.ts';
import { takeTotpCode } from './mfa-totp.ts';

/**
 * The sign-in's second step (decision 031), and a platform admin's reset of an account's factors.
 * A wrong answer counts as a failed sign-in of the account from the client, under the same limits
 * as the password (sign-in-limits.ts), and is recorded as one (never with what was typed).
 */

/** The account of a sign-in waiting for its second factor, if it may still sign in. */
const challengedAccount = (db: Db | Tx, accountId: string) =>
  db
    .selectFrom('accounts')
    .innerJoin('organizations', 'organizations.id', 'accounts.organization_id')
    .select([
      'accounts.id',
      'accounts.email',
      'accounts.role',
      'accounts.organization_id',
      'organizations.name as organization_name',
    ])
    .where('accounts.id', '=', accountId)
    .where('accounts.active', '=', true)
    .where('organizations.active', '=', true)
    .executeTakeFirst();

type ChallengedAccount = NonNullable<Awaited<ReturnType<typeof challengedAccount>>>;

/** Which factor the body answers with, checked and used up; undefined when it does not hold. */
async function takeFactor(
  ctx: ServiceContext,
  trx: Tx,
  account: ChallengedAccount,
  body: MfaVerifyBody,
  challenge: { webauthn_challenge: string | null },
  rp: RelyingParty,
  request: RequestFacts,
): Promise<string | undefined> {
  const now = ctx.clock.now();
  if (body.code !== undefined) {
    return (await takeTotpCode(trx, ctx.config, account.id, body.code, now)) ? 'totp' : undefined;
  }
  if (body.passkey !== undefined) {
    const ok = await takePasskeyAssertion(
      trx,
      account.id,
      body.passkey,
      challenge.webauthn_challenge,
      rp,
      now,
    );
    return ok ? 'passkey' : undefined;
  }
  if (body.recovery_code === undefined) return undefined;
  if (!(await takeRecoveryCode(trx, account.id, body.recovery_code, now))) return undefined;
  const left = await recoveryCodesLeft(trx, account.id);
  await recordAudit(trx, {
    by: accountActor(account, request),
    at: now,
    action: 'mfa.recovery_code_used',
    target: { type: 'account', id: account.id, label: account.email },
    changes: { recovery_codes_left: [left + 1, left] },
  });
  return 'recovery_code';
}

export async function verifyMfa(
  ctx: ServiceContext,
  body: MfaVerifyBody,
  source: SignInSource,
  rp: RelyingParty,
): Promise<LoginResponse & { token: string }> {
  const now = ctx.clock.now();
  const challenge = await openSignInChallenge(ctx.db, body.mfa_token, now);
  const account = await challengedAccount(ctx.db, challenge.account_id);
  if (!account) throw mfaInvalid('This sign-in has expired: enter your password again');
  const limits = loginLimits(account.email, source.request.ip ?? '', source.knownDevice);
  await countPasswordAttempt(ctx, now, limits);
  const factor = await ctx.db.transaction().execute(async (trx) => {
    const taken = await takeFactor(ctx, trx, account, body, challenge, rp, source.request);
    // The sign-in step is used once: a right answer ends it.
    if (taken) await trx.deleteFrom('mfa_challenges').where('id', '=', challenge.id).execute();
    return taken;
  });
  if (!factor) {
    await recordAuditAlone(ctx.db, {
      by: accountActor(account, source.request),
      at: now,
      action: 'auth.login_failed',
      outcome: 'failure',
      target: { type: 'account', id: account.id, label: account.email },
      changes: { reason: [null, 'Wrong second factor'] },
    });
    throw mfaInvalid();
  }
  await forgivePasswordAttempt(ctx, now, limits);
  return finishSignIn(ctx, account, source.request, { factor });
}

/** WebAuthn options for the sign-in's passkey; the challenge is kept on the sign-in's row. */
export async function signInPasskeyOptions(
  ctx: ServiceContext,
  mfaToken: string,
  rp: RelyingParty,
) {
  const challenge = await openSignInChallenge(ctx.db, mfaToken, ctx.clock.now());
  const options = await authenticationOptions(ctx.db, challenge.account_id, rp);
  await ctx.db
    .updateTable('mfa_challenges')
    .set({ webauthn_challenge: options.challenge })
    .where('id', '=', challenge.id)
    .execute();
  return { options };
}

/**
 * A platform admin removes every second factor of an account whose holder lost them, with the
 * reason (kept in the audit log). The account's sign-ins end; its next sign-in asks no factor
 * (or, where one is required, sends it to enrol).
 */
export async function resetAccountMfa(
  ctx: ServiceContext,
  caller: Caller,
  accountId: string,
  body: MfaResetBody,
) {
  await ctx.db.transaction().execute(async (trx) => {
    const account = await trx
      .selectFrom('accounts')
      .select(['id', 'email', 'organization_id'])
      .where('id', '=', accountId)
      .forUpdate()
      .executeTakeFirst();
    if (!account) throw notFound('Account');
    const totp = await trx.deleteFrom('mfa_totp').where('account_id', '=', accountId).execute();
    const passkeys = await trx
      .deleteFrom('mfa_passkeys')
      .where('account_id', '=', accountId)
      .returning('id')
      .execute();
    await trx.deleteFrom('mfa_recovery_codes').where('account_id', '=', accountId).execute();
    await trx.deleteFrom('mfa_challenges').where('account_id', '=', accountId).execute();
    await endSignIns(trx, accountId);
    await recordAudit(trx, {
      by: caller,
      at: ctx.clock.now(),
      action: 'mfa.reset',
      organizationId: account.organization_id,
      target: { type: 'account', id: account.id, label: account.email },
      changes: {
        reason: [null, body.reason.trim()],
        totp: [Number(totp[0]?.numDeletedRows ?? 0) > 0, false],
        passkeys: [passkeys.length, 0],
      },
    });
  });
}
