import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEnrolledDevice,
  makeOrganization,
  makeTenant,
  makeTenantInSession,
} from '../../test/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';
import {
  ENROLL_MAX_FAILURES_PER_ADDRESS,
  ENROLLMENT_CODE_ALPHABET,
  ENROLLMENT_CODE_TTL_MS,
} from './enrollment.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const codeShape = new RegExp(`^[${ENROLLMENT_CODE_ALPHABET}]{8}$`);

async function enrollmentCode(headers: Record<string, string>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/devices/enrollment-code',
    headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ code: string; expires_at: string }>();
}

async function enroll(payload: object, remoteAddress = '192.0.2.1') {
  return t.app.inject({ method: 'POST', url: '/v1/headset/enroll', payload, remoteAddress });
}

async function heartbeat(headers: Record<string, string>, payload: object = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/headset/heartbeat', headers, payload });
}

async function report(
  headers: Record<string, string>,
  sessionId: string,
  what: 'progress' | 'finish',
  payload: object,
) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/headset/sessions/${sessionId}/${what}`,
    headers,
    payload,
  });
}

const deviceInSession = (maxTasks = 3) => makeTenantInSession(t, { maxTasks });

describe('enrolment codes', () => {
  it('gives the same code for 24 hours, then a new one', async () => {
    const { headers } = await makeTenant(t);
    const first = await enrollmentCode(headers);
    expect(first.code).toMatch(codeShape);
    expect(new Date(first.expires_at).getTime()).toBe(
      t.clock.now().getTime() + ENROLLMENT_CODE_TTL_MS,
    );

    t.clock.advance(ENROLLMENT_CODE_TTL_MS - 1000);
    expect(await enrollmentCode(headers)).toEqual(first);

    t.clock.advance(1001);
    const renewed = await enrollmentCode(headers);
    expect(renewed.code).toMatch(codeShape);
    expect(renewed.code).not.toBe(first.code);
    expect(new Date(renewed.expires_at).getTime()).toBe(
      t.clock.now().getTime() + ENROLLMENT_CODE_TTL_MS,
    );
  });

  it('gives each organisation its own code and needs a signed-in user', async () => {
    const a = await makeTenant(t);
    const b = await makeTenant(t);
    expect((await enrollmentCode(a.headers)).code).not.toBe((await enrollmentCode(b.headers)).code);
    const anonymous = await t.app.inject({ method: 'POST', url: '/v1/devices/enrollment-code' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('revoking and renewing the enrolment code', () => {
  const codeCall = (method: 'POST' | 'DELETE', url: string, headers: Record<string, string>) =>
    t.app.inject({ method, url, headers });

  it('renews the code at once: the old one stops working, headsets enrolled with it stay', async () => {
    const { headers } = await makeTenant(t);
    const first = await enrollmentCode(headers);
    const enrolled = await enroll({ code: first.code, name: 'Quest-1', type: 'quest' });
    expect(enrolled.statusCode).toBe(201);

    const renewed = await codeCall('POST', '/v1/devices/enrollment-code/renew', headers);
    expect(renewed.statusCode).toBe(200);
    const second = renewed.json<{ code: string; expires_at: string }>();
    expect(second.code).toMatch(codeShape);
    expect(second.code).not.toBe(first.code);
    expect(await enrollmentCode(headers)).toEqual(second);

    expect((await enroll({ code: first.code, name: 'Quest-2', type: 'quest' })).json()).toEqual({
      error: 'enrollment_code_invalid',
      message: 'Enrollment code is invalid or has expired',
    });
    expect((await enroll({ code: second.code, name: 'Quest-2', type: 'quest' })).statusCode).toBe(
      201,
    );
    const token = enrolled.json<{ device_token: string }>().device_token;
    expect((await heartbeat(bearer(token))).statusCode).toBe(200);
  });

  it('revokes the code: nobody enrols with it, and the next "Add headset" gets a new one', async () => {
    const { headers } = await makeTenant(t);
    const { code } = await enrollmentCode(headers);
    const revoked = await codeCall('DELETE', '/v1/devices/enrollment-code', headers);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({ ok: true });
    expect((await enroll({ code, name: 'Quest-1', type: 'quest' })).statusCode).toBe(400);
    expect((await enrollmentCode(headers)).code).not.toBe(code);
  });

  it('enrols 200 headsets through one address with the right code, wrong codes from there or not', async () => {
    const { headers, organization } = await makeTenant(t);
    const { code } = await enrollmentCode(headers);
    const site = '192.0.2.55';
    const wrong = (count: number) =>
      Promise.all(
        Array.from({ length: count }, () =>
          enroll({ code: 'ZZZZZZZZ', name: 'Guess', type: 'other' }, site),
        ),
      ).then((answers) => answers.map((answer) => answer.statusCode));
    // 20 wrong codes from the site's NAT used to lock every headset behind it out.
    expect(new Set(await wrong(20))).toEqual(new Set([400]));
    for (let batch = 0; batch < 4; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          enroll({ code, name: `Fleet-${batch * 50 + i}`, type: 'pico' }, site),
        ),
      );
      expect(new Set(answers.map((answer) => answer.statusCode))).toEqual(new Set([201]));
    }
    const enrolled = await t.db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organization.id)
      .executeTakeFirstOrThrow();
    expect(Number(enrolled.n)).toBe(200);
    // Wrong codes are still limited: the right ones were not counted against the address.
    expect(new Set(await wrong(ENROLL_MAX_FAILURES_PER_ADDRESS - 20))).toEqual(new Set([400]));
    expect(await wrong(1)).toEqual([429]);
  });

  it('needs a signed-in user of the organisation', async () => {
    expect((await codeCall('DELETE', '/v1/devices/enrollment-code', {})).statusCode).toBe(401);
    expect((await codeCall('POST', '/v1/devices/enrollment-code/renew', {})).statusCode).toBe(401);
  });
});

describe('enrolment', () => {
  it('enrols a headset into the code owner organisation, case-insensitively', async () => {
    const { headers, organization } = await makeTenant(t);
    const { code } = await enrollmentCode(headers);
    const response = await enroll({
      code: `  ${code.toLowerCase()} `,
      name: ' Quest-7 ',
      type: 'quest',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<{ device_id: string; device_token: string }>();
    expect(body.device_token.length).toBeGreaterThanOrEqual(32);

    const devices = await t.app.inject({ url: '/v1/devices', headers });
    expect(devices.json().devices).toEqual([
      expect.objectContaining({
        id: body.device_id,
        name: 'Quest-7',
        type: 'quest',
        movement_type: 'slide',
        status: 'waiting',
        organization_id: organization.id,
        last_seen: t.clock.now().toISOString(),
      }),
    ]);

    const beat = await heartbeat(bearer(body.device_token));
    expect(beat.statusCode).toBe(200);
    expect(beat.json()).toEqual({
      device_id: body.device_id,
      movement_type: 'slide',
      heartbeat_interval_ms: t.config.heartbeatIntervalMs,
      session: null,
      ended_session: null,
      // The server's clock, for the headset to correct its occurred_at by.
      server_time: t.clock.now().toISOString(),
    });
    // The token itself is never stored.
    const stored = await t.db
      .selectFrom('devices')
      .select('token_hash')
      .where('id', '=', body.device_id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(body.device_token);
  });

  it('refuses a wrong or expired code with a clear message', async () => {
    const { headers } = await makeTenant(t);
    const { code } = await enrollmentCode(headers);
    const wrong = await enroll({ code: 'WRONG234', name: 'Pico-1', type: 'pico' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({
      error: 'enrollment_code_invalid',
      message: 'Enrollment code is invalid or has expired',
    });

    t.clock.advance(ENROLLMENT_CODE_TTL_MS + 1);
    const expired = await enroll({ code, name: 'Pico-1', type: 'pico' });
    expect(expired.statusCode).toBe(400);
    // The headset can tell the trainee to ask for a new code rather than to retype this one.
    expect(expired.json()).toEqual({
      error: 'enrollment_code_invalid',
      message: 'Enrollment code has expired',
      details: { reason: 'expired' },
    });
    expect(wrong.json().details).toBeUndefined();
  });

  it('refuses codes of deactivated organisations', async () => {
    const { headers, organization } = await makeTenant(t);
    const { code } = await enrollmentCode(headers);
    await t.db
      .updateTable('organizations')
      .set({ active: false })
      .where('id', '=', organization.id)
      .execute();
    const response = await enroll({ code, name: 'Quest-1', type: 'quest' });
    expect(response.statusCode).toBe(400);
  });

  it('rate-limits failed attempts per client address', async () => {
    const { headers } = await makeTenant(t);
    const { code } = await enrollmentCode(headers);
    const address = '198.51.100.7';
    const guesses = await Promise.all(
      Array.from({ length: ENROLL_MAX_FAILURES_PER_ADDRESS }, () =>
        enroll({ code: 'ZZZZZZZZ', name: 'Guess', type: 'other' }, address),
      ),
    );
    expect(guesses.every((response) => response.statusCode === 400)).toBe(true);
    const limited = await enroll({ code, name: 'Quest-1', type: 'quest' }, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBe(String(15 * 60));

    // Another address is not affected.
    expect(
      (await enroll({ code, name: 'Quest-1', type: 'quest' }, '198.51.100.8')).statusCode,
    ).toBe(201);
  });

  it('rejects malformed enrolment bodies with 400', async () => {
    for (const payload of [
      {},
      { code: 'ABCDEFGH', name: 'X', type: 'vive' },
      { code: 'ABCDEFGH', name: '   ', type: 'quest' },
      { code: 'ABCDEFGH', name: 'X', type: 'quest', extra: 1 },
      { code: 12345678, name: 'X', type: 'quest' },
    ]) {
      const response = await enroll(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('device tokens', () => {
  it('work only on /v1/headset/*, and user tokens do not work there', async () => {
    const { headers, organization } = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, organization.id);

    const withUserToken = await heartbeat(headers);
    expect(withUserToken.statusCode).toBe(401);
    expect(withUserToken.json().error).toBe('unauthorized');

    const withDeviceToken = await t.app.inject({ url: '/v1/vr-users', headers: headset.headers });
    expect(withDeviceToken.statusCode).toBe(401);

    expect((await heartbeat({})).statusCode).toBe(401);
    expect((await heartbeat(bearer('not-a-token'))).statusCode).toBe(401);
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
  });

  it('get answers without the browser security headers the console API carries', async () => {
    const { headers, organization } = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, organization.id);

    const consoleApi = await t.app.inject({ url: '/v1/vr-users', headers });
    expect(consoleApi.statusCode).toBe(200);
    expect(consoleApi.headers['content-security-policy']).toContain("default-src 'self'");
    expect(consoleApi.headers['x-content-type-options']).toBe('nosniff');

    for (const [response, status] of [
      [await heartbeat(headset.headers), 200],
      [await enroll({ code: 'WRONG234', name: 'Quest', type: 'quest' }), 400],
    ] as const) {
      expect(response.statusCode).toBe(status);
      expect(response.headers['content-security-policy']).toBeUndefined();
      expect(response.headers['x-content-type-options']).toBeUndefined();
    }
    const documented = await t.app.inject({ url: '/docs/json' });
    expect(Object.keys(documented.json().paths)).toContain('/v1/headset/heartbeat');
  });

  it('stop working as soon as the device is deleted or its organisation deactivated', async () => {
    const { organization } = await makeTenant(t);
    const removed = await makeEnrolledDevice(t.db, organization.id);
    await t.db.deleteFrom('devices').where('id', '=', removed.device.id).execute();
    const afterDelete = await heartbeat(removed.headers);
    expect(afterDelete.statusCode).toBe(401);
    expect(afterDelete.json().error).toBe('unauthorized');

    const other = await makeOrganization(t.db);
    const headset = await makeEnrolledDevice(t.db, other.id);
    expect((await heartbeat(headset.headers)).statusCode).toBe(200);
    // Through the API, which invalidates the device cache (device-events.ts): a direct SQL
    // update would be served from the cache until its safety TTL.
    const admin = await makeTenant(t, { role: 'admin' });
    const deactivated = await t.app.inject({
      method: 'PUT',
      url: `/v1/admin/organizations/${other.id}`,
      headers: admin.headers,
      payload: { active: false },
    });
    expect(deactivated.statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).statusCode).toBe(401);
  });
});

describe('heartbeat', () => {
  it('delivers the active session with its snapshot', async () => {
    const { headset, session } = await deviceInSession(4);
    await t.db
      .updateTable('sessions')
      .set({
        selected_options: JSON.stringify([
          { id: '6f1d3c2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f', name: 'Night' },
        ]),
        scenario_name: 'Пожарная безопасность',
      })
      .where('id', '=', session.id)
      .execute();
    const response = await heartbeat(headset.headers, {
      battery_percent: 80,
      app_version: '1.2.0',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().session).toEqual({
      id: session.id,
      scenario_id: session.scenario_id,
      module_id: session.module_id,
      level_id: session.level_id,
      level_revision: session.level_revision,
      movement_type: 'slide',
      vr_user_name: session.vr_user_name,
      scenario_name: 'Пожарная безопасность',
      module_name: session.module_name,
      level_name: session.level_name,
      level_number: session.level_number,
      max_tasks: 4,
      selected_options: [{ id: '6f1d3c2e-8a4b-4c5d-9e6f-7a8b9c0d1e2f', name: 'Night' }],
      started_at: session.started_at.toISOString(),
      completed_tasks: 0,
    });
  });

  it('answers the movement type set in the console', async () => {
    const { organization } = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, organization.id);
    await t.db
      .updateTable('devices')
      .set({ movement_type: 'teleport' })
      .where('id', '=', headset.device.id)
      .execute();
    expect((await heartbeat(headset.headers)).json().movement_type).toBe('teleport');
  });

  it('accepts an empty request and rejects malformed fields', async () => {
    const { organization } = await makeTenant(t);
    const headset = await makeEnrolledDevice(t.db, organization.id);
    const noBody = await t.app.inject({
      method: 'POST',
      url: '/v1/headset/heartbeat',
      headers: headset.headers,
    });
    expect(noBody.statusCode).toBe(200);
    for (const payload of [
      { battery_percent: 101 },
      { battery_percent: 'full' },
      { app_version: '' },
      { x: 1 },
    ]) {
      const response = await heartbeat(headset.headers, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/v1/headset/heartbeat',
      headers: { ...headset.headers, 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(garbage.statusCode).toBe(400);
  });
});

describe('progress and finish', () => {
  it('records progress within 0..max_tasks', async () => {
    const { headset, session, tenant } = await deviceInSession(3);
    const ok = await report(headset.headers, session.id, 'progress', { completed_tasks: 2 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      id: session.id,
      status: 'active',
      completed_tasks: 2,
      max_tasks: 3,
    });

    const tooMany = await report(headset.headers, session.id, 'progress', { completed_tasks: 4 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().error).toBe('validation_error');
    expect(tooMany.json().message).toContain('completed_tasks');
    const negative = await report(headset.headers, session.id, 'progress', { completed_tasks: -1 });
    expect(negative.statusCode).toBe(400);
    const fractional = await report(headset.headers, session.id, 'progress', {
      completed_tasks: 1.5,
    });
    expect(fractional.statusCode).toBe(400);

    const active = await t.app.inject({ url: '/v1/sessions/active', headers: tenant.headers });
    expect(active.json().active_sessions).toEqual([
      expect.objectContaining({ id: session.id, completed_tasks: 2 }),
    ]);
    // The heartbeat hands a restarted headset its progress back.
    expect((await heartbeat(headset.headers)).json().session.completed_tasks).toBe(2);
  });

  it('finishes as completed, with success true or false', async () => {
    const { headset, session, tenant } = await deviceInSession(3);
    t.clock.advance(95_000);
    const finished = await report(headset.headers, session.id, 'finish', {
      completed_tasks: 3,
      success: true,
    });
    expect(finished.statusCode).toBe(200);
    expect(finished.json()).toEqual({
      id: session.id,
      status: 'completed',
      completed_tasks: 3,
      max_tasks: 3,
    });

    const failed = await deviceInSession(5);
    const failure = await report(failed.headset.headers, failed.session.id, 'finish', {
      completed_tasks: 2,
      success: false,
    });
    expect(failure.statusCode).toBe(200);

    const rows = await t.db
      .selectFrom('sessions')
      .select(['id', 'status', 'success', 'completed_tasks', 'duration_seconds', 'ended_at'])
      .where('id', 'in', [session.id, failed.session.id])
      .execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        {
          id: session.id,
          status: 'completed',
          success: true,
          completed_tasks: 3,
          duration_seconds: 95,
          ended_at: t.clock.now(),
        },
        {
          id: failed.session.id,
          status: 'completed',
          success: false,
          completed_tasks: 2,
          duration_seconds: 0,
          ended_at: t.clock.now(),
        },
      ]),
    );
    // The device is free again, and the next heartbeat says so.
    expect((await heartbeat(headset.headers)).json().session).toBeNull();
    const history = await t.app.inject({ url: '/v1/sessions', headers: tenant.headers });
    expect(history.json().sessions).toEqual([
      expect.objectContaining({ id: session.id, status: 'completed', success: true }),
    ]);

    const tooMany = await deviceInSession(3);
    const over = await report(tooMany.headset.headers, tooMany.session.id, 'finish', {
      completed_tasks: 4,
      success: true,
    });
    expect(over.statusCode).toBe(400);
  });

  it('answers 409 session_cancelled once the console cancelled the session', async () => {
    const { headset, session, tenant } = await deviceInSession(3);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${session.id}/cancel`,
      headers: tenant.headers,
    });
    expect(cancel.statusCode).toBe(200);
    expect((await heartbeat(headset.headers)).json().session).toBeNull();

    const progress = await report(headset.headers, session.id, 'progress', { completed_tasks: 1 });
    expect(progress.statusCode).toBe(409);
    expect(progress.json()).toEqual({
      error: 'session_cancelled',
      message: 'The session was cancelled in the console; stop playing',
    });
    const finish = await report(headset.headers, session.id, 'finish', {
      completed_tasks: 1,
      success: true,
    });
    expect(finish.statusCode).toBe(409);
    const row = await t.db
      .selectFrom('sessions')
      .select(['status', 'completed_tasks'])
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'cancelled', completed_tasks: 0 });

    const again = await report(headset.headers, session.id, 'finish', {
      completed_tasks: 3,
      success: true,
    });
    expect(again.statusCode).toBe(409);
  });

  it("answers 404 to a device reporting on another device's session, or an unknown one", async () => {
    const { session, tenant } = await deviceInSession(3);
    const intruder = await makeEnrolledDevice(t.db, tenant.organization.id);
    const progress = await report(intruder.headers, session.id, 'progress', { completed_tasks: 1 });
    expect(progress.statusCode).toBe(404);
    expect(progress.json().error).toBe('not_found');
    const finish = await report(intruder.headers, session.id, 'finish', {
      completed_tasks: 3,
      success: true,
    });
    expect(finish.statusCode).toBe(404);
    const unknown = await report(
      intruder.headers,
      '00000000-0000-4000-8000-000000000000',
      'progress',
      {
        completed_tasks: 1,
      },
    );
    expect(unknown.statusCode).toBe(404);
    const malformed = await report(intruder.headers, 'not-a-uuid', 'progress', {
      completed_tasks: 1,
    });
    expect(malformed.statusCode).toBe(400);

    const row = await t.db
      .selectFrom('sessions')
      .select(['status', 'completed_tasks'])
      .where('id', '=', session.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'active', completed_tasks: 0 });
  });
});
