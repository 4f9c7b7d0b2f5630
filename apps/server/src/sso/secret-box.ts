import crypto from 'node:crypto';
import { dataDirSecret } from '../platform/config/signing-secret.ts';

/**
 * The identity providers' client secrets, encrypted (AES-256-GCM) under a key kept in the data
 * directory (`DATA_DIR/sso-key`), never in the database: a stolen backup of the database alone
 * does not sign anyone in. The stored text is `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
const VERSION = 'v1';

function keyOf(dataDir: string): Buffer {
  return crypto.createHash('sha256').update(dataDirSecret(dataDir, 'sso-key')).digest();
}

export function sealSecret(dataDir: string, secret: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(dataDir), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Throws when the key is not the one the secret was sealed with (a data directory lost). */
export function openSecret(dataDir: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || body === undefined) {
    throw new Error('A sealed single sign-on secret is malformed');
  }
  const decipher = crypto.createDecipheriv(
    'aes-256-gcm',
    keyOf(dataDir),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}
