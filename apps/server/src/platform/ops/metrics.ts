import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import client from 'prom-client';
import type { BackgroundJob, JobReport } from './job-monitor.ts';
import { addressPrefix } from '../service/address-prefix.ts';
import { registerScrapedFigures, type MetricsSources } from './metrics-scraped.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry and counters; served by startMetricsServer (main.ts). */
    metrics: Metrics;
  }
}

/** Addresses tallied per minute; beyond, a flood of fresh addresses counts as `other`. */
const MAX_TALLIED_ADDRESSES = 10_000;
/** Addresses logged per minute, the busiest first. */
const MAX_LOGGED_ADDRESSES = 20;

/**
 * This process's Prometheus metrics (the names are listed in docs/operations.md). Each app has its
 * own registry: tests build many apps in one process. Nearly everything is counted where it
 * happens at the cost of an increment; figures that live elsewhere (the pool, the device cache,
 * active sessions, online headsets) are read when Prometheus scrapes, never per request.
 * Heartbeats are only counted: a latency histogram with labels per heartbeat would cost a
 * measurable share of the hot path (docs/decisions/002-heartbeat-hot-path.md).
 */
export class Metrics implements JobReport {
  readonly registry = new client.Registry();
  private readonly httpDuration: client.Histogram<'method' | 'route' | 'status_code'>;
  /** Pre-labelled children: an increment on the hot path looks nothing up. */
  readonly heartbeatsOk: client.Counter.Internal;
  readonly heartbeatsRefused: client.Counter.Internal;
  private readonly flushSeconds: client.Histogram;
  private readonly flushDevices: client.Histogram;
  private readonly jobRuns: client.Counter<'job' | 'outcome'>;
  private readonly sweeps: client.Counter<'outcome'>;
  private readonly sessionsEnded: client.Counter<'reason'>;
  private processMetrics = false;
  private readonly refusedStrangers: client.Counter<'route' | 'status_code'>;
  private readonly refusedStrangerAddresses: client.Gauge;
  private readonly refusedStrangerBusiest: client.Gauge;
  private readonly refusalsNotAudited: client.Counter;
  /** Refusals of strangers per address prefix in the current minute (`minute` is its start). */
  private strangerTally = { minute: 0, byAddress: new Map<string, number>() };

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    this.httpDuration = new client.Histogram({
      name: 'vrtc_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route (as declared, e.g. /v1/sessions/:id) and status; heartbeats and health probes are not included',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const heartbeats = new client.Counter({
      name: 'vrtc_heartbeats_total',
      help: 'Heartbeats answered by this process: ok (200) or refused (any other status, e.g. 401 for a deleted headset)',
      labelNames: ['outcome'],
      registers,
    });
    this.heartbeatsOk = heartbeats.labels('ok');
    this.heartbeatsRefused = heartbeats.labels('refused');
    this.flushSeconds = new client.Histogram({
      name: 'vrtc_last_seen_flush_duration_seconds',
      help: 'Time one flush of buffered last-seen times took (one UPDATE), for flushes with something to write',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    this.flushDevices = new client.Histogram({
      name: 'vrtc_last_seen_flush_devices',
      help: 'Devices written by one flush of last-seen times (the batch size)',
      buckets: [1, 10, 50, 100, 250, 500, 1000, 2500, 5000, 10000],
      registers,
    });
    this.jobRuns = new client.Counter({
      name: 'vrtc_background_job_runs_total',
      help: 'Runs of this process’s background jobs (last_seen_flush, sweeper, device_cache_refresh, audit_link, audit_purge, integrations_upkeep, qualification_notices, qualification_digest), by outcome (ok, failed)',
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.sweeps = new client.Counter({
      name: 'vrtc_sweeper_runs_total',
      help: 'Sweeps of this process: swept (it held the cluster-wide lock and looked), skipped (another process held it); failures count in vrtc_background_job_runs_total',
      labelNames: ['outcome'],
      registers,
    });
    this.sessionsEnded = new client.Counter({
      name: 'vrtc_sweeper_sessions_ended_total',
      help: 'Sessions this process’s sweeper ended, by reason: disconnected (headset silent), timeout (ran too long)',
      labelNames: ['reason'],
      registers,
    });
    this.refusedStrangers = new client.Counter({
      name: 'vrtc_unauthenticated_refusals_total',
      help: 'Requests of the console API refused to a caller not signed in (401/403, failed sign-ins included), by route (as declared) and status: counted here, not one by one in the audit log',
      labelNames: ['route', 'status_code'],
      registers,
    });
    this.refusedStrangerAddresses = new client.Gauge({
      name: 'vrtc_unauthenticated_refusal_addresses',
      help: 'Addresses (IPv4, IPv6 /64) refused while not signed in during the last whole minute; each is also logged with its count',
      registers,
    });
    this.refusedStrangerBusiest = new client.Gauge({
      name: 'vrtc_unauthenticated_refusals_busiest_address',
      help: 'Refusals of the one address (IPv4, IPv6 /64) refused most often while not signed in during the last whole minute',
      registers,
    });
    this.refusalsNotAudited = new client.Counter({
      name: 'vrtc_audit_refusals_not_recorded_total',
      help: 'Refused requests of a signed-in account (auth.access_denied) past the audit log’s budget per account: counted here instead',
      registers,
    });
    this.startAtZero();
    registerScrapedFigures(sources, registers);
  }

  /** Every label a dashboard plots starts at 0, so a series exists before its first event. */
  private startAtZero(): void {
    for (const reason of ['disconnected', 'timeout']) this.sessionsEnded.labels(reason).inc(0);
    for (const outcome of ['swept', 'skipped']) this.sweeps.labels(outcome).inc(0);
    for (const job of [
      'last_seen_flush',
      'sweeper',
      'device_cache_refresh',
      'audit_link',
      'audit_purge',
      'integrations_upkeep',
      'qualification_notices',
      'qualification_digest',
    ]) {
      for (const outcome of ['ok', 'failed']) this.jobRuns.labels(job, outcome).inc(0);
    }
  }

  /** One answered request (not a heartbeat, not a probe). */
  observeRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status_code: statusCode }, seconds);
  }

  /**
   * A request refused to a caller not signed in: counted by route, and tallied per address prefix
   * and minute. When a minute has passed, its tally becomes the two gauges and one log line per
   * address (the busiest first, at most MAX_LOGGED_ADDRESSES): who knocked, how often, with no
   * row per knock anywhere.
   */
  refusedUnauthenticated(route: string, statusCode: number, address: string): void {
    this.refusedStrangers.inc({ route, status_code: statusCode });
    const minute = Math.floor(this.sources.clock.now().getTime() / 60_000) * 60_000;
    if (minute !== this.strangerTally.minute) this.closeStrangerMinute(minute);
    const tally = this.strangerTally.byAddress;
    const key =
      tally.has(addressPrefix(address)) || tally.size < MAX_TALLIED_ADDRESSES
        ? addressPrefix(address)
        : 'other';
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }

  private closeStrangerMinute(next: number): void {
    const { minute, byAddress } = this.strangerTally;
    this.strangerTally = { minute: next, byAddress: new Map() };
    const busiest = [...byAddress].sort((a, b) => b[1] - a[1]);
    this.refusedStrangerAddresses.set(byAddress.size);
    this.refusedStrangerBusiest.set(busiest[0]?.[1] ?? 0);
    for (const [address, refusals] of busiest.slice(0, MAX_LOGGED_ADDRESSES)) {
      this.sources.log.warn(
        { address, refusals, minute: new Date(minute).toISOString() },
        'unauthenticated requests refused',
      );
    }
  }

  /** A signed-in account's refusal the audit log's budget for it did not take. */
  refusalNotAudited(): void {
    this.refusalsNotAudited.inc();
  }

  started(): void {}

  ran(job: BackgroundJob, _seconds: number, error?: unknown): void {
    this.jobRuns.inc({ job, outcome: error === undefined ? 'ok' : 'failed' });
  }

  flushed(devices: number, seconds: number): void {
    this.flushDevices.observe(devices);
    this.flushSeconds.observe(seconds);
  }

  swept(ran: boolean, ended: { disconnected: number; timeout: number }): void {
    this.sweeps.inc({ outcome: ran ? 'swept' : 'skipped' });
    if (ended.disconnected > 0)
      this.sessionsEnded.inc({ reason: 'disconnected' }, ended.disconnected);
    if (ended.timeout > 0) this.sessionsEnded.inc({ reason: 'timeout' }, ended.timeout);
  }

  /**
   * Node's own figures as well (event-loop lag, memory, CPU, garbage collection, handles), under
   * their usual names. Once per process: these monitors are global and are never removed.
   */
  collectProcessMetrics(): void {
    if (this.processMetrics) return;
    this.processMetrics = true;
    client.collectDefaultMetrics({ register: this.registry });
  }

  /** The Prometheus text exposition of everything above. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics on its own port (METRICS_PORT), bound to HOST like the API: Prometheus reaches it
 * on the private network while the balancer exposes only the API port. A plain node:http server:
 * it serves one path, and a scrape never waits behind API traffic's hooks.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: { host: string; port: number; log: FastifyBaseLogger },
): Promise<MetricsServer> {
  metrics.collectProcessMetrics();
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      (error: unknown) => {
        options.log.error({ err: error }, 'metrics: could not collect');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Could not collect\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}/metrics`;
  options.log.info(`metrics listening at ${url}`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
