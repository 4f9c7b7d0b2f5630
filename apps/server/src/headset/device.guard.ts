import type { FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';
import { bearerToken, hashToken } from '../auth/tokens.ts';
import { AppError } from '../platform/service/errors.ts';
import type { DeviceAuthenticator } from './device-auth.ts';
import type { DeviceRefusals } from './device-refusals.ts';
import type { AuthenticatedDevice } from './device-cache.ts';

declare module 'fastify' {
  interface FastifyRequest {
    device?: AuthenticatedDevice;
  }
}

export function deviceOf(request: { device?: AuthenticatedDevice }) {
  if (!request.device) throw new AppError('unauthorized', 'Device token required');
  return request.device;
}

/**
 * The guard of the `device` access (registerRoute): a device token, and only a device token, gets
 * in. A refusal goes to the audit log, bounded (device-refusals.ts).
 */
export function requireDevice(
  devices: DeviceAuthenticator,
  refusals: DeviceRefusals,
): onRequestHookHandler {
  const refuse = (request: FastifyRequest, done: HookHandlerDoneFunction, error: Error) => {
    refusals.record(request, error);
    done(error);
  };
  // Callback style, so a cached device (nearly every heartbeat) is let in without a promise, and
  // without a closure made for it either.
  return (request, _reply, done) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) return refuse(request, done, new AppError('unauthorized', 'Device token required'));
    const tokenHash = hashToken(token);
    const cached = devices.cached(tokenHash);
    if (cached) {
      request.device = cached;
      return done();
    }
    devices.load(tokenHash).then(
      (device) => {
        request.device = device;
        done();
      },
      (error: Error) => refuse(request, done, error),
    );
  };
}
