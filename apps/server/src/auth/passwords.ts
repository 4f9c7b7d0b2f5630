import { hash, verify } from '@node-rs/argon2';

const ARGON2ID = 2; // Algorithm.Argon2id (a const enum, which isolated modules cannot import)

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

// Verifying against this when the email is unknown keeps the answer time the same either way.
const dummyHash = hashPassword('not-a-real-password');

export async function verifyPassword(storedHash: string | undefined, password: string) {
  try {
    return await verify(storedHash ?? (await dummyHash), password);
  } catch {
    return false;
  }
}
