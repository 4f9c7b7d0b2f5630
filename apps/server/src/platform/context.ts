import type { LiveEvent } from '@vrtc/contract';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { DeviceFigures } from '../devices/device-figures.ts';
import type { OrganizationAnalyticsAnswers } from '../organizations/organization-analytics.ts';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db, Tx } from './db.ts';
import { AppError } from './errors.ts';
import type { Role } from './schema.ts';

/** What every service receives: its dependencies, passed in (never imported globals). */
export interface ServiceContext {
  db: Db;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
  /** Tell it whenever what a headset call sees of a device changes (headset/device-events.ts). */
  deviceEvents: DeviceChanges;
  /** Tell it what changed once it is committed, for the console's live streams (events/). */
  live: LivePublisher;
  /** The fleet's counts by organisation, type and status, shared for a second. */
  deviceFigures: DeviceFigures;
  /** Each organisation's analytics, shared until its sessions or headsets change. */
  organizationAnalytics: OrganizationAnalyticsAnswers;
}

/** Publishes an event to every open live stream of every process (events/live-events.ts). */
export interface LivePublisher {
  publish(event: LiveEvent): void;
}

/**
 * "What a headset call sees of these devices may have changed": each process drops what it
 * cached of them. Called inside the writing transaction when there is one, so other processes
 * hear it when it commits. Declared here, implemented by the headset domain (DeviceEvents), so
 * every domain can tell it without depending on the headset one.
 */
export interface DeviceChanges {
  changed(executor: Db | Tx, deviceId: string | null | undefined): Promise<void>;
  changedMany(executor: Db | Tx, deviceIds: readonly string[]): Promise<void>;
  allChanged(executor: Db | Tx): Promise<void>;
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
