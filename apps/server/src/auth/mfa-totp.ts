import * as OTPAuth from 'otpauth';
import { renderSVG } from 'uqr';
import type { TotpEnrolment } from '@vrtc/contract';
import type { Config } from '../platform/config/config.ts';
import { dataDirSecret } from '../platform/config/signing-secret.ts';
import type { Db, Tx } from '../platform/database/db.ts';
import { openWith, sealWith } from '../platform/service/sealed.ts';

/**
 * The authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30 s, as every app reads it) through
 * `otpauth`. The secret is sealed (platform/service/sealed.ts) under a key kept in the data
 * directory (`DATA_DIR/mfa-key`), never in the database; a code is taken once (the step it was
 * taken for is kept) and one step of clock drift either way is allowed.
 */
const ISSUER = 'VRTC';
const PERIOD_SECONDS = 30;

type KeyConfig = Pick<Config, 'dataDir'>;
const mfaKey = (config: KeyConfig) => dataDirSecret(config.dataDir, 'mfa-key');

const totpOf = (secret: OTPAuth.Secret, email: string) =>
  new OTPAuth.TOTP({ issuer: ISSUER, label: email, secret, period: PERIOD_SECONDS, digits: 6 });

/** A new secret for the account's app, stored unconfirmed (replacing one not yet confirmed). */
export async function beginTotp(
  db: Db | Tx,
  config: KeyConfig,
  account: { id: string; email: string },
  now: Date,
): Promise<TotpEnrolment> {
  const secret = new OTPAuth.Secret({ size: 20 });
  const sealed = sealWith(mfaKey(config), secret.base32);
  await db
    .insertInto('mfa_totp')
    .values({ account_id: account.id, secret_sealed: sealed, created_at: now })
    .onConflict((oc) =>
      oc
        .column('account_id')
        .doUpdateSet({ secret_sealed: sealed, created_at: now, last_step: null })
        .where('mfa_totp.confirmed_at', 'is', null),
    )
    .execute();
  const uri = totpOf(secret, account.email).toString();
  return { secret: secret.base32, otpauth_uri: uri, qr_svg: renderSVG(uri, { border: 2 }) };
}

/**
 * Takes a code of the account's app (confirmed, or `pending` for the enrolment's confirmation):
 * true when it is the code of the current step (or one either side) and no code of that step or
 * a later one was taken before. Marks the step taken, in the caller's transaction.
 */
export async function takeTotpCode(
  trx: Tx,
  config: KeyConfig,
  accountId: string,
  code: string,
  now: Date,
  state: 'confirmed' | 'pending' = 'confirmed',
): Promise<boolean> {
  const row = await trx
    .selectFrom('mfa_totp')
    .select(['secret_sealed', 'last_step'])
    .where('account_id', '=', accountId)
    .where('confirmed_at', state === 'confirmed' ? 'is not' : 'is', null)
    .forUpdate()
    .executeTakeFirst();
  const digits = code.replace(/\s/g, '');
  if (!row || !/^\d{6}$/.test(digits)) return false;
  const secret = OTPAuth.Secret.fromBase32(openWith(mfaKey(config), row.secret_sealed));
  const timestamp = now.getTime();
  const delta = totpOf(secret, '').validate({ token: digits, timestamp, window: 1 });
  if (delta === null) return false;
  const step = Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
  if (row.last_step !== null && step <= Number(row.last_step)) return false;
  await trx
    .updateTable('mfa_totp')
    .set({ last_step: step, ...(state === 'pending' ? { confirmed_at: now } : {}) })
    .where('account_id', '=', accountId)
    .execute();
  return true;
}

export async function hasConfirmedTotp(db: Db | Tx, accountId: string): Promise<boolean> {
  const row = await db
    .selectFrom('mfa_totp')
    .select('account_id')
    .where('account_id', '=', accountId)
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
  return row !== undefined;
}
