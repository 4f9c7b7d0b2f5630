import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { makeDevice, makeSession, makeTenant, makeHeadsetInSession } from '../../test/factories.ts';
import { createTestApp, type TestApp, contextOf } from '../../test/harness.ts';
import { databaseUrlFor } from '../../test/template.ts';
import type { AppContext } from '../app.ts';
import { openDatabase } from '../platform/database/db.ts';
import { runSweep, SWEEPER_LOCK_KEY } from './sweeper.ts';

let t: TestApp;
let ctx: AppContext;
beforeAll(async () => {
  // A 10-minute session timeout keeps the "heartbeating for the whole session" test short.
  t = await createTestApp({ config: { sessionTimeoutMs: 10 * 60_000 } });
  ctx = contextOf(t);
});
afterAll(() => t.close());

const onPostgres = inject('dbTemplate').kind === 'postgres';

async function stored(id: string) {
  return t.db
    .selectFrom('sessions')
    .select(['status', 'success', 'ended_at', 'duration_seconds', 'completed_tasks'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** A device seen now with an active session started now. */
const activeSession = (organizationId: string) =>
  makeHeadsetInSession(t.db, organizationId, { at: t.clock.now(), completedTasks: 1 });

function heartbeat(headers: Record<string, string>) {
  return t.app.inject({ method: 'POST', url: '/v1/headset/heartbeat', headers, payload: {} });
}

/** Leaves no active session behind, so each test counts only its own. */
async function sweepEverythingAway() {
  t.clock.advance(t.config.sessionTimeoutMs + t.config.disconnectAfterMs + 1);
  await runSweep(ctx);
}

describe('session sweeper', () => {
  it('ends the session of a device silent for DISCONNECT_AFTER_MS as disconnected', async () => {
    await sweepEverythingAway();
    const { organization } = await makeTenant(t);
    const { headset, session } = await activeSession(organization.id);
    const startedAt = t.clock.now();

    t.clock.advance(t.config.disconnectAfterMs);
    expect(await runSweep(ctx)).toEqual({ ran: true, disconnected: [], timedOut: [] });
    expect((await stored(session.id)).status).toBe('active');

    t.clock.advance(1000);
    expect(await runSweep(ctx)).toEqual({ ran: true, disconnected: [session.id], timedOut: [] });
    expect(await stored(session.id)).toEqual({
      status: 'disconnected',
      success: false,
      ended_at: t.clock.now(),
      duration_seconds: Math.floor((t.clock.now().getTime() - startedAt.getTime()) / 1000),
      completed_tasks: 1,
    });

    // The headset coming back within the late-result window may still send what it held: its
    // progress is taken, the session stays ended until its finish arrives.
    const progress = await t.app.inject({
      method: 'POST',
      url: `/v1/headset/sessions/${session.id}/progress`,
      headers: headset.headers,
      payload: { completed_tasks: 2 },
    });
    expect(progress.statusCode).toBe(200);
    expect(progress.json()).toMatchObject({ status: 'disconnected', completed_tasks: 2 });
    expect((await heartbeat(headset.headers)).json().session).toBeNull();
    // A second sweep finds nothing more to do.
    expect(await runSweep(ctx)).toEqual({ ran: true, disconnected: [], timedOut: [] });
  });

  it('keeps a heartbeating device in session, then ends it as timeout after SESSION_TIMEOUT_MS', async () => {
    await sweepEverythingAway();
    const { organization } = await makeTenant(t);
    const { headset, session } = await activeSession(organization.id);
    const step = Math.floor(t.config.disconnectAfterMs / 2);
    let elapsed = 0;
    while (elapsed + step < t.config.sessionTimeoutMs) {
      t.clock.advance(step);
      elapsed += step;
      expect((await heartbeat(headset.headers)).statusCode).toBe(200);
      await t.app.lastSeen.flush();
      expect(await runSweep(ctx)).toEqual({ ran: true, disconnected: [], timedOut: [] });
    }
    expect((await stored(session.id)).status).toBe('active');

    t.clock.advance(t.config.sessionTimeoutMs - elapsed + 1);
    await heartbeat(headset.headers);
    await t.app.lastSeen.flush();
    expect(await runSweep(ctx)).toEqual({ ran: true, disconnected: [], timedOut: [session.id] });
    expect(await stored(session.id)).toMatchObject({
      status: 'timeout',
      success: false,
      ended_at: t.clock.now(),
      duration_seconds: Math.floor((t.config.sessionTimeoutMs + 1) / 1000),
    });
  });

  it('ends sessions of devices never seen or deleted as disconnected', async () => {
    await sweepEverythingAway();
    const { organization } = await makeTenant(t);
    const neverSeen = await makeDevice(t.db, organization.id, { last_seen_at: null });
    const a = await makeSession(t.db, {
      organizationId: organization.id,
      deviceId: neverSeen.id,
      status: 'active',
      startedAt: t.clock.now(),
    });
    const deleted = await activeSession(organization.id);
    await t.db.deleteFrom('devices').where('id', '=', deleted.headset.device.id).execute();

    const result = await runSweep(ctx);
    expect(result.disconnected.sort()).toEqual([a.id, deleted.session.id].sort());
    expect((await stored(a.id)).status).toBe('disconnected');
    expect((await stored(deleted.session.id)).status).toBe('disconnected');
  });

  it('leaves ended sessions alone', async () => {
    await sweepEverythingAway();
    const { organization } = await makeTenant(t);
    const device = await makeDevice(t.db, organization.id, { last_seen_at: null });
    const done = await makeSession(t.db, {
      organizationId: organization.id,
      deviceId: device.id,
      status: 'completed',
      startedAt: new Date(t.clock.now().getTime() - 3 * t.config.sessionTimeoutMs),
    });
    const before = await stored(done.id);
    expect(await runSweep(ctx)).toEqual({ ran: true, disconnected: [], timedOut: [] });
    expect(await stored(done.id)).toEqual(before);
  });

  it('ends each session exactly once when two sweeps race', async () => {
    await sweepEverythingAway();
    const { organization } = await makeTenant(t);
    const sessions = [];
    for (let i = 0; i < 5; i++) sessions.push((await activeSession(organization.id)).session.id);
    t.clock.advance(t.config.disconnectAfterMs + 1);

    const results = await Promise.all([runSweep(ctx), runSweep(ctx)]);
    const ended = results.flatMap((r) => r.disconnected);
    expect(ended.sort()).toEqual([...sessions].sort());
    for (const id of sessions) expect((await stored(id)).ended_at).toEqual(t.clock.now());
  });

  it.runIf(onPostgres)(
    'runs one sweeper at a time across database pools: the other skips',
    async () => {
      await sweepEverythingAway();
      const { organization } = await makeTenant(t);
      const sessions = [];
      for (let i = 0; i < 5; i++) sessions.push((await activeSession(organization.id)).session.id);
      t.clock.advance(t.config.disconnectAfterMs + 1);

      const template = inject('dbTemplate');
      if (template.kind !== 'postgres') throw new Error('PostgreSQL only');
      const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(t.db);
      const url = databaseUrlFor(template.serverUrl, rows[0]!.name);
      const other = await openDatabase({ databaseUrl: url, poolSize: 2 });
      const third = await openDatabase({ databaseUrl: url, poolSize: 2 });
      try {
        const otherCtx = { ...ctx, db: other.db };
        const thirdCtx = { ...ctx, db: third.db };

        // While another process holds the sweeper lock, a sweep skips and changes nothing.
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        const holder = third.db.transaction().execute(async (trx) => {
          await sql`SELECT pg_advisory_xact_lock(${SWEEPER_LOCK_KEY})`.execute(trx);
          locked();
          await released;
        });
        await isLocked;
        expect(await runSweep(otherCtx)).toEqual({ ran: false, disconnected: [], timedOut: [] });
        expect(await runSweep(ctx)).toEqual({ ran: false, disconnected: [], timedOut: [] });
        for (const id of sessions) expect((await stored(id)).status).toBe('active');
        release();
        await holder;

        // Racing sweeps through three separate pools end each session exactly once.
        const results = await Promise.all([runSweep(ctx), runSweep(otherCtx), runSweep(thirdCtx)]);
        const ended = results.flatMap((r) => r.disconnected);
        expect(ended.sort()).toEqual([...sessions].sort());
        expect(results.filter((r) => r.ran).length).toBeGreaterThanOrEqual(1);
        for (const id of sessions) expect((await stored(id)).status).toBe('disconnected');
      } finally {
        await other.close();
        await third.close();
      }
    },
  );
});
