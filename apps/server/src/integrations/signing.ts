import crypto from 'node:crypto';

/**
 * Standard Webhooks 1.0 signatures (https://www.standardwebhooks.com): `v1,` + base64 of the
 * HMAC-SHA256 of `id.timestamp.body`, keyed by the base64 part of the secret after `whsec_`.
 */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: whsec_ + base64 of 32 random bytes. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString('base64');
}

/** One signature of the body by one secret. */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = crypto
    .createHmac('sha256', key)
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

/** The webhook-signature header: one signature per secret still signing, space-separated. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((secret) => signature(secret, id, timestamp, body)).join(' ');
}
