import type { AuditEventPage } from '@vrtc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM, recordAudit, updateAudited } from './audit.ts';
import { linkAudit } from './audit-linker.ts';
import { purgeAudit } from './audit-purge.ts';
import { issueToken } from '../auth/auth.service.ts';
import {
  bearer,
  contextOf,
  createTestApp,
  verifyAuditAs,
  type TestApp,
} from '../../test/harness.ts';
import { makeAdminAndStaff, makeTenant, type Tenant } from '../../test/factories.ts';

/**
 * The audit log's record holds: the database refuses edits, a chain edited behind its back is
 * named by verify, a rolled-back change leaves no event, writers in parallel keep their chain
 * whole, and the retention purge leaves every chain verifiable. On both databases.
 */
let t: TestApp;
let admin: Tenant;
let staff: Tenant;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, staff } = await makeAdminAndStaff(t));
});
afterAll(() => t.close());

const verify = () => verifyAuditAs(t, admin.headers);

async function events(query: string, headers = admin.headers) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/audit-events?${query}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventPage>();
}

async function createVrUser(name: string, headers = staff.headers) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/vr-users',
    headers,
    payload: { name },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>();
}

describe('the audit log', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of its events, and checkpoints set by hand', async () => {
    const { id } = await createVrUser('Refusal');
    const [event] = (await events(`target_id=${id}`)).audit_events;
    expect(event?.action).toBe('vr_user.created');
    await expect(
      sql`UPDATE audit_events SET target_label = 'other' WHERE id = ${event!.id}`.execute(t.db),
    ).rejects.toThrow(/append-only/);
    await expect(
      sql`DELETE FROM audit_events WHERE id = ${event!.id}`.execute(t.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`TRUNCATE audit_events`.execute(t.db)).rejects.toThrow(/append-only/);
    // Nor may anyone but the purge set where a chain's verification starts.
    await expect(
      sql`INSERT INTO audit_checkpoints (chain, seq, hash, purged_at)
        VALUES (${staff.organization.id}, 5, 'x', now())`.execute(t.db),
    ).rejects.toThrow(/append-only/);
    expect((await events(`target_id=${id}`)).audit_events).toEqual([event]);
  });

  it('keeps no event of a change that rolled back', async () => {
    const before = await verify();
    const label = 'rolled-back-change@example.com';
    await expect(
      t.db.transaction().execute(async (trx) => {
        await recordAudit(trx, {
          by: { ...staffCaller() },
          at: t.clock.now(),
          action: 'account.created',
          organizationId: staff.organization.id,
          target: { type: 'account', id: null, label },
        });
        // The change fails after its event was written: another account has the email.
        await trx
          .insertInto('accounts')
          .values({
            email: staff.account.email,
            password_hash: 'x',
            role: 'client',
            organization_id: staff.organization.id,
          })
          .execute();
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM audit_events WHERE target_label = ${label}`.execute(t.db);
    expect(rows[0]!.n).toBe(0);
    // The chain did not move either: the next event links where the last committed one ended.
    await createVrUser('After the rollback');
    const after = await verify();
    expect(after.ok).toBe(true);
    expect(after.events_checked).toBe(before.events_checked + 1);
  });

  it('keeps each chain whole under writers in parallel', async () => {
    const tenant = await makeTenant(t);
    const created = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createVrUser(`Parallel ${i}`, tenant.headers)),
    );
    expect(created).toHaveLength(50);
    // Those written while another held the chain (PostgreSQL) take their place from the linker.
    await linkAudit(t.db);
    const { rows } = await sql<{ seq: string }>`
      SELECT COALESCE(e.seq, l.seq)::text AS seq FROM audit_events e
      LEFT JOIN audit_links l ON l.event_id = e.id
      WHERE e.chain = ${tenant.organization.id} ORDER BY COALESCE(e.seq, l.seq)`.execute(t.db);
    expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
  });

  it('hashes in the database what the server would: text that looks like a seq, any language', async () => {
    const tenant = await makeTenant(t);
    const ctx = contextOf(t);
    await ctx.db.transaction().execute((trx) =>
      recordAudit(trx, {
        by: { ...SYSTEM, organizationId: tenant.organization.id },
        at: ctx.clock.now(),
        action: 'vr_user.updated',
        target: { type: 'vr_user', label: 'Учебный "seq":-1 \\ \u0007 ✓' },
        changes: { notes: [{ seq: -1, nested: ['"seq":-1'] }, 'Новая заметка\n"seq":-1'] },
      }),
    );
    expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
  });

  it('finds in the database what a change changed, and hashes it as the server would', async () => {
    const { id } = await createVrUser('Ольга "Первая"');
    const rename = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/vr-users/${id}`,
        headers: staff.headers,
        payload: body,
      });
    // Text JSON escapes, in any language; a note from none to some; then the same again.
    expect(
      (await rename({ name: 'Ольга \\ "seq":-1 \u0007 ✓', notes: 'Строка\nдве' })).statusCode,
    ).toBe(200);
    t.clock.advance(1000);
    expect((await rename({ name: 'Ольга \\ "seq":-1 \u0007 ✓' })).statusCode).toBe(200);
    const updates = (await events(`target_id=${id}&action=vr_user.updated`)).audit_events;
    expect(updates.map((event) => event.changes)).toEqual([
      {},
      {
        name: ['Ольга "Первая"', 'Ольга \\ "seq":-1 \u0007 ✓'],
        notes: [null, 'Строка\nдве'],
      },
    ]);
    expect(updates[1]).toMatchObject({
      action: 'vr_user.updated',
      target: { type: 'vr_user', id, label: 'Ольга \\ "seq":-1 \u0007 ✓' },
      actor: { type: 'account', id: staff.account.id },
    });
    expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });

    // Another organisation's VR user: not found, and nothing written.
    const other = await makeTenant(t);
    const before = (await events(`organization_id=${other.organization.id}`)).audit_events.length;
    const refused = await t.app.inject({
      method: 'PUT',
      url: `/v1/vr-users/${id}`,
      headers: other.headers,
      payload: { name: 'Not mine' },
    });
    expect(refused.statusCode).toBe(404);
    expect((await events(`organization_id=${other.organization.id}`)).audit_events).toHaveLength(
      before,
    );

    // In a transaction that rolls back, neither the change nor its event stays.
    const ctx = contextOf(t);
    const count = async () =>
      (await events(`target_id=${id}&action=vr_user.updated`)).audit_events.length;
    await expect(
      ctx.db.transaction().execute(async (trx) => {
        await updateAudited(trx, {
          table: 'vr_users',
          id,
          set: { name: 'Rolled back' },
          record: {
            by: { ...SYSTEM, organizationId: staff.organization.id },
            at: ctx.clock.now(),
            action: 'vr_user.updated',
            target: { type: 'vr_user', id, label: 'Rolled back' },
          },
        });
        throw new Error('the change fails after its event');
      }),
    ).rejects.toThrow('the change fails after its event');
    expect(await count()).toBe(2);
    const row = await t.db
      .selectFrom('vr_users')
      .select('name')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Ольга \\ "seq":-1 \u0007 ✓');
  });

  it('records a time set with its change as toISOString writes it, and the chain verifies', async () => {
    const ctx = contextOf(t);
    const at = new Date('2026-03-04T05:06:07.089Z');
    const { id } = await t.db
      .insertInto('qualifications')
      .values({
        organization_id: staff.organization.id,
        name: 'Stamp',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const archived = await updateAudited(ctx.db, {
      table: 'qualifications',
      id,
      organizationId: staff.organization.id,
      set: { archived_at: at },
      record: {
        by: { ...SYSTEM, organizationId: staff.organization.id },
        at,
        action: 'qualification.archived',
        target: { type: 'qualification', id, label: 'Stamp' },
      },
      returning: ['archived_at'],
    });
    expect(archived).toMatchObject({ archived_at: at });
    const [event] = (await events(`target_id=${id}&action=qualification.archived`)).audit_events;
    expect(event?.changes).toEqual({ archived_at: [null, '2026-03-04T05:06:07.089Z'] });
    await linkAudit(t.db);
    expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
  });

  it('names the first event whose content was edited behind the trigger, and its chain', async () => {
    await createVrUser('Tamper one');
    const { id } = await createVrUser('Tamper two');
    await createVrUser('Tamper three');
    const [event] = (await events(`target_id=${id}`)).audit_events;
    expect((await verify()).ok).toBe(true);

    await sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`.execute(t.db);
    try {
      await sql`UPDATE audit_events SET changes = '{"name":[null,"Someone else"]}'::jsonb
        WHERE id = ${event!.id}`.execute(t.db);
      expect(await verify()).toMatchObject({
        ok: false,
        first_bad_event_id: event!.id,
        organization_id: staff.organization.id,
      });
      // Put back as it was, the chain holds again.
      await sql`UPDATE audit_events SET changes = ${JSON.stringify(event!.changes)}::jsonb
        WHERE id = ${event!.id}`.execute(t.db);
      expect((await verify()).ok).toBe(true);

      // A removed event breaks the link of the one after it.
      const { rows } = await sql<{ id: string }>`
        SELECT id FROM audit_events WHERE chain = ${staff.organization.id}
        AND seq = (SELECT seq + 1 FROM audit_events WHERE id = ${event!.id})`.execute(t.db);
      const saved = await t.db
        .selectFrom('audit_events')
        .selectAll()
        .where('id', '=', event!.id)
        .executeTakeFirstOrThrow();
      await sql`DELETE FROM audit_events WHERE id = ${event!.id}`.execute(t.db);
      expect(await verify()).toMatchObject({ ok: false, first_bad_event_id: rows[0]!.id });
      await sql`INSERT INTO audit_events SELECT * FROM json_populate_record(null::audit_events,
        ${JSON.stringify(saved)}::json)`.execute(t.db);
      expect((await verify()).ok).toBe(true);
    } finally {
      await sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`.execute(t.db);
    }
  });

  it('deletes events past AUDIT_RETENTION_DAYS and every chain still verifies', async () => {
    const old = await createVrUser('Long ago');
    t.clock.advance((t.config.auditRetentionDays + 1) * 24 * 3600 * 1000);
    // Two years on, both sign in again.
    admin.headers = bearer((await issueToken(t, admin.account.id)).token);
    staff.headers = bearer((await issueToken(t, staff.account.id)).token);
    const recent = await createVrUser('Recently');
    const checkedBefore = (await verify()).events_checked;

    const purged = await purgeAudit(contextOf(t));
    expect(purged).toBeGreaterThan(0);
    expect((await events(`target_id=${old.id}`)).audit_events).toEqual([]);
    expect((await events(`target_id=${recent.id}`)).audit_events).toHaveLength(1);
    const purges = (await events(`action=audit.purged&organization_id=${staff.organization.id}`))
      .audit_events;
    expect(purges).toHaveLength(1);
    expect(purges[0]!.actor.type).toBe('system');

    const after = await verify();
    expect(after).toMatchObject({ ok: true, first_bad_event_id: null });
    expect(after.events_checked).toBeLessThan(checkedBefore);
    // Later events still link onto the checkpoint, and a second purge finds nothing more.
    await createVrUser('After the purge');
    expect(await purgeAudit(contextOf(t))).toBe(0);
    expect((await verify()).ok).toBe(true);
  });
});

function staffCaller() {
  return {
    accountId: staff.account.id,
    tokenId: 'none',
    email: staff.account.email,
    role: staff.account.role,
    organizationId: staff.organization.id,
    organizationName: staff.organization.name,
  };
}
