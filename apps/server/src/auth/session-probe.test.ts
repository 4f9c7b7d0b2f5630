import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAccount, TEST_PASSWORD } from '../../test/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../test/harness.ts';

/**
 * GET /v1/auth/session (issue 42): the console learns on start whether it is signed in without a
 * refused request. Signed out it is answered 200 `signed_in: false`, and neither the audit log
 * nor the refusal counters hear of it; signed in, the account as GET /v1/me answers it. GET
 * /v1/me itself still refuses a caller without a sign-in (401), as scripts expect.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const HOST = 'console.example:8080';
const ORIGIN = `http://${HOST}`;

const probe = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: '/v1/auth/session', headers: { host: HOST, ...headers } });

async function auditEventCount() {
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_events`.execute(
    t.db,
  );
  return rows[0]!.n;
}

/** Signs in as the console does (its Origin): the cookie, as the browser sends it back. */
async function consoleSignIn() {
  const account = await makeAccount(t.db);
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    headers: { host: HOST, origin: ORIGIN },
    payload: { email: account.email, password: TEST_PASSWORD },
  });
  expect(response.statusCode, response.body).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'vrtc_session');
  return { account, cookie: `vrtc_session=${cookie!.value}` };
}

describe('GET /v1/auth/session', () => {
  it('answers a signed-out caller 200 signed_in false, writing no audit event and counting no refusal', async () => {
    const events = await auditEventCount();
    const refusalsBefore = await t.app.metrics.text();
    const answer = await probe();
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ signed_in: false, account: null });
    // An unknown cookie or token is not a refusal either.
    for (const headers of [{ cookie: 'vrtc_session=not-a-sign-in' }, bearer('not-a-token')]) {
      const stale = await probe(headers);
      expect(stale.statusCode).toBe(200);
      expect(stale.json()).toEqual({ signed_in: false, account: null });
    }
    expect(await auditEventCount()).toBe(events);
    expect(refusalCount(await t.app.metrics.text())).toBe(refusalCount(refusalsBefore));
    // As a refused GET /v1/me is counted (the counter this would have moved).
    await t.app.inject({ method: 'GET', url: '/v1/me' });
    expect(refusalCount(await t.app.metrics.text())).toBe(refusalCount(refusalsBefore) + 1);
  });

  it('leaves GET /v1/me as it was: 401 without a sign-in', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/v1/me' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('answers the signed-in account as GET /v1/me does, by cookie or bearer token', async () => {
    const { account, cookie } = await consoleSignIn();
    const me = await t.app.inject({
      method: 'GET',
      url: '/v1/me',
      headers: { host: HOST, cookie },
    });
    expect(me.statusCode).toBe(200);
    const answer = await probe({ cookie });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ signed_in: true, account: me.json() });
    expect(answer.json().account).toMatchObject({ id: account.id, email: account.email });

    const token = cookie.slice('vrtc_session='.length);
    expect((await probe(bearer(token))).json()).toEqual({ signed_in: true, account: me.json() });
  });

  it('after sign-out answers signed_in false and clears the cookie the browser still sends', async () => {
    const { cookie } = await consoleSignIn();
    const out = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { host: HOST, origin: ORIGIN, cookie },
    });
    expect(out.statusCode, out.body).toBe(200);
    const events = await auditEventCount();
    const answer = await probe({ cookie });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ signed_in: false, account: null });
    expect(answer.cookies.find((c) => c.name === 'vrtc_session')).toMatchObject({
      value: '',
    });
    expect(await auditEventCount()).toBe(events);
  });
});

/** The refusals of callers without a sign-in, summed over routes. */
function refusalCount(metrics: string): number {
  return metrics
    .split('\n')
    .filter((line) => line.startsWith('vrtc_unauthenticated_refusals_total'))
    .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
}
