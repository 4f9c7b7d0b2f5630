import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A browser an account signed in from: after a sign-in made by the console, the browser keeps a
 * cookie naming a random device id and, signed with the server's signing secret, the account's
 * email. A sign-in from it is limited on its own count (its failures, not its address's), so
 * strangers failing to sign in to the account, from its network or anywhere, neither refuse nor
 * slow it. It proves only that this browser once knew the password: the password is still
 * checked every time.
 */
export const KNOWN_DEVICE_COOKIE = 'vrtc_known_device';
const PATH = '/v1/auth';
const MAX_AGE_SECONDS = 400 * 24 * 3600;

const mac = (secret: string, email: string, deviceId: string) =>
  crypto
    .createHmac('sha256', secret)
    .update(`known-device\n${email}\n${deviceId}`)
    .digest('base64url');

/** The device id of the request's cookie if it was issued for this email (lower-cased), else undefined. */
export function knownDeviceId(
  request: FastifyRequest,
  secret: string,
  email: string,
): string | undefined {
  const value = request.cookies?.[KNOWN_DEVICE_COOKIE];
  if (!value || value.length > 200) return undefined;
  const [deviceId = '', signature = ''] = value.split('.');
  const expected = Buffer.from(mac(secret, email, deviceId));
  const given = Buffer.from(signature);
  return deviceId && given.length === expected.length && crypto.timingSafeEqual(given, expected)
    ? deviceId
    : undefined;
}

/** Marks the browser as known to the account (keeping its device id if it had one). */
export function setKnownDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  email: string,
  deviceId = crypto.randomBytes(16).toString('base64url'),
): void {
  reply.setCookie(KNOWN_DEVICE_COOKIE, `${deviceId}.${mac(secret, email, deviceId)}`, {
    httpOnly: true,
    sameSite: 'strict',
    path: PATH,
    secure: request.protocol === 'https',
    maxAge: MAX_AGE_SECONDS,
  });
}
