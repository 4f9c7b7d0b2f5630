import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import client from 'prom-client';
import type { Clock } from '../service/clock.ts';
import type { Db, PoolStats } from '../database/db.ts';

/** What the metrics read from the rest of the process, at scrape time. */
export interface MetricsSources {
  db: Db;
  clock: Clock;
  offlineAfterMs: number;
  log: FastifyBaseLogger;
  /** The database pool's use (absent: not reported). */
  poolStats?: () => PoolStats;
  deviceCache: () => { size: number; stats: { hits: number; misses: number } };
  notificationsListening: () => boolean;
  /** Devices heard by this process whose last-seen time is not written yet. */
  lastSeenBuffered: () => number;
  /** Headsets' push calls held by this process now. */
  pushWaiting: () => number;
  draining: () => boolean;
}

/** Longest a scrape waits for one database figure before it reports NaN for it. */
const SCRAPE_QUERY_TIMEOUT_MS = 2000;

/**
 * The figures that live elsewhere (the pool, the device cache, active sessions, online headsets):
 * gauges read when Prometheus scrapes, never per request.
 */
export function registerScrapedFigures(
  sources: MetricsSources,
  registers: client.Registry[],
): void {
  registerPoolFigures(sources, registers);
  registerDatabaseFigures(sources, registers);
  registerProcessFigures(sources, registers);
}

/** The database pool's use, when the pool reports it. */
function registerPoolFigures(sources: MetricsSources, registers: client.Registry[]): void {
  // Read before the queries below: otherwise a scrape counts its own statements as waiting.
  const { poolStats } = sources;
  if (poolStats) {
    new client.Gauge({
      name: 'vrtc_db_pool_connections',
      help: 'Database connections of this process, by state: busy (running a statement or transaction) and idle',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = poolStats();
        this.set({ state: 'busy' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
      },
    });
    new client.Gauge({
      name: 'vrtc_db_pool_max_connections',
      help: 'Connections the pool may open (PGlite: its single connection)',
      registers,
      collect() {
        this.set(poolStats().max);
      },
    });
    new client.Gauge({
      name: 'vrtc_db_pool_waiting',
      help: 'Statements waiting for a free database connection (above 0 for long: the pool is the bottleneck)',
      registers,
      collect() {
        this.set(poolStats().waiting);
      },
    });
  }
}

/** Figures of the whole database: every process reports the same. */
function registerDatabaseFigures(sources: MetricsSources, registers: client.Registry[]): void {
  const queryGauge = (name: string, help: string, query: () => Promise<number>) =>
    new client.Gauge({
      name,
      help,
      registers,
      collect: async function (this: client.Gauge) {
        this.set(await scrapeQuery(name, query, sources.log));
      },
    });
  queryGauge(
    'vrtc_active_sessions',
    'Sessions running now, in the whole database (every process reports the same figure)',
    async () => {
      const { rows } = await sql<{ count: number }>`
        SELECT count(*)::int AS count FROM sessions WHERE status = 'active'`.execute(sources.db);
      return rows[0]?.count ?? 0;
    },
  );
  queryGauge(
    'vrtc_online_devices',
    'Headsets heard from within OFFLINE_AFTER_MS, in the whole database (every process reports the same figure)',
    async () => {
      const since = new Date(sources.clock.now().getTime() - sources.offlineAfterMs);
      const { rows } = await sql<{ count: number }>`
        SELECT count(*)::int AS count FROM devices WHERE last_seen_at >= ${since}`.execute(
        sources.db,
      );
      return rows[0]?.count ?? 0;
    },
  );
}

/** This process's own state: buffers, caches, listening, draining. */
function registerProcessFigures(sources: MetricsSources, registers: client.Registry[]): void {
  new client.Gauge({
    name: 'vrtc_last_seen_buffered_devices',
    help: 'Devices heard by this process whose last-seen time waits for the next flush',
    registers,
    collect() {
      this.set(sources.lastSeenBuffered());
    },
  });
  new client.Gauge({
    name: 'vrtc_headset_push_waiting',
    help: 'Headsets’ push calls (GET /v1/headset/events) this process holds open now',
    registers,
    collect() {
      this.set(sources.pushWaiting());
    },
  });
  new client.Gauge({
    name: 'vrtc_device_cache_entries',
    help: 'Headsets this process answers from memory (device cache)',
    registers,
    collect() {
      this.set(sources.deviceCache().size);
    },
  });
  new client.Counter({
    name: 'vrtc_device_cache_lookups_total',
    help: 'Headset authentications by where the answer came from: hit (memory) or miss (database)',
    labelNames: ['result'],
    registers,
    collect() {
      const { stats } = sources.deviceCache();
      this.reset();
      this.inc({ result: 'hit' }, stats.hits);
      this.inc({ result: 'miss' }, stats.misses);
    },
  });
  new client.Gauge({
    name: 'vrtc_device_notifications_listening',
    help: 'PostgreSQL: 1 while this process hears other processes’ device changes; 0 while not (its device cache is off meanwhile). PGlite: always 1',
    registers,
    collect() {
      this.set(sources.notificationsListening() ? 1 : 0);
    },
  });
  new client.Gauge({
    name: 'vrtc_draining',
    help: '1 from SIGTERM until the process exits (/readyz answers 503), else 0',
    registers,
    collect() {
      this.set(sources.draining() ? 1 : 0);
    },
  });
}

/** A figure read from the database at scrape time, or NaN when it cannot be read quickly. */
async function scrapeQuery(
  name: string,
  query: () => Promise<number>,
  log: FastifyBaseLogger,
): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${SCRAPE_QUERY_TIMEOUT_MS} ms`)),
      SCRAPE_QUERY_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([query(), timeout]);
  } catch (error) {
    log.warn({ err: error }, `metrics: could not read ${name} from the database`);
    return Number.NaN;
  } finally {
    clearTimeout(timer);
  }
}
