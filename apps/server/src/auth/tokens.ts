import crypto from 'node:crypto';

/** Opaque bearer tokens: random, shown once, stored only as a SHA-256 hash. */
export function newToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S{1,512})$/i.exec(header.trim());
  return match?.[1];
}
