import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import type { AppInstance } from '../src/platform/http/app-types.ts';
import { ManualClock } from '../src/platform/service/clock.ts';
import { testConfig } from '../src/platform/config/config.ts';
import type { DatabaseHandle } from '../src/platform/database/db.ts';
import { startMetricsServer, type MetricsServer } from '../src/platform/ops/metrics.ts';
import {
  makeEnrolledDevice,
  makeOrganization,
  makeTenant,
  TEST_PASSWORD,
  makeHeadsetInSession,
} from './factories.ts';
import { createTestDatabase, type TestApp } from './harness.ts';

/**
 * GET /metrics (METRICS_PORT): the names docs/operations.md lists, with figures that follow what
 * the app did. Scraped over HTTP from the real endpoint.
 */

const kind = inject('dbTemplate').kind;

/** Every metric the operations guide lists (and that dashboards may rely on). */
const DOCUMENTED = [
  'vrtc_http_request_duration_seconds',
  'vrtc_heartbeats_total',
  'vrtc_last_seen_flush_duration_seconds',
  'vrtc_last_seen_flush_devices',
  'vrtc_last_seen_buffered_devices',
  'vrtc_headset_push_waiting',
  'vrtc_background_job_runs_total',
  'vrtc_sweeper_runs_total',
  'vrtc_sweeper_sessions_ended_total',
  'vrtc_active_sessions',
  'vrtc_online_devices',
  'vrtc_db_pool_connections',
  'vrtc_db_pool_max_connections',
  'vrtc_db_pool_waiting',
  'vrtc_device_cache_entries',
  'vrtc_device_cache_lookups_total',
  'vrtc_device_notifications_listening',
  'vrtc_draining',
  'nodejs_eventloop_lag_seconds',
  'nodejs_eventloop_lag_p99_seconds',
  'process_resident_memory_bytes',
  'nodejs_heap_size_used_bytes',
  'process_cpu_seconds_total',
];

/** `name{labels} value` samples of a Prometheus text exposition. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    found.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return found;
}

const declared = (text: string) =>
  new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!));

describe('metrics', () => {
  let database: DatabaseHandle;
  let app: AppInstance;
  let server: MetricsServer;
  const clock = new ManualClock(new Date());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-metrics-'));
  const scrape = async () => {
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildApp({
      db: database.db,
      config: testConfig({
        dataDir,
        signingSecret: 'test-secret',
        lastSeenFlushMs: 20,
        offlineAfterMs: 15_000,
        disconnectAfterMs: 1000,
      }),
      clock,
      logger: false,
      backgroundJobs: true,
      databaseUrl: database.databaseUrl,
      poolStats: () => database.poolStats(),
    });
    await app.ready();
    server = await startMetricsServer(app.metrics, {
      host: '127.0.0.1',
      port: 0,
      log: app.log,
    });
  });
  afterAll(async () => {
    await server.close();
    await app.close();
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves every documented metric in the Prometheus text format, and nothing but /metrics', async () => {
    const names = declared(await scrape());
    expect(DOCUMENTED.filter((name) => !names.has(name))).toEqual([]);
    expect((await fetch(server.url.replace('/metrics', '/'))).status).toBe(404);
  });

  it('counts requests, heartbeats, flushes and the sessions the sweeper ends', async () => {
    const t: TestApp = { app, db: database.db, clock, config: testConfig(), close: async () => {} };
    const tenant = await makeTenant(t);
    const login = await app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: { email: tenant.account.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect((await app.inject({ url: '/v1/vr-users', headers: tenant.headers })).statusCode).toBe(
      200,
    );
    expect((await app.inject('/v1/no-such-route')).statusCode).toBe(404);

    const organization = await makeOrganization(database.db);
    const headset = await makeEnrolledDevice(database.db, organization.id);
    for (let i = 0; i < 3; i++) {
      const beat = await app.inject({
        method: 'POST',
        url: '/v1/headset/heartbeat',
        headers: headset.headers,
        payload: {},
      });
      expect(beat.statusCode).toBe(200);
    }
    const refused = await app.inject({
      method: 'POST',
      url: '/v1/headset/heartbeat',
      headers: { authorization: 'Bearer not-a-device-token' },
      payload: {},
    });
    expect(refused.statusCode).toBe(401);
    expect((await app.inject('/readyz')).statusCode).toBe(200);

    // A silent headset's session, ended by the sweeper once the clock passes DISCONNECT_AFTER_MS.
    await makeHeadsetInSession(database.db, organization.id, { at: clock.now() });
    await expect.poll(async () => samples(await scrape()).get('vrtc_active_sessions')).toBe(1);
    clock.advance(5000);

    await expect
      .poll(
        async () =>
          samples(await scrape()).get('vrtc_sweeper_sessions_ended_total{reason="disconnected"}'),
        { timeout: 10_000 },
      )
      .toBe(1);
    const figures = samples(await scrape());
    expect(figures.get('vrtc_active_sessions')).toBe(0);
    expect(figures.get('vrtc_heartbeats_total{outcome="ok"}')).toBe(3);
    expect(figures.get('vrtc_heartbeats_total{outcome="refused"}')).toBe(1);
    expect(figures.get('vrtc_sweeper_sessions_ended_total{reason="timeout"}')).toBe(0);
    expect(figures.get('vrtc_sweeper_runs_total{outcome="swept"}')).toBeGreaterThan(0);
    expect(figures.get('vrtc_last_seen_flush_devices_sum')).toBeGreaterThanOrEqual(1);
    expect(figures.get('vrtc_last_seen_flush_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    expect(
      figures.get('vrtc_background_job_runs_total{job="last_seen_flush",outcome="ok"}'),
    ).toBeGreaterThan(0);
    expect(figures.get('vrtc_device_cache_lookups_total{result="miss"}')).toBeGreaterThan(0);
    expect(figures.get('vrtc_device_cache_lookups_total{result="hit"}')).toBeGreaterThan(0);
    expect(figures.get('vrtc_db_pool_max_connections')).toBe(kind === 'pglite' ? 1 : 20);
    expect(figures.get('vrtc_draining')).toBe(0);
    expect(figures.get('vrtc_device_notifications_listening')).toBe(1);
    expect(figures.get('process_resident_memory_bytes')).toBeGreaterThan(0);

    // Console requests are timed by declared route and status; heartbeats and probes are not.
    const count = (labels: string) =>
      figures.get(`vrtc_http_request_duration_seconds_count{${labels}}`);
    expect(count('method="POST",route="/v1/auth/login",status_code="200"')).toBe(1);
    expect(count('method="GET",route="/v1/vr-users",status_code="200"')).toBe(1);
    expect(count('method="GET",route="unmatched",status_code="404"')).toBe(1);
    const routes = [...figures.keys()]
      .filter((key) => key.startsWith('vrtc_http_request_duration_seconds_count'))
      .join('\n');
    expect(routes).not.toContain('/v1/headset/heartbeat');
    expect(routes).not.toContain('/readyz');

    // online devices: the headset that sent heartbeats (the silent one is 5 s behind the clock).
    expect(figures.get('vrtc_online_devices')).toBeGreaterThanOrEqual(1);
  });
});
