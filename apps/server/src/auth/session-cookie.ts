import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../platform/service/errors.ts';

/**
 * The console's sign-in cookie (decision 025): the token of POST /v1/auth/login, in a cookie
 * script cannot read. Over https (directly, or behind a proxy TRUST_PROXY trusts to say so) it
 * carries the `__Host-` prefix, which the browser accepts only with Secure, Path=/ and no Domain:
 * no other host and no plain-http page can set or overwrite it.
 */
export const SESSION_COOKIE = 'vrtc_session';
export const SECURE_SESSION_COOKIE = '__Host-vrtc_session';

const secure = (request: FastifyRequest) => request.protocol === 'https';

const cookieName = (request: FastifyRequest) =>
  secure(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;

/** The sign-in token the request's cookie carries (the one named for its protocol), if any. */
export function cookieToken(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[cookieName(request)];
  return value && value.length <= 512 ? value : undefined;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(cookieName(request), token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: secure(request),
    maxAge: maxAgeSeconds,
  });
}

/**
 * Clears the cookie under both names (the deployment may have moved between http and https).
 * The `__Host-` one is cleared with the attributes its prefix demands, or the browser ignores it.
 */
export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'strict', path: '/' });
  reply.clearCookie(SECURE_SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: true,
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the method may change something, so a cross-site page must not make it with our cookie. */
export const isUnsafeMethod = (method: string) => !SAFE_METHODS.has(method.toUpperCase());

function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * Whether the request's Origin is the console's own: the origin the request was made to (its
 * protocol and Host, or the forwarded ones a trusted proxy gives), or PUBLIC_URL's. A browser sends
 * Origin with every POST, PUT, PATCH and DELETE, so a missing one is refused too.
 */
export function fromOwnOrigin(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const header = request.headers.origin;
  const origin = header && originOf(header);
  if (!origin) return false;
  const own = [originOf(`${request.protocol}://${request.host}`), publicUrl && originOf(publicUrl)];
  return own.includes(origin);
}

/** Refuses a request another site's page may have made with the browser's cookie (403). */
export function refuseCrossSite(request: FastifyRequest, publicUrl: string | undefined): void {
  if (!fromOwnOrigin(request, publicUrl)) {
    throw new AppError(
      'cross_site_request',
      'A request signed in by the cookie must come from the console itself (Origin)',
    );
  }
}

/**
 * With PUBLIC_URL set, whether the request was made to its host (the Host header, or the
 * X-Forwarded-Host a trusted proxy gives): the console lives at one name, and a request made to
 * any other (the server's address, a name rebound to it) is no request of the console's.
 */
export function toPublicHost(request: FastifyRequest, publicUrl: string | undefined): boolean {
  if (!publicUrl) return true;
  try {
    const expected = new URL(publicUrl);
    return new URL(`${expected.protocol}//${request.host}`).host === expected.host;
  } catch {
    return false;
  }
}

/** Refuses a cookie's request (or a page's sign-in) not made to PUBLIC_URL's host (403). */
export function refuseOtherHost(request: FastifyRequest, publicUrl: string | undefined): void {
  if (!toPublicHost(request, publicUrl)) {
    throw new AppError(
      'cross_site_request',
      'A request signed in by the cookie must be made to the console’s own address (PUBLIC_URL)',
    );
  }
}
