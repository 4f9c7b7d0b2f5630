import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Passkey } from '@vrtc/contract';
import type { Db, Tx } from '../platform/database/db.ts';
import { mfaInvalid } from './mfa-challenge.ts';

/**
 * Passkeys (WebAuthn) through `@simplewebauthn/server`: the relying party is PUBLIC_URL's host
 * (or, without it, the host the request was made to), the origin the console's. Only the public
 * key and the signature counter are kept. User verification is asked for but not required: the
 * passkey is the second factor, after the password.
 */
export interface RelyingParty {
  id: string;
  origin: string;
}

const RP_NAME = 'VRTC';

interface PasskeyRow {
  id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

export const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at.toISOString(),
  last_used_at: row.last_used_at?.toISOString() ?? null,
});

const credentialsOf = (db: Db | Tx, accountId: string) =>
  db
    .selectFrom('mfa_passkeys')
    .select(['id', 'credential_id', 'public_key', 'counter', 'transports'])
    .where('account_id', '=', accountId)
    .execute();

const transportsOf = (text: string) => JSON.parse(text) as AuthenticatorTransport[];

/** A browser's WebAuthn answer, parsed (mfa_invalid when it is no JSON object). */
function parsed<T>(json: string): T {
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === 'object') return value as T;
  } catch {
    // answered below
  }
  throw mfaInvalid('The passkey’s answer could not be read');
}

export async function registrationOptions(
  db: Db | Tx,
  account: { id: string; email: string },
  rp: RelyingParty,
) {
  const existing = await credentialsOf(db, account.id);
  return generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    userName: account.email,
    userID: new TextEncoder().encode(account.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({
      id: row.credential_id,
      transports: transportsOf(row.transports),
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

/** Verifies the browser's new credential against the challenge; answers what to store. */
export async function verifiedRegistration(json: string, challenge: string, rp: RelyingParty) {
  const result = await verifyRegistrationResponse({
    response: parsed<RegistrationResponseJSON>(json),
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const }));
  if (!result.verified) throw mfaInvalid('The passkey could not be registered');
  const { credential } = result.registrationInfo;
  return {
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? []),
  };
}

export async function authenticationOptions(db: Db | Tx, accountId: string, rp: RelyingParty) {
  const existing = await credentialsOf(db, accountId);
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: existing.map((row) => ({
      id: row.credential_id,
      transports: transportsOf(row.transports),
    })),
    userVerification: 'preferred',
  });
}

/**
 * Checks a passkey's assertion for the account against the sign-in's challenge; on success moves
 * its counter and last use on, in the caller's transaction. False when it is not the account's
 * passkey or the signature does not hold.
 */
export async function takePasskeyAssertion(
  trx: Tx,
  accountId: string,
  json: string,
  challenge: string | null,
  rp: RelyingParty,
  now: Date,
): Promise<boolean> {
  const response = parsed<AuthenticationResponseJSON>(json);
  const row = (await credentialsOf(trx, accountId)).find(
    (each) => each.credential_id === response.id,
  );
  if (!row || !challenge) return false;
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    credential: {
      id: row.credential_id,
      publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
      counter: Number(row.counter),
      transports: transportsOf(row.transports),
    },
    requireUserVerification: false,
  }).catch(() => ({ verified: false as const, authenticationInfo: undefined }));
  if (!result.verified || !result.authenticationInfo) return false;
  await trx
    .updateTable('mfa_passkeys')
    .set({ counter: result.authenticationInfo.newCounter, last_used_at: now })
    .where('id', '=', row.id)
    .execute();
  return true;
}
