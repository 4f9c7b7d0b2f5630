import crypto from 'node:crypto';
import { MFA_RECOVERY_CODE_COUNT } from '@vrtc/contract';
import type { Db, Tx } from '../platform/database/db.ts';
import { hashToken } from './tokens.ts';

/**
 * Recovery codes (decision 031): ten per account, each of ten characters from a 32-letter
 * alphabet (50 random bits), shown once as `xxxxx-xxxxx` and kept only as a SHA-256 hash. They are
 * random, not chosen, so a fast hash holds them as it holds sign-in tokens. Each works once.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789'.padEnd(32, '0');

function newCode(): string {
  const bytes = crypto.randomBytes(10);
  const letters = [...bytes].map((byte) => ALPHABET[byte % 32]).join('');
  return `${letters.slice(0, 5)}-${letters.slice(5)}`;
}

/** What a person types, as it was issued: case, spaces and dashes do not matter. */
const normalised = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Replaces the account's codes with new ones; answers them (the only time they are seen). */
export async function issueRecoveryCodes(trx: Tx, accountId: string, now: Date): Promise<string[]> {
  await trx.deleteFrom('mfa_recovery_codes').where('account_id', '=', accountId).execute();
  const codes = Array.from({ length: MFA_RECOVERY_CODE_COUNT }, newCode);
  await trx
    .insertInto('mfa_recovery_codes')
    .values(
      codes.map((code) => ({
        account_id: accountId,
        code_hash: hashToken(normalised(code)),
        created_at: now,
      })),
    )
    .execute();
  return codes;
}

export async function recoveryCodesLeft(db: Db | Tx, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Uses up one of the account's codes: true when the code was one of them, unused. The update
 * itself decides, so two requests with one code cannot both succeed.
 */
export async function takeRecoveryCode(
  trx: Tx,
  accountId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const used = await trx
    .updateTable('mfa_recovery_codes')
    .set({ used_at: now })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', hashToken(normalised(code)))
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return used !== undefined;
}
