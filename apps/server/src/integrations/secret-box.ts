import crypto from 'node:crypto';
import type { Config } from '../platform/config/config.ts';
import { integrationSecretsKey } from '../platform/config/signing-secret.ts';

/**
 * Webhook signing secrets and LRS passwords at rest (issue 40): the server must use them as they
 * are, so they are encrypted rather than hashed, with AES-256-GCM under a key kept outside the
 * database (INTEGRATION_SECRETS_KEY or DATA_DIR, platform/config/signing-secret.ts). A stored value
 * is `enc:v1:` + base64url of iv, tag and ciphertext; a value without the prefix is one written
 * before encryption, read as it is until encryptStoredSecrets (upkeep.ts) rewrites it.
 */

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

type KeyConfig = Pick<Config, 'integrationSecretsKey' | 'dataDir'>;

const keyOf = (config: KeyConfig) =>
  crypto.createHash('sha256').update(integrationSecretsKey(config)).digest();

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

/** Encrypts a secret for the database. */
export function sealSecret(config: KeyConfig, secret: string): string;
export function sealSecret(config: KeyConfig, secret: string | null): string | null;
export function sealSecret(config: KeyConfig, secret: string | null): string | null {
  if (secret === null) return null;
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(config), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The secret a stored value holds; throws when it was sealed under another key. */
export function openSecret(config: KeyConfig, stored: string | null): string | null {
  if (stored === null || !isSealed(stored)) return stored;
  const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  const decipher = crypto.createDecipheriv(
    'aes-256-gcm',
    keyOf(config),
    bytes.subarray(0, IV_BYTES),
  );
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}

/** An integration's secrets as the request builder needs them. */
export function openSecrets<
  T extends { secret: string | null; previous_secret: string | null; xapi_secret: string | null },
>(config: KeyConfig, row: T): T {
  return {
    ...row,
    secret: openSecret(config, row.secret),
    previous_secret: openSecret(config, row.previous_secret),
    xapi_secret: openSecret(config, row.xapi_secret),
  };
}
