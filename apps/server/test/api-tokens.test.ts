import crypto from 'node:crypto';
import type { ApiTokenList, CreatedApiToken } from '@vrtc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../src/auth/auth.service.ts';
import { bearer, createTestApp, type TestApp } from './harness.ts';
import { makeAccount, makeTenant } from './factories.ts';

/**
 * Personal API tokens (issue 40, "Done when"): an account's own named bearer tokens for scripts.
 * The secret is shown once and kept hashed; the token acts as its account (an auditor's reads
 * only); revoked or expired, it is refused at once; nobody else can see or revoke it.
 */
let t: TestApp;
let staff: Awaited<ReturnType<typeof makeTenant>>;
beforeAll(async () => {
  t = await createTestApp();
  staff = await makeTenant(t);
});
afterAll(() => t.close());

async function create(headers: Record<string, string>, payload: Record<string, unknown>) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/me/api-tokens',
    headers,
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<CreatedApiToken>();
}

async function list(headers: Record<string, string>) {
  const response = await t.app.inject({ method: 'GET', url: '/v1/me/api-tokens', headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ApiTokenList>().api_tokens;
}

const meWith = (token: string) =>
  t.app.inject({ method: 'GET', url: '/v1/me', headers: bearer(token) });

describe('personal API tokens', () => {
  it('shows the secret once, keeps only its hash, and signs requests in as the account', async () => {
    const made = await create(staff.headers, { name: '  Nightly export  ' });
    expect(made).toMatchObject({ name: 'Nightly export', expires_at: null, last_used_at: null });
    expect(made.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.db
      .selectFrom('auth_tokens')
      .selectAll()
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(made.token);
    expect(stored.token_hash).toBe(crypto.hash('sha256', made.token, 'hex'));

    const me = await meWith(made.token);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: staff.account.id, role: staff.account.role });
    const [listed] = (await list(staff.headers)).filter((token) => token.id === made.id);
    expect(listed).toEqual({
      id: made.id,
      name: 'Nightly export',
      created_at: made.created_at,
      last_used_at: t.clock.now().toISOString(),
      expires_at: null,
    });
    expect(JSON.stringify(listed)).not.toContain(made.token);
    // The console's own sign-in is not an API token.
    expect((await list(staff.headers)).map((token) => token.id)).toEqual([made.id]);
  });

  it('is refused at once when revoked, and after its end', async () => {
    const revoked = await create(staff.headers, { name: 'Revoked' });
    expect((await meWith(revoked.token)).statusCode).toBe(200);
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/api-tokens/${revoked.id}`,
      headers: staff.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await meWith(revoked.token)).statusCode).toBe(401);
    expect((await list(staff.headers)).map((token) => token.id)).not.toContain(revoked.id);

    const end = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const ending = await create(staff.headers, { name: 'An hour', expires_at: end });
    expect(ending.expires_at).toBe(end);
    expect((await meWith(ending.token)).statusCode).toBe(200);
    t.clock.advance(3600_000);
    expect((await meWith(ending.token)).statusCode).toBe(401);
    // An end in the past is refused.
    const past = await t.app.inject({
      method: 'POST',
      url: '/v1/me/api-tokens',
      headers: staff.headers,
      payload: { name: 'Too late', expires_at: '2001-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ error: 'validation_error' });
  });

  it('belongs to its account alone: another account neither sees nor revokes it', async () => {
    const mine = await create(staff.headers, { name: 'Mine' });
    const colleague = await makeTenant(t, { role: 'admin' });
    expect(await list(colleague.headers)).toEqual([]);
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/api-tokens/${mine.id}`,
      headers: colleague.headers,
    });
    expect(response.statusCode).toBe(404);
    expect((await meWith(mine.token)).statusCode).toBe(200);
    // Nor is a console sign-in revoked through this route.
    const signIn = await t.db
      .selectFrom('auth_tokens')
      .select('id')
      .where('account_id', '=', colleague.account.id)
      .executeTakeFirstOrThrow();
    const own = await t.app.inject({
      method: 'DELETE',
      url: `/v1/me/api-tokens/${signIn.id}`,
      headers: colleague.headers,
    });
    expect(own.statusCode).toBe(404);
  });

  it('of an auditor reads as the auditor and changes nothing', async () => {
    const account = await makeAccount(t.db, {
      role: 'auditor',
      organization_id: staff.organization.id,
    });
    const auditor = bearer((await issueToken(t, account.id)).token);
    const made = await create(auditor, { name: 'Inspection' });
    const read = await t.app.inject({
      method: 'GET',
      url: '/v1/vr-users',
      headers: bearer(made.token),
    });
    expect(read.statusCode).toBe(200);
    const write = await t.app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers: bearer(made.token),
      payload: { name: 'Not by an auditor' },
    });
    expect(write.statusCode).toBe(403);
  });

  it('holds at most 20 per account (409 quota_exceeded)', async () => {
    const busy = await makeTenant(t);
    for (let index = 0; index < 20; index += 1) await create(busy.headers, { name: `S${index}` });
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/me/api-tokens',
      headers: busy.headers,
      payload: { name: 'One too many' },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: 'quota_exceeded' });
  });
});
