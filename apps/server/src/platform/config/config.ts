import net from 'node:net';
import path from 'node:path';
import { Email, Password } from '@vrtc/contract';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { isCommonPassword } from './common-passwords.ts';
import {
  commaList,
  directory,
  integer,
  isAddressOrRange,
  oneOf,
  readSettings,
  setting,
  SettingProblem,
  text,
  url,
  type ValueOf,
} from './settings.ts';

/** The console's own rules for an account's email and password hold for the first admin too. */
const ajv = new Ajv();
addFormats.default(ajv);
const isEmail = ajv.compile(Email);
const isPassword = ajv.compile(Password);
const passwordLength = Password as unknown as { minLength: number; maxLength: number };

/** proxy-addr's names for address ranges, which TRUST_PROXY may list beside addresses. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** PASSWORD_HASH_COST's words; what each one costs is in auth/passwords.ts. */
export const PASSWORD_HASH_COSTS = ['standard', 'test'] as const;
export type PasswordHashCost = (typeof PASSWORD_HASH_COSTS)[number];

/**
 * Every environment variable the server reads, one declaration each, in README's order. To add
 * one: declare it here, give it a set and a bad value in config.test.ts, and run
 * `npm run docs:config` to rewrite README's table.
 */
export const CONFIG_SETTINGS = {
  port: integer({
    name: 'PORT',
    default: 8080,
    max: 65535,
    meaning: 'HTTP port of console + API',
  }),
  host: text({
    name: 'HOST',
    default: '127.0.0.1',
    meaning: 'address to listen on (`0.0.0.0` to accept other machines)',
    check: (value) => (/\s/.test(value) ? 'must be an address or host name' : undefined),
  }),
  databaseUrl: url({
    name: 'DATABASE_URL',
    schemes: ['postgres', 'postgresql'],
    shownDefault: 'unset',
    meaning: 'PostgreSQL connection string; unset → embedded PGlite under `DATA_DIR`',
  }),
  dataDir: directory({
    name: 'DATA_DIR',
    default: './data',
    meaning: 'PGlite files (`pglite/`), app builds (`builds/`), generated signing secret',
  }),
  adminEmail: text({
    name: 'ADMIN_EMAIL',
    default: 'admin@example.com',
    meaning: 'email of the first admin, created only when the database has no account',
    check: (value) => (isEmail(value) ? undefined : 'must be an email address'),
  }),
  adminPassword: text({
    name: 'ADMIN_PASSWORD',
    shownDefault: 'generated',
    meaning: `password of the first admin (${passwordLength.minLength} to ${passwordLength.maxLength} characters and not a common password, as for every account); unset → generated and printed once in the log`,
    secret: true,
    check: (value) => {
      if (!isPassword(value)) {
        return `must be ${passwordLength.minLength} to ${passwordLength.maxLength} characters long`;
      }
      return isCommonPassword(value)
        ? 'is one of the most common passwords and easily guessed: choose another'
        : undefined;
    },
  }),
  /**
   * Read by auth/passwords.ts. `test` (Argon2's floor) only where NODE_ENV=test, which the test
   * runner sets: a server anywhere else refuses to start with it.
   */
  passwordHashCost: setting<PasswordHashCost>({
    name: 'PASSWORD_HASH_COST',
    default: 'standard',
    meaning:
      "cost of new password hashes: `standard` (Argon2id, 19 MiB, 2 passes); `test` (the lowest) is refused unless `NODE_ENV=test`, for the test suites' own accounts",
    parse: (value, env) => {
      if (!(PASSWORD_HASH_COSTS as readonly string[]).includes(value)) {
        throw new SettingProblem(`must be one of ${PASSWORD_HASH_COSTS.join(', ')}`);
      }
      if (value === 'test' && env.NODE_ENV !== 'test') {
        throw new SettingProblem('must be standard unless NODE_ENV=test (the test suites)');
      }
      return value as PasswordHashCost;
    },
  }),
  /** Secret for signing download URLs; generated and kept in DATA_DIR when not given. */
  signingSecret: text({
    name: 'SIGNING_SECRET',
    shownDefault: 'generated in `DATA_DIR`',
    meaning: 'HMAC key of download URLs; set the same value on every process',
    secret: true,
  }),
  /** Read by integrations/secret-box.ts through signing-secret.ts. */
  integrationSecretsKey: text({
    name: 'INTEGRATION_SECRETS_KEY',
    shownDefault: 'generated in `DATA_DIR`',
    meaning:
      'key that encrypts webhook and LRS secrets in the database; set the same value on every process, keep it with the backups (the secrets cannot be read without it)',
    secret: true,
  }),
  /** Read by audit/audit-key.ts through signing-secret.ts. */
  auditKey: text({
    name: 'AUDIT_KEY',
    shownDefault: 'generated in `DATA_DIR`',
    meaning:
      'HMAC key that signs the audit log’s checkpoints (verify refuses one it cannot check); set the same value on every process, keep it out of the database’s reach and with the backups',
    secret: true,
  }),
  publicUrl: url({
    name: 'PUBLIC_URL',
    schemes: ['http', 'https'],
    shownDefault: 'from the request',
    meaning:
      'base of the download URLs handed to browsers and headsets; when set, the console’s sign-in cookie is taken only on requests to its host',
  }),
  tokenTtlMs: integer({
    name: 'TOKEN_TTL_MS',
    default: 7 * 24 * 3600 * 1000,
    shownDefault: '`604800000` (7 days)',
    meaning: 'lifetime of a console sign-in',
  }),
  loginSlowDelayMs: integer({
    name: 'LOGIN_SLOW_DELAY_MS',
    default: 3000,
    max: 60_000,
    meaning:
      'wait before checking a sign-in to an account past its failure threshold, from a browser that never signed in to it (docs/operations.md, rate limits)',
  }),
  heartbeatIntervalMs: integer({
    name: 'HEARTBEAT_INTERVAL_MS',
    default: 5000,
    meaning: 'how often headsets are told to report',
  }),
  offlineAfterMs: integer({
    name: 'OFFLINE_AFTER_MS',
    default: 15000,
    meaning: 'a headset silent this long shows as offline',
  }),
  disconnectAfterMs: integer({
    name: 'DISCONNECT_AFTER_MS',
    default: 60000,
    meaning: 'an active session whose headset is silent this long ends as `disconnected`',
  }),
  sessionTimeoutMs: integer({
    name: 'SESSION_TIMEOUT_MS',
    default: 2 * 3600 * 1000,
    shownDefault: '`7200000` (2 h)',
    meaning: 'an active session running longer ends as `timeout`',
  }),
  /** Read by headset/reports.service.ts (late results) and the sweeper (report keys' purge). */
  lateResultWindowMs: integer({
    name: 'LATE_RESULT_WINDOW_MS',
    default: 7 * 24 * 3600 * 1000,
    shownDefault: '`604800000` (7 days)',
    meaning:
      "how long after the server ended a session as `disconnected` or `timeout` its headset's finish is still taken (a late result); report keys (`Idempotency-Key`) are kept this long",
  }),
  /** Read by audit/audit-purge.ts (docs/logging.md). */
  auditRetentionDays: integer({
    name: 'AUDIT_RETENTION_DAYS',
    default: 730,
    min: 1,
    shownDefault: '`730` (2 years)',
    meaning:
      'audit events older than this many days are deleted by a daily purge, which leaves a checkpoint so each chain still verifies',
  }),
  /** Read by integrations/outbound.ts: where deliveries may not go unless listed (decision 026). */
  outboundAllowPrivate: setting<string[]>({
    name: 'OUTBOUND_ALLOW_PRIVATE',
    default: '',
    shownDefault: 'unset (none)',
    meaning:
      'host names, addresses or CIDR ranges (comma-separated; a range at most /16 for IPv4, /48 for IPv6) that webhooks and learning record stores may be delivered to although they are loopback, private or link-local addresses; a metadata address (169.254.169.254) only when listed itself',
    parse: (value) => {
      const entries = commaList(value);
      const wrong = entries.find(
        (entry) => !isAddressOrRange(entry) && !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(entry),
      );
      if (wrong !== undefined) {
        throw new SettingProblem('must be comma-separated host names, addresses or CIDR ranges');
      }
      // Scoped: a receiver's network, never all private space (10.0.0.0/8, 0.0.0.0/0).
      const wide = entries.find((entry) => {
        const [address = '', prefix] = entry.split('/');
        const family = net.isIP(address);
        return prefix !== undefined && Number(prefix) < (family === 4 ? 16 : 48);
      });
      if (wide !== undefined) {
        throw new SettingProblem(
          `must name a network no wider than /16 (IPv4) or /48 (IPv6), not ${wide}`,
        );
      }
      return entries.map((entry) => entry.toLowerCase());
    },
  }),
  /** Read by qualifications/digest-mail.ts: unset, no mail is sent (decision 033). */
  smtpUrl: url({
    name: 'SMTP_URL',
    schemes: ['smtp', 'smtps'],
    shownDefault: 'unset (no mail)',
    meaning:
      'mail server of the daily qualifications digest, `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`; unset → no mail is sent and the console says so',
    secret: true,
  }),
  mailFrom: text({
    name: 'MAIL_FROM',
    shownDefault: '`no-reply@localhost`',
    meaning:
      'sender of the mails, `address@example.org` or `Name <address@example.org>`; unset → `no-reply@` the host of `PUBLIC_URL` when set',
    check: (value) =>
      /^([^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/.test(value.trim())
        ? undefined
        : 'must be an email address, or a name and <address>',
  }),
  /** Read by sso/: plain-http identity providers, for development and tests only. */
  ssoAllowHttp: oneOf({
    name: 'SSO_ALLOW_HTTP',
    default: 'false',
    words: ['true', 'false'],
    meaning:
      'allows single sign-on with identity providers whose issuer is plain `http://` (development and tests only)',
  }),
  /** Read by integrations/dispatcher.ts. */
  deliveryPollMs: integer({
    name: 'DELIVERY_POLL_MS',
    default: 1000,
    min: 10,
    meaning:
      'how often each process looks for due webhook and xAPI deliveries besides being woken by a commit',
  }),
  deliveryTimeoutMs: integer({
    name: 'DELIVERY_TIMEOUT_MS',
    default: 15000,
    min: 1,
    meaning:
      'a receiver that has not answered a delivery within this is retried later; a process that stops mid-send leaves the delivery to the others after 5 times this',
  }),
  /** Read by integrations/dispatcher.ts: one organisation's or one host's slow receivers wait among themselves. */
  deliveryConcurrencyPerOrganization: integer({
    name: 'DELIVERY_CONCURRENCY_PER_ORGANIZATION',
    default: 4,
    min: 1,
    meaning:
      "webhook and xAPI sends one process makes at once for one organisation (of 16 in all), so one organisation's slow receivers never hold another's deliveries",
  }),
  deliveryConcurrencyPerHost: integer({
    name: 'DELIVERY_CONCURRENCY_PER_HOST',
    default: 4,
    min: 1,
    meaning: 'webhook and xAPI sends one process makes at once to one receiving host',
  }),
  lastSeenFlushMs: integer({
    name: 'LAST_SEEN_FLUSH_MS',
    default: 1000,
    meaning: 'how often heartbeat times are written to the database in one batch',
  }),
  /** Read by devices/device-figures.ts. */
  deviceFiguresMaxAgeMs: integer({
    name: 'DEVICE_FIGURES_MAX_AGE_MS',
    default: 1000,
    meaning:
      "how long the fleet's counts (device stat cards, online headsets, headsets by type) are shared between requests; a device or session change recounts them at once",
  }),
  /** Read by organizations/organization-analytics.ts and stats/organization-stats.ts. */
  analyticsMaxAgeMs: integer({
    name: 'ANALYTICS_MAX_AGE_MS',
    default: 10_000,
    meaning:
      "how long an organisation's analytics and its staff's statistics are shared between requests; its sessions starting or ending, or its headsets changing, recompute them at once",
  }),
  logLevel: oneOf({
    name: 'LOG_LEVEL',
    default: 'info',
    words: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    meaning: 'pino log level',
  }),
  /**
   * Which proxies may say who the client is (X-Forwarded-For), as Fastify's `trustProxy`: false
   * (the connecting address is the client), true (any), a hop count, or addresses/CIDRs.
   */
  trustProxy: setting<boolean | number | string[]>({
    name: 'TRUST_PROXY',
    default: 'false',
    shownDefault: 'unset (off)',
    meaning:
      'behind a reverse proxy: `true`, a hop count, or the proxy addresses/CIDRs (comma-separated) whose `X-Forwarded-For` names the client; sign-in limits key on that address',
    parse: (value) => {
      const trimmed = value.trim();
      if (trimmed === 'false') return false;
      if (trimmed === 'true') return true;
      if (/^\d+$/.test(trimmed)) return Number(trimmed);
      const entries = commaList(trimmed);
      const wrong = entries.find(
        (entry) => !isAddressOrRange(entry) && !PROXY_RANGE_NAMES.includes(entry),
      );
      if (entries.length === 0 || wrong !== undefined) {
        throw new SettingProblem(
          'must be true, false, a hop count, or comma-separated addresses and CIDR ranges',
        );
      }
      return entries;
    },
  }),
  /** 0 picks a free port (tests), logged at start. */
  metricsPort: integer({
    name: 'METRICS_PORT',
    max: 65535,
    shownDefault: 'unset (off)',
    meaning:
      'port of the Prometheus endpoint `GET /metrics`, bound to `HOST` (docs/operations.md lists the metrics)',
  }),
  /** Read by main.ts on SIGTERM (docs/operations.md). */
  drainDelayMs: integer({
    name: 'DRAIN_DELAY_MS',
    default: 0,
    meaning:
      'after SIGTERM, how long the server keeps serving while `/readyz` answers 503, before it stops listening; behind nginx longer than its upstream `keepalive_timeout` (`deploy/vrtc.env.example`: 5000)',
  }),
  /** Per-organisation limits, so no client can grow a tenant without bound. */
  quotas: {
    vrUsers: integer({
      name: 'QUOTA_VR_USERS',
      default: 100_000,
      meaning: 'VR users one organisation may hold',
    }),
    devices: integer({
      name: 'QUOTA_DEVICES',
      default: 10_000,
      meaning: 'headsets one organisation may enrol',
    }),
    integrations: integer({
      name: 'QUOTA_INTEGRATIONS',
      default: 20,
      meaning: 'webhooks and learning record stores one organisation may hold',
    }),
    enrollmentCodesPerDay: integer({
      name: 'QUOTA_ENROLLMENT_CODES_PER_DAY',
      default: 100,
      meaning: 'enrolment codes (new or renewed) one organisation may issue in 24 hours',
    }),
  },
  liveMaxStreams: integer({
    name: 'LIVE_MAX_STREAMS',
    default: 2000,
    meaning:
      'console live streams (`GET /v1/events`, one per open tab) one process holds at most; beyond it a tab polls every 5 s instead',
  }),
  webDistDir: directory({
    name: 'WEB_DIST_DIR',
    default: path.join(import.meta.dirname, '../../../../web/dist'),
    shownDefault: '`apps/web/dist`',
    meaning:
      'the built console the server serves; when set, `npm start` and `npm run demo` leave the console unbuilt',
  }),
};

/** Runtime settings, read once from the environment. */
export type Config = ValueOf<typeof CONFIG_SETTINGS>;

/** Reads the configuration, or throws one message naming every variable with a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return readSettings(CONFIG_SETTINGS, env);
}

/** A config for tests and tools: defaults with overrides, never reading the environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), logLevel: 'silent', ...overrides };
}
