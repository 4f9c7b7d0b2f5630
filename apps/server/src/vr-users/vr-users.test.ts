import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { makeSession, makeTenant, makeVrUser } from '../../test/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('VR users', () => {
  it('creates, lists with session figures, updates and deletes', async () => {
    const { headers, organization } = await makeTenant(t);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/vr-users',
      headers,
      payload: { name: '  Anna Petrova ', notes: 'Night shift' },
    });
    expect(created.statusCode).toBe(201);
    const anna = created.json();
    expect(anna).toMatchObject({
      name: 'Anna Petrova',
      notes: 'Night shift',
      session_count: 0,
      completed_count: 0,
      last_session_at: null,
    });

    const boris = await makeVrUser(t.db, organization.id, { name: 'Boris' });
    const started = new Date('2026-03-01T10:00:00Z');
    await makeSession(t.db, {
      organizationId: organization.id,
      vrUserId: boris.id,
      status: 'completed',
      startedAt: started,
    });
    await makeSession(t.db, {
      organizationId: organization.id,
      vrUserId: boris.id,
      status: 'cancelled',
      startedAt: new Date('2026-03-02T10:00:00Z'),
    });

    const list = await t.app.inject({ url: '/v1/vr-users', headers });
    expect(list.statusCode).toBe(200);
    expect(list.json().vr_users).toEqual([
      expect.objectContaining({ name: 'Anna Petrova', session_count: 0 }),
      expect.objectContaining({
        name: 'Boris',
        session_count: 2,
        completed_count: 1,
        last_session_at: '2026-03-02T10:00:00.000Z',
      }),
    ]);

    const updated = await t.app.inject({
      method: 'PUT',
      url: `/v1/vr-users/${anna.id}`,
      headers,
      payload: { name: 'Anna P.', notes: '' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Anna P.', notes: null });
    // The answer is the row as updated, as the list reads it.
    const renamedBoris = await t.app.inject({
      method: 'PUT',
      url: `/v1/vr-users/${boris.id}`,
      headers,
      payload: { name: 'Boris B.' },
    });
    const listed = await t.app.inject({ url: '/v1/vr-users', headers });
    expect(renamedBoris.json()).toEqual(
      listed.json().vr_users.find((u: { id: string }) => u.id === boris.id),
    );
    expect(renamedBoris.json()).toMatchObject({
      name: 'Boris B.',
      session_count: 2,
      completed_count: 1,
      last_session_at: '2026-03-02T10:00:00.000Z',
    });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/v1/vr-users/${anna.id}`,
      headers,
    });
    expect(deleted.statusCode).toBe(200);
    const after = await t.app.inject({ url: '/v1/vr-users', headers });
    expect(after.json().vr_users.map((u: { name: string }) => u.name)).toEqual(['Boris B.']);
  });

  it('refuses to delete a VR user with sessions, with the specification message', async () => {
    const { headers, organization } = await makeTenant(t);
    const user = await makeVrUser(t.db, organization.id, { name: 'Olga' });
    await makeSession(t.db, { organizationId: organization.id, vrUserId: user.id });
    await makeSession(t.db, { organizationId: organization.id, vrUserId: user.id });
    const response = await t.app.inject({
      method: 'DELETE',
      url: `/v1/vr-users/${user.id}`,
      headers,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'vr_user_has_sessions',
      message:
        'Cannot delete Olga - they have 2 session(s). VR users with session history cannot be deleted.',
      details: { name: 'Olga', count: 2 },
    });
    const still = await t.db
      .selectFrom('vr_users')
      .select('id')
      .where('id', '=', user.id)
      .execute();
    expect(still).toHaveLength(1);
  });

  it('validates input', async () => {
    const { headers } = await makeTenant(t);
    const cases = [
      [{}, 'body.name is required'],
      [{ name: '   ' }, 'body.name must not be blank'],
      [{ name: 'x'.repeat(201) }, 'body.name must NOT have more than 200 characters'],
      [{ name: 'A', notes: 5 }, 'body.notes'],
      [{ name: 'A', age: 5 }, 'body.age is not allowed'],
    ] as const;
    for (const [payload, message] of cases) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/vr-users',
        headers,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    const badId = await t.app.inject({
      method: 'PUT',
      url: '/v1/vr-users/123',
      headers,
      payload: { name: 'A' },
    });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toBe('params.id must be a valid uuid');
    const unknown = await t.app.inject({
      method: 'PUT',
      url: '/v1/vr-users/00000000-0000-4000-8000-000000000000',
      headers,
      payload: { name: 'A' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('lists a VR user’s sessions newest first, paginated', async () => {
    const { headers, organization } = await makeTenant(t);
    const user = await makeVrUser(t.db, organization.id);
    for (let day = 1; day <= 3; day++) {
      await makeSession(t.db, {
        organizationId: organization.id,
        vrUserId: user.id,
        scenarioName: `S${day}`,
        startedAt: new Date(`2026-04-0${day}T09:00:00Z`),
        completedTasks: 2,
        maxTasks: 4,
        status: 'timeout',
        durationSeconds: 125,
        startedByEmail: `staff${day}@example.com`,
      });
    }
    const page = await t.app.inject({
      url: `/v1/vr-users/${user.id}/sessions?limit=2&offset=1`,
      headers,
    });
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.total).toBe(3);
    expect(body.sessions.map((s: { scenario_name: string }) => s.scenario_name)).toEqual([
      'S2',
      'S1',
    ]);
    expect(body.sessions[0]).toMatchObject({
      status: 'timeout',
      completed_tasks: 2,
      max_tasks: 4,
      duration_seconds: 125,
      started_at: '2026-04-02T09:00:00.000Z',
      // Who ran it, as the record's sessions table shows it.
      started_by_email: 'staff2@example.com',
    });
    const defaults = await t.app.inject({ url: `/v1/vr-users/${user.id}/sessions`, headers });
    expect(defaults.json()).toMatchObject({ limit: 50, offset: 0 });
    const bad = await t.app.inject({ url: `/v1/vr-users/${user.id}/sessions?limit=0`, headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('querystring.limit');
  });
});
