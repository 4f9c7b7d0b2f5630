import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_SETTINGS, loadConfig, type Config } from './config.ts';
import { readSetting, settingsOf } from './settings.ts';

/**
 * For every variable CONFIG_SETTINGS declares: a value to set and what the configuration then
 * holds, and a value that must be refused. A variable declared without a line here fails the
 * first test.
 */
const SAMPLES: Record<string, { set: string; holds: unknown; bad: string }> = {
  PORT: { set: '9090', holds: 9090, bad: '70000' },
  HOST: { set: '0.0.0.0', holds: '0.0.0.0', bad: 'local host' },
  DATABASE_URL: {
    set: 'postgres://vrtc:secret@db.internal:5432/vrtc',
    holds: 'postgres://vrtc:secret@db.internal:5432/vrtc',
    bad: 'mysql://db.internal/vrtc',
  },
  DATA_DIR: { set: '/var/lib/vrtc', holds: '/var/lib/vrtc', bad: '   ' },
  ADMIN_EMAIL: { set: 'boss@example.org', holds: 'boss@example.org', bad: 'boss' },
  ADMIN_PASSWORD: { set: 'long enough', holds: 'long enough', bad: 'short' },
  // `test` is refused outside the test suites (below: only beside NODE_ENV=test).
  PASSWORD_HASH_COST: { set: 'standard', holds: 'standard', bad: 'test' },
  SIGNING_SECRET: { set: 'a'.repeat(64), holds: 'a'.repeat(64), bad: 'copied\r' },
  INTEGRATION_SECRETS_KEY: { set: 'b'.repeat(64), holds: 'b'.repeat(64), bad: 'copied\r' },
  AUDIT_KEY: { set: 'c'.repeat(64), holds: 'c'.repeat(64), bad: 'copied\n' },
  PUBLIC_URL: {
    set: 'https://vrtc.example.org',
    holds: 'https://vrtc.example.org',
    bad: 'vrtc.example.org',
  },
  TOKEN_TTL_MS: { set: '3600000', holds: 3_600_000, bad: '1h' },
  HEARTBEAT_INTERVAL_MS: { set: '2000', holds: 2000, bad: '-1' },
  OFFLINE_AFTER_MS: { set: '6000', holds: 6000, bad: '1.5' },
  DISCONNECT_AFTER_MS: { set: '30000', holds: 30_000, bad: 'never' },
  SESSION_TIMEOUT_MS: { set: '0', holds: 0, bad: '2 h' },
  LATE_RESULT_WINDOW_MS: { set: '60000', holds: 60_000, bad: '7 days' },
  LAST_SEEN_FLUSH_MS: { set: '250', holds: 250, bad: 'fast' },
  DEVICE_FIGURES_MAX_AGE_MS: { set: '0', holds: 0, bad: '-5' },
  ANALYTICS_MAX_AGE_MS: { set: '60000', holds: 60_000, bad: '1e400' },
  AUDIT_RETENTION_DAYS: { set: '365', holds: 365, bad: '0' },
  OUTBOUND_ALLOW_PRIVATE: {
    set: '127.0.0.1, 10.20.0.0/16, fd00:1:2::/48, Hooks.Internal',
    holds: ['127.0.0.1', '10.20.0.0/16', 'fd00:1:2::/48', 'hooks.internal'],
    // All private space is not a scope: a range wider than /16 (IPv4) or /48 (IPv6) is refused.
    bad: '10.0.0.0/8',
  },
  DELIVERY_POLL_MS: { set: '500', holds: 500, bad: '0' },
  DELIVERY_TIMEOUT_MS: { set: '2000', holds: 2000, bad: '15 s' },
  DELIVERY_CONCURRENCY_PER_ORGANIZATION: { set: '2', holds: 2, bad: '0' },
  DELIVERY_CONCURRENCY_PER_HOST: { set: '8', holds: 8, bad: 'many' },
  LOG_LEVEL: { set: 'debug', holds: 'debug', bad: 'loud' },
  TRUST_PROXY: {
    set: '127.0.0.1, 10.0.0.0/8, loopback',
    holds: ['127.0.0.1', '10.0.0.0/8', 'loopback'],
    bad: 'nginx.internal',
  },
  METRICS_PORT: { set: '9080', holds: 9080, bad: 'metrics' },
  DRAIN_DELAY_MS: { set: '5000', holds: 5000, bad: '5s' },
  QUOTA_VR_USERS: { set: '50', holds: 50, bad: 'lots' },
  QUOTA_DEVICES: { set: '20', holds: 20, bad: '-20' },
  QUOTA_INTEGRATIONS: { set: '3', holds: 3, bad: 'few' },
  LOGIN_SLOW_DELAY_MS: { set: '500', holds: 500, bad: 'slow' },
  SMTP_URL: {
    set: 'smtp://digest:secret@mail.internal:587',
    holds: 'smtp://digest:secret@mail.internal:587',
    bad: 'mail.internal:25',
  },
  MAIL_FROM: {
    set: 'VR training <no-reply@example.org>',
    holds: 'VR training <no-reply@example.org>',
    bad: 'no-reply',
  },
  SSO_ALLOW_HTTP: { set: 'true', holds: 'true', bad: 'yes' },
  QUOTA_ENROLLMENT_CODES_PER_DAY: { set: '5', holds: 5, bad: 'ten' },
  LIVE_MAX_STREAMS: { set: '10', holds: 10, bad: '10.5' },
  WEB_DIST_DIR: { set: 'console/dist', holds: path.resolve('console/dist'), bad: '\t' },
};

