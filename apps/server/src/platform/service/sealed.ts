import crypto from 'node:crypto';

/**
 * Secrets the server must use as they are (webhook signing secrets, LRS passwords, identity
 * providers' client secrets) are stored encrypted, never hashed: AES-256-GCM under a key that lives
 * outside the database (platform/config/signing-secret.ts), so a copy of the database alone holds
 * no usable secret. A stored value is `enc:v1:` + base64url of iv, tag and ciphertext.
 */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const keyOf = (key: string) => crypto.createHash('sha256').update(key).digest();

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

export function sealWith(key: string, secret: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(key), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/**
 * The secret a stored value holds; a value without the prefix (written before encryption) as it
 * is. Throws when it was sealed under another key (a lost or changed key).
 */
export function openWith(key: string, stored: string): string {
  if (!isSealed(stored)) return stored;
  const bytes = Buffer.from(stored.slice(PREFIX.length), 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(key), bytes.subarray(0, IV_BYTES));
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
    decipher.final(),
  ]).toString('utf8');
}
