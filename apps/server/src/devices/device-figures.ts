import type { LiveEvent } from '@vrtc/contract';
import { sql } from 'kysely';
import type { Clock } from '../platform/service/clock.ts';
import type { Db } from '../platform/database/db.ts';
import { SharedAnswers } from '../platform/service/shared-answers.ts';
import { countSql, countWhereSql } from '../platform/database/counts.ts';
import { deviceOnlineSql, deviceStatusSql } from './device-status.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The fleet's shared counts (tests read and drop them through it). */
    deviceFigures: DeviceFigures;
  }
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

/** The fleet's counts, shared between requests (decision 020): statistics and organisations read them. */
export interface FleetCounts {
  counts(filter?: DeviceCountFilter): Promise<DeviceCounts>;
  countsBy(key: 'organization_id' | 'type'): Promise<Map<string, DeviceCounts>>;
}

/** What a service that reads the fleet's counts is handed beside the ServiceContext. */
export interface WithFleetCounts {
  deviceFigures: FleetCounts;
}

/** Headsets of one organisation, type and movement type, counted by status. */
export interface DeviceFigureGroup extends DeviceCounts {
  organization_id: string;
  type: string;
  movement_type: string;
}

const NONE: DeviceCounts = { total: 0, online: 0, waiting: 0, in_session: 0, offline: 0 };

/** `sum` with `group`'s counts added (in place). */
function addCounts(sum: DeviceCounts, group: DeviceCounts): DeviceCounts {
  for (const figure of Object.keys(NONE) as Array<keyof DeviceCounts>) sum[figure] += group[figure];
  return sum;
}

/**
 * The fleet's figures (the admin device list's stat cards, each organisation's online headsets,
 * headsets by type in the statistics), counted in one pass over every device and shared by every
 * request that asks within `maxAgeMs` (1 s): with 20,000 headsets that pass costs ~15 ms of
 * PostgreSQL, which a page of 10 must not pay each time (bench:console, docs/benchmarks.md).
 *
 * A device's status is a matter of time (offline once not heard from for OFFLINE_AFTER_MS, and
 * last-seen times are themselves written once a second), so figures up to a second old are as
 * fresh as what they count. A change the console can make or see (a headset enrolled, deleted or
 * changed, a session started or ended: live events, heard from every process) drops them at once,
 * so the next read counts again.
 */
export class DeviceFigures implements FleetCounts {
  private readonly counted: SharedAnswers<DeviceFigureGroup[]>;

  constructor(
    private readonly db: Db,
    clock: Clock,
    private readonly options: { offlineAfterMs: number; maxAgeMs: number },
  ) {
    this.counted = new SharedAnswers(clock, { maxAgeMs: options.maxAgeMs });
  }

  /** Every group, counted at most `maxAgeMs` ago (or since the last change heard of). */
  groups(): Promise<DeviceFigureGroup[]> {
    return this.counted.get('all', (now) => this.count(now));
  }

  /** The counts of the devices matching `filter` (every filter optional). */
  async counts(filter: DeviceCountFilter = {}): Promise<DeviceCounts> {
    const matching = (await this.groups()).filter(
      (group) =>
        (filter.organizationId === undefined || group.organization_id === filter.organizationId) &&
        (filter.type === undefined || group.type === filter.type) &&
        (filter.movementType === undefined || group.movement_type === filter.movementType),
    );
    return matching.reduce(addCounts, { ...NONE });
  }

  /** Counts by a group's key, e.g. by organisation or by type. */
  async countsBy(key: 'organization_id' | 'type'): Promise<Map<string, DeviceCounts>> {
    const by = new Map<string, DeviceCounts>();
    for (const group of await this.groups()) {
      by.set(group[key], addCounts(by.get(group[key]) ?? { ...NONE }, group));
    }
    return by;
  }

  /** A live event: a device or session change makes the figures out of date. */
  heard(event: LiveEvent): void {
    if (event.type === 'device' || event.change !== 'progress') this.forget();
  }

  forget(): void {
    this.counted.forget();
  }

  private count(now: Date): Promise<DeviceFigureGroup[]> {
    const status = deviceStatusSql('d', 'active', now, this.options.offlineAfterMs);
    const online = deviceOnlineSql('d', now, this.options.offlineAfterMs);
    return this.db
      .selectFrom('devices as d')
      .leftJoin('sessions as active', (join) =>
        join.onRef('active.device_id', '=', 'd.id').on('active.status', '=', 'active'),
      )
      .select([
        'd.organization_id',
        'd.type',
        'd.movement_type',
        countSql().as('total'),
        countWhereSql(online).as('online'),
        countWhereSql(sql`${status} = 'waiting'`).as('waiting'),
        countWhereSql(sql`${status} = 'in_session'`).as('in_session'),
        countWhereSql(sql`${status} = 'offline'`).as('offline'),
      ])
      .groupBy(['d.organization_id', 'd.type', 'd.movement_type'])
      .execute();
  }
}