const settings = settingsOf(CONFIG_SETTINGS);

/** Where in the configuration object a variable lands (quotas.devices, port, …). */
function valueAt(config: Config, name: string): unknown {
  const find = (tree: object, value: object): unknown => {
    for (const [key, node] of Object.entries(tree)) {
      const held = (value as Record<string, unknown>)[key];
      if ('parse' in node) {
        if (node.name === name) return held;
      } else {
        const found = find(node, held as object);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return find(CONFIG_SETTINGS, config);
}

describe('configuration', () => {
  it('has a set and a bad value here for every variable it reads, and no other', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(settings.map((setting) => setting.name).sort());
    expect(new Set(settings.map((setting) => setting.name)).size).toBe(settings.length);
  });

  const defaults = loadConfig({});

  it.each(settings)('$name: unset or empty, holds its default', (setting) => {
    const expected = setting.default === undefined ? undefined : setting.parse(setting.default, {});
    expect(valueAt(defaults, setting.name)).toEqual(expected);
    expect(valueAt(loadConfig({ [setting.name]: '' }), setting.name)).toEqual(expected);
  });

  it.each(settings)('$name: holds a value it is given', (setting) => {
    const sample = SAMPLES[setting.name]!;
    expect(valueAt(loadConfig({ [setting.name]: sample.set }), setting.name)).toEqual(sample.holds);
  });

  it.each(settings)('$name: refuses a bad value, naming the variable', (setting) => {
    const sample = SAMPLES[setting.name]!;
    expect(() => loadConfig({ [setting.name]: sample.bad })).toThrow(
      new RegExp(`^${setting.name} must `),
    );
    // Nothing else is read from it.
    expect(() => readSetting(setting, { [setting.name]: sample.bad })).toThrow();
  });

  it('keeps every default the server has always had', () => {
    expect(defaults).toEqual({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      dataDir: path.resolve('./data'),
      adminEmail: 'admin@example.com',
      adminPassword: undefined,
      passwordHashCost: 'standard',
      signingSecret: undefined,
      integrationSecretsKey: undefined,
      auditKey: undefined,
      publicUrl: undefined,
      tokenTtlMs: 7 * 24 * 3600 * 1000,
      heartbeatIntervalMs: 5000,
      offlineAfterMs: 15_000,
      disconnectAfterMs: 60_000,
      sessionTimeoutMs: 2 * 3600 * 1000,
      lateResultWindowMs: 7 * 24 * 3600 * 1000,
      auditRetentionDays: 730,
      outboundAllowPrivate: [],
      deliveryPollMs: 1000,
      deliveryTimeoutMs: 15_000,
      deliveryConcurrencyPerOrganization: 4,
      deliveryConcurrencyPerHost: 4,
      lastSeenFlushMs: 1000,
      deviceFiguresMaxAgeMs: 1000,
      analyticsMaxAgeMs: 10_000,
      logLevel: 'info',
      trustProxy: false,
      metricsPort: undefined,
      drainDelayMs: 0,
      quotas: { vrUsers: 100_000, devices: 10_000, integrations: 20, enrollmentCodesPerDay: 100 },
      liveMaxStreams: 2000,
      webDistDir: path.resolve(import.meta.dirname, '../../../../web/dist'),
      loginSlowDelayMs: 3000,
      ssoAllowHttp: 'false',
      smtpUrl: undefined,
      mailFrom: undefined,
    });
  });

  it('keeps OUTBOUND_ALLOW_PRIVATE to a scope: never a URL, nor all private space', () => {
    for (const bad of ['http://hooks.internal', '0.0.0.0/0', '172.16.0.0/12', 'fc00::/7']) {
      expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: bad }), bad).toThrow(
        /OUTBOUND_ALLOW_PRIVATE/,
      );
    }
  });

  it('keeps the standard password hash cost unless the test suites ask (NODE_ENV=test)', () => {
    expect(loadConfig({ PASSWORD_HASH_COST: 'test', NODE_ENV: 'test' }).passwordHashCost).toBe(
      'test',
    );
    for (const nodeEnv of [undefined, '', 'production', 'development']) {
      expect(() => loadConfig({ PASSWORD_HASH_COST: 'test', NODE_ENV: nodeEnv })).toThrow(
        /^PASSWORD_HASH_COST must be standard unless NODE_ENV=test \(the test suites\), got "test"$/,
      );
    }
    expect(loadConfig({ NODE_ENV: 'production' }).passwordHashCost).toBe('standard');
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'low', NODE_ENV: 'test' })).toThrow(
      /^PASSWORD_HASH_COST must be one of standard, test, got "low"$/,
    );
  });

  it('names every bad variable at once, one line each', () => {
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' })).toThrow(
      'PORT must be an integer from 0 to 65535, got "eighty"\n' +
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"',
    );
  });

  it('does not repeat a refused secret in its message (it would land in the log)', () => {
    expect(() => loadConfig({ ADMIN_PASSWORD: 'abc' })).toThrow(
      /^ADMIN_PASSWORD must be 8 to 200 characters long$/,
    );
    expect(() => loadConfig({ ADMIN_PASSWORD: 'Password123' })).toThrow(
      /^ADMIN_PASSWORD is one of the most common passwords and easily guessed: choose another$/,
    );
    expect(() => loadConfig({ SIGNING_SECRET: 'leaked\n' })).toThrow(
      /^SIGNING_SECRET must not hold control characters[^"]*$/,
    );
  });

  it('trusts no proxy unless TRUST_PROXY says which', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/^TRUST_PROXY must /);
  });
});
