import type { LiveEvent, OrganizationAnalytics, OrganizationAnalyticsQuery } from '@vrtc/contract';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
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
  deviceFigures: FleetCounts;
  /** Each organisation's analytics, shared until its sessions or headsets change. */
  organizationAnalytics: SharedAnalytics;
}

/** Headsets counted by status (`online`: heard from within OFFLINE_AFTER_MS, in session or not). */
export interface DeviceCounts {
  total: number;
  online: number;
  waiting: number;
  in_session: number;
  offline: number;
}

/** Which headsets to count; every field optional. */
export interface DeviceCountFilter {
  organizationId?: string;
  type?: string;
  movementType?: string;
}

/**
 * The fleet's counts, shared between requests (decision 020). Declared here, implemented by the
 * devices domain (devices/device-figures.ts), so statistics and organisations can read them.
 */
export interface FleetCounts {
  counts(filter?: DeviceCountFilter): Promise<DeviceCounts>;
  countsBy(key: 'organization_id' | 'type'): Promise<Map<string, DeviceCounts>>;
}

/** An organisation's analytics, shared (organizations/organization-analytics.ts). */
export interface SharedAnalytics {
  get(
    ctx: ServiceContext,
    id: string,
    query: OrganizationAnalyticsQuery,
  ): Promise<OrganizationAnalytics>;
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
