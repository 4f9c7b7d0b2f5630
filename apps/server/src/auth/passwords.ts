import { hash, verify } from '@node-rs/argon2';
import type { PasswordHashCost } from '../platform/config/config.ts';

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which isolated modules cannot import)

/**
 * How hard a new password hash is to compute (PASSWORD_HASH_COST). `standard` is Argon2id at
 * OWASP's minimum (19 MiB, 2 passes, 1 lane: the library's defaults), the only cost a server
 * outside the test suites may use; `test` is Argon2's floor, for the test suites' own accounts,
 * where hundreds of sign-ins at the standard cost took minutes. A hash carries its own
 * parameters, so verifying always follows the cost it was made with.
 */
export const ARGON2_PARAMETERS: Record<
  PasswordHashCost,
  { memoryCost: number; timeCost: number; parallelism: number }
> = {
  standard: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  test: { memoryCost: 8, timeCost: 1, parallelism: 1 },
};

export function hashPassword(
  password: string,
  cost: PasswordHashCost = 'standard',
): Promise<string> {
  return hash(password, { algorithm: ARGON2ID, ...ARGON2_PARAMETERS[cost] });
}

// Verifying against this when the email is unknown keeps the answer time the same either way (at
// the cost the accounts' hashes are made with).
const dummyHashes = new Map<PasswordHashCost, Promise<string>>();
function dummyHash(cost: PasswordHashCost): Promise<string> {
  let made = dummyHashes.get(cost);
  if (!made) {
    made = hashPassword('not-a-real-password', cost);
    dummyHashes.set(cost, made);
  }
  return made;
}
void dummyHash('standard');

export async function verifyPassword(
  storedHash: string | undefined,
  password: string,
  cost: PasswordHashCost = 'standard',
) {
  try {
    return await verify(storedHash ?? (await dummyHash(cost)), password);
  } catch {
    return false;
  }
}
