import crypto from 'node:crypto';
import type { LiveEvent } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeEnrolledDevice,
  makeSession,
  makeTenant,
  makeTenantInSession,
} from '../../test/factories.ts';
import { BACKGROUND, contextOf, createTestApp, type TestApp } from '../../test/harness.ts';
import { purgeReportKeys } from './report-keys.ts';
import { runSweep } from './sweeper.ts';

/**
 * The headset protocol, version 2 (docs/headset-protocol.md): reports keyed for retries, applied
 * in any order without going backwards, on the headset's clock within the session's, and results
 * that arrive after the server ended the session for silence.
 */
const DAY = 24 * 3600 * 1000;
let t: TestApp;
beforeAll(async () => {
  // A day, so the console's sign-in (TOKEN_TTL_MS, 7 days) outlives the window in these tests.
  t = await createTestApp({ config: { lateResultWindowMs: DAY } });
});
afterAll(() => t.close());

function report(
  headers: Record<string, string>,
  sessionId: string,
  what: 'progress' | 'finish',
  payload: object,
  key?: string,
) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/headset/sessions/${sessionId}/${what}`,
    headers: key ? { ...headers, 'Idempotency-Key': key } : headers,
    payload,
  });
}

const deviceInSession = (maxTasks = 5) => makeTenantInSession(t, { maxTasks });

async function sessionJson(headers: Record<string, string>, id: string) {
  const response = await t.app.inject({ url: `/v1/sessions/${id}`, headers });
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** The headset falls silent; the sweeper ends its session as disconnected. */
async function silenceUntilDisconnected(sessionId: string) {
  t.clock.advance(t.config.disconnectAfterMs + 1);
  const swept = await runSweep(contextOf(t));
  expect(swept.disconnected).toContain(sessionId);
}

describe('heartbeat', () => {
  it('answers the server clock and keeps the backlog the headset reports, shown on the headset', async () => {
    const { tenant, headset } = await deviceInSession();
    const beat = await t.app.inject({
      method: 'POST',
      url: '/v1/headset/heartbeat',
      headers: headset.headers,
      payload: { pending_reports: 3 },
    });
    expect(beat.statusCode).toBe(200);
    expect(beat.json().server_time).toBe(t.clock.now().toISOString());
    await t.app.lastSeen.flush();
    const devices = await t.app.inject({ url: '/v1/devices', headers: tenant.headers });
    expect(devices.json().devices[0]).toMatchObject({ id: headset.device.id, pending_reports: 3 });

    // The outbox drained: the next heartbeat says 0; one that does not say leaves it.
    t.clock.advance(1000);
    await t.app.inject({
      method: 'POST',
      url: '/v1/headset/heartbeat',
      headers: headset.headers,
      payload: { pending_reports: 0 },
    });
    await t.app.lastSeen.flush();
    t.clock.advance(1000);
    await t.app.inject({ method: 'POST', url: '/v1/headset/heartbeat', headers: headset.headers });
    await t.app.lastSeen.flush();
    const after = await t.app.inject({ url: '/v1/devices', headers: tenant.headers });
    expect(after.json().devices[0].pending_reports).toBe(0);
  });

  it('refuses a negative backlog', async () => {
    const { headset } = await deviceInSession();
    const beat = await t.app.inject({
      method: 'POST',
      url: '/v1/headset/heartbeat',
      headers: headset.headers,
      payload: { pending_reports: -1 },
    });
    expect(beat.statusCode).toBe(400);
    expect(beat.json().error).toBe('validation_error');
  });
});

describe('order', () => {
  it('never lowers completed_tasks: an older or repeated progress is 200 and changes nothing', async () => {
    const { tenant, headset, session } = await deviceInSession();
    const task = (number: number, result: 'passed' | 'failed') => ({ number, result });

    const third = await report(headset.headers, session.id, 'progress', {
      completed_tasks: 3,
      seq: 3,
      task: task(3, 'passed'),
    });
    expect(third.statusCode).toBe(200);
    expect(third.json().completed_tasks).toBe(3);

    // seq 1 arrives late: its count is older, its task not told yet is added.
    const first = await report(headset.headers, session.id, 'progress', {
      completed_tasks: 1,
      seq: 1,
      task: task(1, 'passed'),
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      id: session.id,
      status: 'active',
      completed_tasks: 3,
      max_tasks: 5,
    });
    // An older report telling task 3 again does not replace what the newer one told.
    const stale = await report(headset.headers, session.id, 'progress', {
      completed_tasks: 2,
      seq: 2,
      task: task(3, 'failed'),
    });
    expect(stale.statusCode).toBe(200);
    // The same report again, and one without seq but a lower count.
    expect(
      (
        await report(headset.headers, session.id, 'progress', {
          completed_tasks: 3,
          seq: 3,
          task: task(3, 'passed'),
        })
      ).json().completed_tasks,
    ).toBe(3);
    expect(
      (await report(headset.headers, session.id, 'progress', { completed_tasks: 0 })).json()
        .completed_tasks,
    ).toBe(3);

    const detail = await sessionJson(tenant.headers, session.id);
    expect(detail.completed_tasks).toBe(3);
    expect(
      detail.tasks.map((row: { number: number; result: string }) => [row.number, row.result]),
    ).toEqual([
      [1, 'passed'],
      [3, 'passed'],
    ]);
  });

  it('keeps the higher count when the finish tells fewer tasks than were reported', async () => {
    const { tenant, headset, session } = await deviceInSession();
    await report(headset.headers, session.id, 'progress', { completed_tasks: 4, seq: 4 });
    const finish = await report(headset.headers, session.id, 'finish', {
      completed_tasks: 2,
      success: true,
      tasks: [{ number: 2, result: 'passed' }],
    });
    expect(finish.statusCode).toBe(200);
    expect(finish.json()).toEqual({
      id: session.id,
      status: 'completed',
      completed_tasks: 4,
      max_tasks: 5,
    });
    expect((await sessionJson(tenant.headers, session.id)).completed_tasks).toBe(4);
  });

  it('answers progress after the finish as an older report: 200, the session as it stands, nothing changed', async () => {
    const { tenant, headset, session } = await deviceInSession();
    const finish = await report(headset.headers, session.id, 'finish', {
      completed_tasks: 3,
      success: true,
    });
    expect(finish.statusCode).toBe(200);
    const before = await sessionJson(tenant.headers, session.id);

    t.clock.advance(1000);
    const late = await report(headset.headers, session.id, 'progress', {
      completed_tasks: 5,
      seq: 9,
      task: { number: 5, result: 'passed' },
    });
    expect(late.statusCode).toBe(200);
    expect(late.json()).toEqual({
      id: session.id,
      status: 'completed',
      completed_tasks: 3,
      max_tasks: 5,
    });
    expect(await sessionJson(tenant.headers, session.id)).toEqual(before);
  });

  it('orders the timeline by when the tasks ended on the headset, clamped to the session', async () => {
    const { tenant, headset, session } = await deviceInSession();
    const startedAt = t.clock.now().getTime();
    t.clock.advance(60_000);
    const at = (ms: number) => new Date(startedAt + ms).toISOString();
    await report(headset.headers, session.id, 'progress', {
      completed_tasks: 2,
      seq: 2,
      occurred_at: at(40_000),
      task: { number: 2, result: 'passed' },
    });
    await report(headset.headers, session.id, 'progress', {
      completed_tasks: 1,
      seq: 1,
      occurred_at: at(20_000),
      task: { number: 1, result: 'passed' },
    });
    // A headset clock an hour behind: the time used is the session's start.
    await report(headset.headers, session.id, 'progress', {
      completed_tasks: 3,
      seq: 3,
      occurred_at: at(-3600_000),
      task: { number: 3, result: 'passed' },
    });
    const detail = await sessionJson(tenant.headers, session.id);
    expect(
      detail.tasks.map((task: { number: number; occurred_at: string }) => [
        task.number,
        task.occurred_at,
      ]),
    ).toEqual([
      [3, at(0)],
      [1, at(20_000)],
      [2, at(40_000)],
    ]);
    // The received time is kept as it came.
    const stored = await t.db
      .selectFrom('session_tasks')
      .select('occurred_at_reported')
      .where('session_id', '=', session.id)
      .where('number', '=', 3)
      .executeTakeFirstOrThrow();
    expect(stored.occurred_at_reported?.toISOString()).toBe(at(-3600_000));

    // A finish from a clock an hour ahead ends the session now, not in the future.
    const finish = await report(headset.headers, session.id, 'finish', {
      completed_tasks: 3,
      success: true,
      occurred_at: at(60_000 + 3600_000),
    });
    expect(finish.statusCode).toBe(200);
    const ended = await sessionJson(tenant.headers, session.id);
    expect(ended.ended_at).toBe(t.clock.now().toISOString());
    expect(ended.duration_seconds).toBe(60);
  });
});

describe('Idempotency-Key', () => {
  it('answers a retried finish with the first answer, and counts it once', async () => {
    const { tenant, headset, session } = await deviceInSession();
    const key = crypto.randomUUID();
    const body = { completed_tasks: 5, success: true };
    const first = await report(headset.headers, session.id, 'finish', body, key);
    expect(first.statusCode).toBe(200);
    t.clock.advance(5000);
    // The same key in other letter case, and keys in another order: the same report.
    const retried = await report(
      headset.headers,
      session.id,
      'finish',
      { success: true, completed_tasks: 5 },
      key.toUpperCase(),
    );
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual(first.json());
    // Without a key a second finish is refused, as before.
    const unkeyed = await report(headset.headers, session.id, 'finish', body);
    expect(unkeyed.statusCode).toBe(409);
    expect(unkeyed.json().error).toBe('session_not_active');

    const history = await t.app.inject({ url: '/v1/sessions', headers: tenant.headers });
    expect(history.json().total).toBe(1);
    expect(history.json().sessions[0]).toMatchObject({ status: 'completed', completed_tasks: 5 });
  });

  it('refuses the key with another body, or on the other route, with 422 idempotency_key_reused', async () => {
    const { headset, session } = await deviceInSession();
    const key = crypto.randomUUID();
    expect(
      (await report(headset.headers, session.id, 'progress', { completed_tasks: 1 }, key))
        .statusCode,
    ).toBe(200);
    const other = await report(
      headset.headers,
      session.id,
      'progress',
      { completed_tasks: 2 },
      key,
    );
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toBe('idempotency_key_reused');
    const finish = await report(
      headset.headers,
      session.id,
      'finish',
      { completed_tasks: 1, success: true },
      key,
    );
    expect(finish.statusCode).toBe(422);
    // Nothing of the refused reports was applied.
    const row = await t.db
      .selectFrom('sessions')
      .select(['status', 'completed_tasks'])
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'active', completed_tasks: 1 });
  });

  it('is scoped to the headset: another headset may use the same key', async () => {
    const a = await deviceInSession();
    const b = await deviceInSession();
    const key = crypto.randomUUID();
    const first = await report(
      a.headset.headers,
      a.session.id,
      'progress',
      { completed_tasks: 1 },
      key,
    );
    const second = await report(
      b.headset.headers,
      b.session.id,
      'progress',
      { completed_tasks: 2 },
      key,
    );
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ id: b.session.id, completed_tasks: 2 });
  });

  it('lets one of two concurrent copies win; the other answers what it stored', async () => {
    const { headset, session } = await deviceInSession();
    const key = crypto.randomUUID();
    const body = { completed_tasks: 2, success: false };
    const answers = await Promise.all([
      report(headset.headers, session.id, 'finish', body, key),
      report(headset.headers, session.id, 'finish', body, key),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(answers[1]!.json()).toEqual(answers[0]!.json());
  });

  it('refuses a key that is not a UUID', async () => {
    const { headset, session } = await deviceInSession();
    const response = await report(
      headset.headers,
      session.id,
      'progress',
      { completed_tasks: 1 },
      'not-a-uuid',
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('validation_error');
  });

  it('keeps keys for the late-result window, then forgets them', async () => {
    const { headset, session } = await deviceInSession();
    const key = crypto.randomUUID();
    const body = { completed_tasks: 5, success: true };
    const first = await report(headset.headers, session.id, 'finish', body, key);
    const cutoff = () => new Date(t.clock.now().getTime() - t.config.lateResultWindowMs);

    t.clock.advance(t.config.lateResultWindowMs);
    await purgeReportKeys(t.db, cutoff());
    const retried = await report(headset.headers, session.id, 'finish', body, key);
    expect(retried.json()).toEqual(first.json());

    t.clock.advance(1);
    await purgeReportKeys(t.db, cutoff());
    const forgotten = await report(headset.headers, session.id, 'finish', body, key);
    expect(forgotten.statusCode).toBe(409);
  });
});

describe('late results', () => {
  it('turns a session the server ended as disconnected into the result, marked late, and moves the statistics exactly', async () => {
    // Early on a day of its own: the day's figures are this test's, and "today" stays that day.
    t.clock.set(new Date(Date.UTC(2031, 0, 15, 6)));
    const admin = await makeTenant(t, { role: 'admin' });
    const { tenant, headset, session } = await deviceInSession(4);
    const startedAt = t.clock.now();
    await report(headset.headers, session.id, 'progress', {
      completed_tasks: 1,
      seq: 1,
      task: { number: 1, result: 'passed' },
    });
    await silenceUntilDisconnected(session.id);
    const day = startedAt.toISOString().slice(0, 10);
    const stats = async () =>
      (
        await t.app.inject({
          url: `/v1/admin/stats/range?start_date=${day}&end_date=${day}`,
          headers: admin.headers,
        })
      ).json();
    const before = await stats();

    const events: LiveEvent[] = [];
    const unsubscribe = t.app.live.subscribe((event) => events.push(event));
    t.clock.advance(DAY / 2);
    // The outbox sends in order: the progress it held, then the finish.
    const lateProgress = await report(headset.headers, session.id, 'progress', {
      completed_tasks: 3,
      seq: 2,
      occurred_at: new Date(startedAt.getTime() + 30_000).toISOString(),
      task: { number: 3, result: 'passed' },
    });
    expect(lateProgress.statusCode).toBe(200);
    expect(lateProgress.json()).toMatchObject({ status: 'disconnected', completed_tasks: 3 });
    const finishedAt = new Date(startedAt.getTime() + 90_000);
    const key = crypto.randomUUID();
    const body = {
      completed_tasks: 4,
      success: true,
      occurred_at: finishedAt.toISOString(),
      tasks: [
        { number: 2, result: 'passed' },
        { number: 4, result: 'passed' },
      ],
    };
    const finish = await report(headset.headers, session.id, 'finish', body, key);
    expect(finish.statusCode).toBe(200);
    expect(finish.json()).toEqual({
      id: session.id,
      status: 'completed',
      completed_tasks: 4,
      max_tasks: 4,
    });

    const detail = await sessionJson(tenant.headers, session.id);
    expect(detail).toMatchObject({
      status: 'completed',
      success: true,
      completed_tasks: 4,
      ended_at: finishedAt.toISOString(),
      duration_seconds: 90,
      late_result: true,
      ended_by_server_as: 'disconnected',
    });
    expect(detail.tasks.map((task: { number: number }) => task.number).sort()).toEqual([
      1, 2, 3, 4,
    ]);
    // The history and its CSV export show the final result with the mark.
    const history = await t.app.inject({ url: '/v1/sessions', headers: tenant.headers });
    expect(history.json().sessions[0]).toMatchObject({
      id: session.id,
      status: 'completed',
      late_result: true,
      ended_by_server_as: 'disconnected',
    });
    const csv = await t.app.inject({ url: '/v1/sessions/export', headers: tenant.headers });
    const [header, row] = csv.body.slice(1).split('\r\n');
    const columns = header!.split(',');
    const cells = row!.split(',');
    expect(columns.at(-2)).toBe('Result Arrived Later');
    expect(cells[6]).toBe('completed');
    expect([
      cells[columns.indexOf('Success')],
      cells[columns.indexOf('Result Arrived Later')],
    ]).toEqual(['Yes', 'Yes']);
    // The live views hear of it (on PostgreSQL through the other processes' channel: wait).
    await vi.waitFor(
      () =>
        expect(events).toContainEqual(
          expect.objectContaining({
            type: 'session',
            change: 'ended',
            session_id: session.id,
            late_result: true,
          }),
        ),
      BACKGROUND,
    );
    unsubscribe();

    // The one session of the day moved from disconnected to completed in every figure.
    expect(before).toMatchObject({
      total_sessions: 1,
      completed_sessions: 0,
      disconnected_sessions: 1,
      success_rate: 0,
      average_completion: 25,
      average_duration_seconds: Math.floor((t.config.disconnectAfterMs + 1) / 1000),
      daily: [{ date: day, sessions: 1, completed: 0 }],
    });
    const after = await stats();
    expect(after).toEqual({
      ...before,
      completed_sessions: 1,
      disconnected_sessions: 0,
      success_rate: 100,
      average_completion: 100,
      average_duration_seconds: 90,
      daily: [{ date: day, sessions: 1, completed: 1 }],
      scenario_stats: [
        {
          ...before.scenario_stats[0],
          completed_sessions: 1,
          success_rate: 100,
          average_completion: 100,
        },
      ],
      top_organizations: [{ ...before.top_organizations[0], success_rate: 100 }],
    });

    // The retry of the finish changes nothing and answers the same.
    const retried = await report(headset.headers, session.id, 'finish', body, key);
    expect(retried.json()).toEqual(finish.json());
    expect(await stats()).toEqual(after);
  });

  it('takes a finish within LATE_RESULT_WINDOW_MS of the server ending it, not after', async () => {
    const a = await deviceInSession();
    const b = await deviceInSession();
    await silenceUntilDisconnected(a.session.id);
    expect((await runSweep(contextOf(t))).ran).toBe(true);
    t.clock.advance(t.config.lateResultWindowMs);
    const inTime = await report(a.headset.headers, a.session.id, 'finish', {
      completed_tasks: 1,
      success: false,
    });
    expect(inTime.statusCode).toBe(200);
    expect((await sessionJson(a.tenant.headers, a.session.id)).late_result).toBe(true);

    // b was ended by the same sweep; a millisecond later its window has passed.
    t.clock.advance(1);
    const late = await report(b.headset.headers, b.session.id, 'finish', {
      completed_tasks: 1,
      success: true,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toBe('late_result_window_passed');
    const progress = await report(b.headset.headers, b.session.id, 'progress', {
      completed_tasks: 1,
    });
    expect(progress.json().error).toBe('late_result_window_passed');
    expect((await sessionJson(b.tenant.headers, b.session.id)).status).toBe('disconnected');
  });

  it('keeps a session that timed out as the reason the server had', async () => {
    const tenant = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, tenant.organization.id, {
      last_seen_at: t.clock.now(),
    });
    const session = await makeSession(t.db, {
      organizationId: tenant.organization.id,
      deviceId: headset.device.id,
      status: 'timeout',
      startedAt: new Date(t.clock.now().getTime() - 3 * 3600_000),
      durationSeconds: 2 * 3600,
    });
    const finish = await report(headset.headers, session.id, 'finish', {
      completed_tasks: 3,
      success: true,
    });
    expect(finish.statusCode).toBe(200);
    expect(await sessionJson(tenant.headers, session.id)).toMatchObject({
      status: 'completed',
      late_result: true,
      ended_by_server_as: 'timeout',
      // No occurred_at: the moment the server ended it stands.
      duration_seconds: 2 * 3600,
    });
  });

  it('leaves a cancelled session cancelled: 409 session_cancelled', async () => {
    const { tenant, headset, session } = await deviceInSession();
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${session.id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancel.statusCode).toBe(200);
    for (const what of ['progress', 'finish'] as const) {
      const response = await report(
        headset.headers,
        session.id,
        what,
        {
          completed_tasks: 2,
          success: true,
          ...(what === 'progress' ? { success: undefined } : {}),
        },
        crypto.randomUUID(),
      );
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe('session_cancelled');
    }
    const detail = await sessionJson(tenant.headers, session.id);
    expect(detail).toMatchObject({
      status: 'cancelled',
      late_result: false,
      ended_by_server_as: null,
    });
  });

  it("takes no other headset's finish", async () => {
    const { session } = await deviceInSession();
    const other = await deviceInSession();
    await silenceUntilDisconnected(session.id);
    const response = await report(other.headset.headers, session.id, 'finish', {
      completed_tasks: 1,
      success: true,
    });
    expect(response.statusCode).toBe(404);
  });
});
