import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { DatabaseHandle } from '../src/platform/database/db.ts';
import { makeAccount, makeEnrolledDevice, makeOrganization, TEST_PASSWORD } from './factories.ts';
import { bearer, createTestDatabase } from './harness.ts';
import { openStream, type Stream } from './live-stream.ts';
import { startServerProcess, stopServerProcess, type ServerProcess } from './server-process.ts';
import { waitFor } from './wait-for.ts';

/**
 * The database going away must not stop the server: an administrator (or a failover) ending the
 * server's connections 20 times within a minute, while a headset sends heartbeats and a console
 * holds a live stream. The server process (as operations.md runs it) never exits, and after each
 * cut the live stream it kept open carries events again within 5 s.
 */

const TERMINATIONS = 20;
/** 20 cuts, one every 2.5 s: 47.5 s from the first to the last. */
const PACE_MS = 2500;
const EVENTS_FLOW_WITHIN_MS = 5000;
const HEARTBEAT_PAUSE_MS = 50;

describe.runIf(inject('dbTemplate').kind === 'postgres')('PostgreSQL cutting connections', () => {
  let database: DatabaseHandle;
  let server: ServerProcess;
  let admin: pg.Client;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-outage-'));

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startServerProcess({
      DATABASE_URL: database.databaseUrl!,
      DATA_DIR: dataDir,
      SIGNING_SECRET: 'outage-secret',
    });
    const template = inject('dbTemplate');
    admin = new pg.Client({
      connectionString: template.kind === 'postgres' ? template.serverUrl : '',
    });
    await admin.connect();
  }, 300_000);
  afterAll(async () => {
    await admin?.end();
    if (server) await stopServerProcess(server);
    await database?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the process never exits, and live events flow again within 5 s of each cut', async () => {
    const organization = await makeOrganization(database.db);
    const account = await makeAccount(database.db, { organization_id: organization.id });
    const headset = await makeEnrolledDevice(database.db, organization.id);
    const signedIn = await fetch(`${server.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: TEST_PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const headers = bearer(((await signedIn.json()) as { token: string }).token);
    const stream = await openStream(server.url, headers);
    const readyCount = () => stream.events.filter((e) => e.event === 'ready').length;
    let streamEnded = false;
    void stream.ended.then(() => (streamEnded = true));

    // Heartbeats all along (some fail while connections are cut).
    let beating = true;
    const beats = { ok: 0, failed: 0 };
    const heartbeats = (async () => {
      while (beating) {
        const answer = await fetch(`${server.url}/v1/headset/heartbeat`, {
          method: 'POST',
          headers: { ...headset.headers, 'content-type': 'application/json' },
          body: '{}',
        }).catch(() => undefined);
        if (answer?.status === 200) beats.ok += 1;
        else beats.failed += 1;
        // Pacing: twenty a second, far more often than a headset sends them, without keeping a
        // core busy for the minute the cuts take.
        await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_PAUSE_MS));
      }
    })();

    const databaseName = new URL(database.databaseUrl!).pathname.slice(1);
    let movement: 'slide' | 'teleport' = 'teleport';
    const started = Date.now();
    let cutsDone = 0;
    try {
      for (let cut = 0; cut < TERMINATIONS; cut++) {
        const due = started + cut * PACE_MS;
        // Pacing: the cuts are spread over a minute by design.
        if (Date.now() < due) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
        const terminated = await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
          [databaseName],
        );
        expect(terminated.rowCount, 'the server held connections to cut').toBeGreaterThan(0);
        const cutAt = Date.now();
        const readies = readyCount();
        // Changes through the server until the stream tells of one: an event published while
        // the server was not listening yet is lost, so each try is a new change.
        cutsDone = cut;
        await eventsFlow(
          stream,
          headers,
          headset.device.id,
          () => {
            movement = movement === 'slide' ? 'teleport' : 'slide';
            return movement;
          },
          server.url,
          cutAt,
        );
        // Its LISTEN connection was among those cut: the stream says `ready` again, on which the
        // console reads anew what it may have missed meanwhile.
        await waitFor(() => readyCount() > readies, {
          timeout: cutAt + EVENTS_FLOW_WITHIN_MS - Date.now(),
          what: 'the stream to say ready again',
        });
        expect(server.child.exitCode, server.output()).toBeNull();
        expect(streamEnded).toBe(false);
      }
      expect(Date.now() - started).toBeLessThan(60_000);
    } catch (error) {
      const warnings = server
        .logLines()
        .filter((line) => line.level >= 40)
        .map((line) => `${line.msg} ${JSON.stringify(line.err ?? '')}`.slice(0, 300));
      const other = server
        .output()
        .split('\n')
        .filter((line) => !line.startsWith('{'))
        .slice(-30);
      throw new Error(
        `after cut ${cutsDone} (exit code ${server.child.exitCode}): ${(error as Error).message.slice(0, 300)}\n${warnings.slice(-5).join('\n')}\n${other.join('\n')}`,
      );
    } finally {
      beating = false;
      await heartbeats;
    }
    expect(beats.ok).toBeGreaterThan(0);
    const last = await fetch(`${server.url}/v1/headset/heartbeat`, {
      method: 'POST',
      headers: { ...headset.headers, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(last.status).toBe(200);
    expect(server.output()).not.toMatch(/uncaught|unhandled/i);
    stream.close();
  }, 120_000);
});

/**
 * Within EVENTS_FLOW_WITHIN_MS of `since`, a change made through the server reaches the stream.
 * Each try changes the headset's movement type and waits up to 500 ms for its event.
 */
async function eventsFlow(
  stream: Stream,
  headers: Record<string, string>,
  deviceId: string,
  nextMovement: () => string,
  url: string,
  since: number,
): Promise<void> {
  const statuses: number[] = [];
  for (;;) {
    const seen = stream.events.length;
    const answer = await fetch(`${url}/v1/devices/${deviceId}/movement-type`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ movement_type: nextMovement() }),
    }).catch(() => undefined);
    statuses.push(answer?.status ?? 0);
    if (answer?.status === 200) {
      const heard = await waitFor(
        () =>
          stream.events
            .slice(seen)
            .some((e) => (e.data as { device_id?: string }).device_id === deviceId),
        { timeout: Math.min(500, since + EVENTS_FLOW_WITHIN_MS - Date.now()) },
      ).catch(() => false);
      if (heard) return;
    }
    if (Date.now() - since > EVENTS_FLOW_WITHIN_MS) {
      throw new Error(
        `no live event within ${EVENTS_FLOW_WITHIN_MS} ms of the cut (changes answered ${statuses.join(', ')})`,
      );
    }
  }
}
