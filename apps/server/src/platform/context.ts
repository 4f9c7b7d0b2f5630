import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { DeviceEvents } from '../headset/device-events.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { AppError } from './errors.ts';
import type { Role } from './schema.ts';

/** What every service receives: its dependencies, passed in (never imported globals). */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
  /** Tell it whenever what a headset call sees of a device changes (device-events.ts). */
  deviceEvents: DeviceEvents;
}

/** The signed-in account behind a request. */
export interface Caller {
  accountId: string;
  tokenId: string;
  email: string;
  role: Role;
  organizationId: string;
  organizationName: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new AppError('unauthorized', 'Authentication required');
  return request.caller;
}
