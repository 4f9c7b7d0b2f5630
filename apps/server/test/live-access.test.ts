import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/auth/auth.service.ts';
import { makeAccount, makeOrganization, makeTenant } from './factories.ts';
import { bearer, createTestApp, type TestApp } from './harness.ts';
import { openStream, type Stream } from './live-stream.ts';

/**
 * A live stream (GET /v1/events) speaks for the sign-in that opened it only as long as a plain
 * request with that token would: whatever ends the sign-in, or changes who it is, ends the
 * stream, and the token cannot open another. Each wait is for the stream's end, which the server
 * must bring about by itself (the client never closes it here).
 */

let t: TestApp;
let base: string;
let admin: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await makeTenant(t, { role: 'admin' });
});
afterAll(() => t.close());

const send = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method: method as 'POST', url, headers, payload });

/**
 * Ends within 2 s of the change's answer (the change has committed), and a reconnect is refused
 * with 401.
 */
async function expectEnded(stream: Stream, headers: Record<string, string>, changedAt: number) {
  await stream.ended;
  expect(Date.now() - changedAt).toBeLessThan(2000);
  const again = await fetch(`${base}/v1/events`, { headers });
  expect(again.status).toBe(401);
  expect(await again.json()).toMatchObject({ error: 'unauthorized' });
}

/** A stream that stays open: it still hears its organisation's next event. */
async function expectStillOpen(stream: Stream, organizationId: string) {
  const deviceId = crypto.randomUUID();
  t.app.live.publish({
    type: 'device',
    change: 'updated',
    device_id: deviceId,
    organization_id: organizationId,
  });
  await stream.next((e) => (e.data as { device_id?: string }).device_id === deviceId);
}

