import crypto from 'node:crypto';
import type { MfaChallenge, MfaMethod } from '@vrtc/contract';
import type { Db, Tx } from '../platform/database/db.ts';
import type { ServiceContext } from '../platform/service/context.ts';
import type { Role } from '../platform/database/schema.ts';
import { AppError } from '../platform/service/errors.ts';
import { mfaRequiredFor } from './mfa-policy.ts';
import { recoveryCodesLeft } from './mfa-recovery.ts';
import { hasConfirmedTotp } from './mfa-totp.ts';
import { hashToken, newToken } from './tokens.ts';

/**
 * A sign-in between its two steps (decision 031): the password was right, the second factor is
 * still owed. The client holds a random token (5 minutes, used once), the database its hash; the
 * passkey's challenge for this sign-in is kept on the same row. A passkey's registration keeps
 * its challenge in a row of its own (purpose `register`).
 */
export const MFA_CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const mfaInvalid = (message = 'The code or passkey was not accepted') =>
  new AppError('mfa_invalid', message);

/** The second factors an account has (recovery codes count only beside a factor). */
export async function methodsOf(db: Db | Tx, accountId: string): Promise<MfaMethod[]> {
  const passkeys = await db
    .selectFrom('mfa_passkeys')
    .select('id')
    .where('account_id', '=', accountId)
    .limit(1)
    .execute();
  const methods: MfaMethod[] = [];
  if (await hasConfirmedTotp(db, accountId)) methods.push('totp');
  if (passkeys.length > 0) methods.push('passkey');
  if (methods.length > 0 && (await recoveryCodesLeft(db, accountId)) > 0) {
    methods.push('recovery_code');
  }
  return methods;
}

/**
 * What follows a right password: the challenge of an account with a factor; for one that must
 * have a factor and has none, a sign-in for its enrolment only; else nothing (signed in).
 */
export async function secondStepOf(
  ctx: ServiceContext,
  account: { id: string; role: Role; organization_id: string },
  now: Date,
): Promise<{ challenge?: MfaChallenge; enrolmentOnly?: boolean }> {
  const methods = await methodsOf(ctx.db, account.id);
  if (methods.length > 0) {
    const { token, hash } = newToken();
    const expiresAt = new Date(now.getTime() + MFA_CHALLENGE_TTL_MS);
    await ctx.db.deleteFrom('mfa_challenges').where('expires_at', '<', now).execute();
    await ctx.db
      .insertInto('mfa_challenges')
      .values({
        token_hash: hash,
        account_id: account.id,
        purpose: 'sign_in',
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    return {
      challenge: {
        mfa_required: true,
        mfa_token: token,
        expires_at: expiresAt.toISOString(),
        methods,
      },
    };
  }
  return { enrolmentOnly: await mfaRequiredFor(ctx.db, account) };
}

/** The unexpired sign-in a token names, or mfa_invalid. */
export async function openSignInChallenge(db: Db | Tx, token: string, now: Date) {
  const row = await db
    .selectFrom('mfa_challenges')
    .select(['id', 'account_id', 'webauthn_challenge'])
    .where('token_hash', '=', hashToken(token))
    .where('purpose', '=', 'sign_in')
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) throw mfaInvalid('This sign-in has expired: enter your password again');
  return row;
}

/** Keeps a passkey registration's challenge for the account (one at a time). */
export async function keepRegistrationChallenge(
  trx: Tx,
  accountId: string,
  challenge: string,
  now: Date,
): Promise<void> {
  await trx
    .deleteFrom('mfa_challenges')
    .where('account_id', '=', accountId)
    .where('purpose', '=', 'register')
    .execute();
  await trx
    .insertInto('mfa_challenges')
    .values({
      token_hash: hashToken(crypto.randomBytes(32).toString('base64url')),
      account_id: accountId,
      purpose: 'register',
      webauthn_challenge: challenge,
      created_at: now,
      expires_at: new Date(now.getTime() + MFA_CHALLENGE_TTL_MS),
    })
    .execute();
}

/** Takes (removes) the account's registration challenge, if unexpired. */
export async function takeRegistrationChallenge(
  trx: Tx,
  accountId: string,
  now: Date,
): Promise<string | undefined> {
  const row = await trx
    .deleteFrom('mfa_challenges')
    .where('account_id', '=', accountId)
    .where('purpose', '=', 'register')
    .returning(['webauthn_challenge', 'expires_at'])
    .executeTakeFirst();
  return row && row.expires_at > now ? (row.webauthn_challenge ?? undefined) : undefined;
}
