import path from 'node:path';

/** Runtime settings, read once from the environment (names fixed by ARCHITECTURE.md). */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** Secret for signing download URLs; generated and kept in DATA_DIR when not given. */
  signingSecret: string | undefined;
  publicUrl: string | undefined;
  tokenTtlMs: number;
  heartbeatIntervalMs: number;
  offlineAfterMs: number;
  disconnectAfterMs: number;
  sessionTimeoutMs: number;
  lastSeenFlushMs: number;
  /**
   * How long the fleet's counts (device stat cards, online headsets, headsets by type) are shared
   * between requests before they are counted again; any device or session change drops them
   * sooner (devices/device-figures.ts).
   */
  deviceFiguresMaxAgeMs: number;
  /**
   * How long an organisation's analytics are shared between requests; its sessions starting or
   * ending, and its headsets changing, drop them sooner (organizations/organization-analytics.ts).
   */
  analyticsMaxAgeMs: number;
  logLevel: string;
  webDistDir: string;
  /**
   * Which proxies may say who the client is (X-Forwarded-For), as Fastify's `trustProxy`: false
   * (default: the connecting address is the client), true (any), a hop count, or addresses/CIDRs.
   * Rate limits key on the client's address, so behind nginx this must be set.
   */
  trustProxy: boolean | number | string[];
  /**
   * Port of the Prometheus endpoint (GET /metrics), bound to `host`; undefined: off. 0 picks a
   * free port (tests), logged at start.
   */
  metricsPort: number | undefined;
  /** Live event streams one process holds at most (LIVE_MAX_STREAMS). */
  liveMaxStreams: number;
  /**
   * After SIGTERM, how long the server keeps serving while /readyz answers 503, before it stops
   * accepting connections: enough for a balancer that polls /readyz to take it out (operations.md).
   */
  drainDelayMs: number;
  /** Per-organisation limits, so no client can grow a tenant without bound. */
  quotas: {
    vrUsers: number;
    devices: number;
    /** Enrolment codes an organisation may issue (new or renewed) within 24 hours. */
    enrollmentCodesPerDay: number;
  };
}

function trustProxyFrom(env: NodeJS.ProcessEnv): Config['trustProxy'] {
  const raw = env.TRUST_PROXY?.trim();
  if (!raw || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function optionalIntFrom(env: NodeJS.ProcessEnv, name: string): number | undefined {
  return env[name] === undefined || env[name] === '' ? undefined : intFrom(env, name, 0);
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    port: intFrom(env, 'PORT', 8080),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    signingSecret: env.SIGNING_SECRET || undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    tokenTtlMs: intFrom(env, 'TOKEN_TTL_MS', 7 * 24 * 3600 * 1000),
    heartbeatIntervalMs: intFrom(env, 'HEARTBEAT_INTERVAL_MS', 5000),
    offlineAfterMs: intFrom(env, 'OFFLINE_AFTER_MS', 15000),
    disconnectAfterMs: intFrom(env, 'DISCONNECT_AFTER_MS', 60000),
    sessionTimeoutMs: intFrom(env, 'SESSION_TIMEOUT_MS', 2 * 3600 * 1000),
    lastSeenFlushMs: intFrom(env, 'LAST_SEEN_FLUSH_MS', 1000),
    deviceFiguresMaxAgeMs: intFrom(env, 'DEVICE_FIGURES_MAX_AGE_MS', 1000),
    analyticsMaxAgeMs: intFrom(env, 'ANALYTICS_MAX_AGE_MS', 10_000),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: trustProxyFrom(env),
    metricsPort: optionalIntFrom(env, 'METRICS_PORT'),
    liveMaxStreams: intFrom(env, 'LIVE_MAX_STREAMS', 2000),
    drainDelayMs: intFrom(env, 'DRAIN_DELAY_MS', 0),
    quotas: {
      vrUsers: intFrom(env, 'QUOTA_VR_USERS', 100_000),
      devices: intFrom(env, 'QUOTA_DEVICES', 10_000),
      enrollmentCodesPerDay: intFrom(env, 'QUOTA_ENROLLMENT_CODES_PER_DAY', 100),
    },
    webDistDir: path.resolve(
      env.WEB_DIST_DIR || path.join(import.meta.dirname, '../../../../web/dist'),
    ),
  };
}

/** A config for tests and tools: defaults with overrides, never reading the environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), logLevel: 'silent', ...overrides };
}