describe('a live stream ends when its access ends', () => {
  it('on sign-out', async () => {
    const tenant = await makeTenant(t);
    const stream = await openStream(base, tenant.headers);
    expect((await send('POST', '/v1/auth/logout', tenant.headers)).statusCode).toBe(200);
    const at = Date.now();
    await expectEnded(stream, tenant.headers, at);
  });

  it('when an admin resets the password: every sign-in of the account ends', async () => {
    const tenant = await makeTenant(t);
    const second = bearer((await issueToken(t, tenant.account.id)).token);
    const streams = [await openStream(base, tenant.headers), await openStream(base, second)];
    const reset = await send(
      'POST',
      `/v1/admin/users/${tenant.account.id}/password`,
      admin.headers,
      {
        new_password: 'a-new-password-1',
      },
    );
    expect(reset.statusCode).toBe(200);
    const at = Date.now();
    await expectEnded(streams[0]!, tenant.headers, at);
    await expectEnded(streams[1]!, second, at);
  });

  it('when an account changes its own password: its other sign-ins end, the one it used stays', async () => {
    const self = await makeTenant(t, { role: 'admin' });
    const other = bearer((await issueToken(t, self.account.id)).token);
    const kept = await openStream(base, self.headers);
    const ended = await openStream(base, other);
    try {
      const changed = await send(
        'POST',
        `/v1/admin/users/${self.account.id}/password`,
        self.headers,
        { new_password: 'my-new-password-1' },
      );
      expect(changed.statusCode).toBe(200);
      const at = Date.now();
      await expectEnded(ended, other, at);
      await expectStillOpen(kept, self.organization.id);
    } finally {
      kept.close();
    }
  });

  it('when the account is deactivated', async () => {
    const tenant = await makeTenant(t);
    const stream = await openStream(base, tenant.headers);
    const answer = await send('PUT', `/v1/admin/users/${tenant.account.id}`, admin.headers, {
      active: false,
    });
    expect(answer.statusCode).toBe(200);
    const at = Date.now();
    await expectEnded(stream, tenant.headers, at);
  });

  it('when the account is deleted', async () => {
    const tenant = await makeTenant(t);
    const stream = await openStream(base, tenant.headers);
    const answer = await send('DELETE', `/v1/admin/users/${tenant.account.id}`, admin.headers);
    expect(answer.statusCode).toBe(200);
    const at = Date.now();
    await expectEnded(stream, tenant.headers, at);
  });

  it('when the account’s role changes', async () => {
    const tenant = await makeTenant(t);
    const stream = await openStream(base, tenant.headers);
    const answer = await send('PUT', `/v1/admin/users/${tenant.account.id}`, admin.headers, {
      role: 'admin',
    });
    expect(answer.statusCode).toBe(200);
    const at = Date.now();
    await expectEnded(stream, tenant.headers, at);
  });

  it('when the account moves to another organisation, and it hears nothing of the old one after', async () => {
    const tenant = await makeTenant(t);
    const elsewhere = await makeOrganization(t.db);
    const stream = await openStream(base, tenant.headers);
    const answer = await send('PUT', `/v1/admin/users/${tenant.account.id}`, admin.headers, {
      organization_id: elsewhere.id,
    });
    expect(answer.statusCode).toBe(200);
    const at = Date.now();
    // Published after the move committed: the stream must not tell it.
    const late = crypto.randomUUID();
    t.app.live.publish({
      type: 'device',
      change: 'enrolled',
      device_id: late,
      organization_id: tenant.organization.id,
    });
    await expectEnded(stream, tenant.headers, at);
    expect(stream.events.some((e) => (e.data as { device_id?: string }).device_id === late)).toBe(
      false,
    );
  });

  it('when its organisation is deactivated, for every account of it', async () => {
    const tenant = await makeTenant(t);
    const colleagueAccount = await makeAccount(t.db, { organization_id: tenant.organization.id });
    const colleague = bearer((await issueToken(t, colleagueAccount.id)).token);
    const streams = [await openStream(base, tenant.headers), await openStream(base, colleague)];
    const bystander = await makeTenant(t);
    const untouched = await openStream(base, bystander.headers);
    try {
      const answer = await send(
        'PUT',
        `/v1/admin/organizations/${tenant.organization.id}`,
        admin.headers,
        { active: false },
      );
      expect(answer.statusCode).toBe(200);
      const at = Date.now();
      await expectEnded(streams[0]!, tenant.headers, at);
      await expectEnded(streams[1]!, colleague, at);
      await expectStillOpen(untouched, bystander.organization.id);
    } finally {
      untouched.close();
    }
  });

  it('when its organisation is deleted (reached only once its accounts are gone)', async () => {
    // An organisation with accounts cannot be deleted (organization_in_use); the stream of its
    // last account ends with the account, and the organisation's deletion then succeeds.
    const tenant = await makeTenant(t);
    const stream = await openStream(base, tenant.headers);
    const refused = await send(
      'DELETE',
      `/v1/admin/organizations/${tenant.organization.id}`,
      admin.headers,
    );
    expect(refused.statusCode).toBe(409);
    expect(
      (await send('DELETE', `/v1/admin/users/${tenant.account.id}`, admin.headers)).statusCode,
    ).toBe(200);
    const at = Date.now();
    await expectEnded(stream, tenant.headers, at);
    const deleted = await send(
      'DELETE',
      `/v1/admin/organizations/${tenant.organization.id}`,
      admin.headers,
    );
    expect(deleted.statusCode).toBe(200);
  });

  it('whatever makes the change: a role set straight in the database ends the stream too', async () => {
    // No service call: the database itself tells of the change (a trigger), so a route written
    // tomorrow that forgets to end sign-ins still cannot leave a stream open for the old identity.
    const tenant = await makeTenant(t);
    const stream = await openStream(base, tenant.headers);
    await t.db
      .updateTable('accounts')
      .set({ role: 'admin' })
      .where('id', '=', tenant.account.id)
      .execute();
    await stream.ended;
    // The token itself was not ended here: it now opens a stream as the admin it has become.
    const again = await openStream(base, tenant.headers);
    again.close();
  });

  it('keeps streams open through changes that do not touch their access', async () => {
    const tenant = await makeTenant(t);
    const stream = await openStream(base, tenant.headers);
    try {
      const renamed = await send('PUT', `/v1/admin/users/${tenant.account.id}`, admin.headers, {
        email: `renamed-${crypto.randomUUID()}@example.test`,
      });
      expect(renamed.statusCode).toBe(200);
      // Another account signs out.
      const colleague = await issueToken(t, admin.account.id);
      expect((await send('POST', '/v1/auth/logout', bearer(colleague.token))).statusCode).toBe(200);
      await expectStillOpen(stream, tenant.organization.id);
    } finally {
      stream.close();
    }
  });
});
