import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStartableSetup, makeTenant, makeVrUser } from './factories.ts';
import { createTestApp, type TestApp } from './harness.ts';

/** Per-organisation limits (QUOTA_*), small here so a test can reach them. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    config: { quotas: { vrUsers: 3, devices: 2, integrations: 2, enrollmentCodesPerDay: 3 } },
  });
});
afterAll(() => t.close());

const post = (url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers, payload });

describe('quotas', () => {
  it('refuses a VR user past the limit with 409 quota_exceeded, whatever the burst', async () => {
    const tenant = await makeTenant(t);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post('/v1/vr-users', tenant.headers, { name: `P${i}` })),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(3);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.json()).toEqual({
      error: 'quota_exceeded',
      message: 'This organization has reached its limit of 3 VR users.',
      details: { resource: 'vr_users', limit: 3 },
    });
    // Another organisation has its own allowance.
    const other = await makeTenant(t);
    expect((await post('/v1/vr-users', other.headers, { name: 'P' })).statusCode).toBe(201);
  });

  it('counts VR users created by starting a session under a new name', async () => {
    const tenant = await makeTenant(t);
    for (let i = 0; i < 3; i++) await makeVrUser(t.db, tenant.organization.id, { name: `V${i}` });
    const setup = await makeStartableSetup(t, tenant.organization.id);
    const started = await post('/v1/sessions/start', tenant.headers, {
      device_id: setup.device.id,
      level_id: setup.level.id,
      vr_user_name: 'Someone new',
      selected_options: [],
    });
    expect(started.statusCode).toBe(409);
    expect(started.json().error).toBe('quota_exceeded');
    // An existing name still works.
    const again = await post('/v1/sessions/start', tenant.headers, {
      device_id: setup.device.id,
      level_id: setup.level.id,
      vr_user_name: 'V1',
      selected_options: [],
    });
    expect(again.statusCode).toBe(201);
  });

  it('refuses a headset past the limit at enrolment', async () => {
    const tenant = await makeTenant(t);
    const { code } = (await post('/v1/devices/enrollment-code', tenant.headers)).json();
    const enroll = (name: string) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/headset/enroll',
        payload: { code, name, type: 'quest' },
        remoteAddress: '192.0.2.99',
      });
    expect((await enroll('Q1')).statusCode).toBe(201);
    expect((await enroll('Q2')).statusCode).toBe(201);
    const third = await enroll('Q3');
    expect(third.statusCode).toBe(409);
    expect(third.json()).toEqual({
      error: 'quota_exceeded',
      message: 'This organization has reached its limit of 2 headsets.',
      details: { resource: 'devices', limit: 2 },
    });
  });

  it('limits the enrolment codes an organisation issues in 24 hours', async () => {
    const tenant = await makeTenant(t);
    expect((await post('/v1/devices/enrollment-code', tenant.headers)).statusCode).toBe(200);
    // Reading the current code again issues nothing.
    expect((await post('/v1/devices/enrollment-code', tenant.headers)).statusCode).toBe(200);
    expect((await post('/v1/devices/enrollment-code/renew', tenant.headers)).statusCode).toBe(200);
    expect((await post('/v1/devices/enrollment-code/renew', tenant.headers)).statusCode).toBe(200);
    const refused = await post('/v1/devices/enrollment-code/renew', tenant.headers);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'quota_exceeded',
      message: 'This organization has reached its limit of 3 enrollment codes issued in 24 hours.',
      details: { resource: 'enrollment_codes', limit: 3 },
    });
    t.clock.advance(24 * 3600 * 1000 + 1);
    expect((await post('/v1/devices/enrollment-code/renew', tenant.headers)).statusCode).toBe(200);
  });

  it('refuses an integration past the limit, whatever the burst', async () => {
    const tenant = await makeTenant(t);
    const webhook = (i: number) =>
      post('/v1/integrations', tenant.headers, {
        kind: 'webhook',
        // A public address, written as one: nothing is resolved or sent.
        url: `https://93.184.216.34/hook/${i}`,
        events: ['device.enrolled'],
      });
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => webhook(i)));
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.json()).toEqual({
      error: 'quota_exceeded',
      message: 'This organization has reached its limit of 2 integrations.',
      details: { resource: 'integrations', limit: 2 },
    });
    const other = await makeTenant(t);
    const lrs = await post('/v1/integrations', other.headers, {
      kind: 'xapi',
      url: 'https://93.184.216.34/xapi',
      key: 'k',
      secret: 's',
    });
    expect(lrs.statusCode, lrs.body).toBe(201);
  });
});
