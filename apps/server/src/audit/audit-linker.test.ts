import type { AuditEventPage } from '@vrtc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYSTEM, recordAudit } from './audit.ts';
import { AUDIT_LINK_LOCK_KEY, linkAudit } from './audit-linker.ts';
import { purgeAudit } from './audit-purge.ts';
import { issueToken } from '../auth/auth.service.ts';
import {
  bearer,
  contextOf,
  createTestApp,
  verifyAuditAs,
  type TestApp,
} from '../../test/harness.ts';
import { makeTenant } from '../../test/factories.ts';

/**
 * One organisation's writers do not wait for each other (decision 027): a writer that finds its
 * chain's head held by another open transaction writes its event at once, under a hash of its own
 * content, and the linker gives it its place in the chain. Its record holds all the same: edited
 * or removed before or after it is linked, verify names it; rolled back, nothing stays; purged,
 * the chain still verifies. Only PostgreSQL has transactions side by side (PGlite is one
 * connection: every writer finds the head free, as the other audit tests show).
 */
describe.runIf(inject('dbTemplate').kind === 'postgres')(
  'events written while the chain is held',
  () => {
    let t: TestApp;
    let admin: Awaited<ReturnType<typeof makeTenant>>;
    beforeAll(async () => {
      t = await createTestApp();
      admin = await makeTenant(t, { role: 'admin' });
    });
    afterAll(() => t.close());

    const verify = () => verifyAuditAs(t, admin.headers);

    async function createVrUser(tenant: { headers: Record<string, string> }, name: string) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/v1/vr-users',
        headers: tenant.headers,
        payload: { name },
      });
      expect(response.statusCode, response.body).toBe(201);
      const { id } = response.json<{ id: string }>();
      const events = await t.app.inject({
        method: 'GET',
        url: `/v1/audit-events?target_id=${id}`,
        headers: tenant.headers,
      });
      const [event] = events.json<AuditEventPage>().audit_events;
      return { id, eventId: event!.id };
    }

    /**
     * Holds `organizationId`'s chain head in a transaction of its own (it has written an event and
     * not committed) until release() is called; answers once it holds it. The chain must have an
     * event already: its first writer creates its head, and a writer beside it waits for that one.
     */
    async function holdChain(organizationId: string) {
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const transaction = t.db.transaction().execute(async (trx) => {
        await recordAudit(trx, {
          by: { ...SYSTEM, organizationId },
          at: t.clock.now(),
          action: 'organization.updated',
          target: { type: 'organization', id: organizationId, label: 'Holding the chain' },
        });
        holding();
        await released;
      });
      await held;
      return async () => {
        release();
        await transaction;
      };
    }

    const placeOf = async (eventId: string) => {
      const { rows } = await sql<{ seq: string | null; linked: string | null; queued: boolean }>`
      SELECT e.seq::text AS seq, l.seq::text AS linked,
        EXISTS (SELECT 1 FROM audit_unlinked u WHERE u.event_id = e.id) AS queued
      FROM audit_events e LEFT JOIN audit_links l ON l.event_id = e.id
      WHERE e.id = ${eventId}`.execute(t.db);
      return rows[0];
    };

    async function tamper(statement: ReturnType<typeof sql>) {
      await sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`.execute(t.db);
      try {
        await statement.execute(t.db);
      } finally {
        await sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`.execute(t.db);
      }
    }

    it('does not wait for the holder: the event is there at once, and linked after it', async () => {
      const tenant = await makeTenant(t);
      await createVrUser(tenant, 'First, linked as written');
      const release = await holdChain(tenant.organization.id);
      // Answered while the other transaction still holds the chain.
      const written = await createVrUser(tenant, 'Second, while the chain is held');
      expect(await placeOf(written.eventId)).toEqual({ seq: null, linked: null, queued: true });
      await release();

      expect(await linkAudit(t.db)).toBe(1);
      // After the first event (1) and the holder's (2), committed before the linker ran.
      expect(await placeOf(written.eventId)).toEqual({ seq: null, linked: '3', queued: false });
      expect(await linkAudit(t.db)).toBe(0);
      await createVrUser(tenant, 'Third, linked as written after the link');
      const { rows } = await sql<{ seq: string }>`
      SELECT COALESCE(e.seq, l.seq)::text AS seq FROM audit_events e
      LEFT JOIN audit_links l ON l.event_id = e.id
      WHERE e.chain = ${tenant.organization.id} ORDER BY COALESCE(e.seq, l.seq)`.execute(t.db);
      expect(rows.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4]);
      expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
    });

    it('keeps no event nor place in the queue of a change that rolled back', async () => {
      const tenant = await makeTenant(t);
      await createVrUser(tenant, 'Linked as written');
      const release = await holdChain(tenant.organization.id);
      const label = `rolled back ${tenant.organization.id}`;
      await expect(
        t.db.transaction().execute(async (trx) => {
          await recordAudit(trx, {
            by: { ...SYSTEM, organizationId: tenant.organization.id },
            at: t.clock.now(),
            action: 'vr_user.created',
            target: { type: 'vr_user', label },
          });
          throw new Error('the change fails after its event');
        }),
      ).rejects.toThrow('the change fails after its event');
      await release();
      const { rows } = await sql<{ events: number; queued: number }>`
      SELECT (SELECT count(*)::int FROM audit_events WHERE target_label = ${label}) AS events,
        (SELECT count(*)::int FROM audit_unlinked WHERE chain = ${tenant.organization.id})
          AS queued`.execute(t.db);
      expect(rows[0]).toEqual({ events: 0, queued: 0 });
      expect(await verify()).toMatchObject({ ok: true });
    });

    it('names an event edited before it was linked, linked or not yet', async () => {
      const tenant = await makeTenant(t);
      await createVrUser(tenant, 'Linked as written');
      const release = await holdChain(tenant.organization.id);
      const written = await createVrUser(tenant, 'Edited while waiting');
      await release();
      await tamper(sql`UPDATE audit_events SET target_label = 'Someone else'
      WHERE id = ${written.eventId}`);

      // Not linked yet: another process is linking at this moment, so verify cannot link it.
      await t.db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(${AUDIT_LINK_LOCK_KEY})`.execute(trx);
        expect(await verify()).toMatchObject({
          ok: false,
          first_bad_event_id: written.eventId,
          organization_id: tenant.organization.id,
        });
      });
      // Linked (verify links it first): its link covers the hash it was written with.
      expect(await verify()).toMatchObject({ ok: false, first_bad_event_id: written.eventId });
      expect((await placeOf(written.eventId))?.linked).not.toBeNull();
      await tamper(sql`UPDATE audit_events SET target_label = 'Edited while waiting'
      WHERE id = ${written.eventId}`);
      expect(await verify()).toMatchObject({ ok: true });
    });

    it('names an event removed before it was linked, and one whose place in the queue was', async () => {
      const tenant = await makeTenant(t);
      await createVrUser(tenant, 'Linked as written');
      const release = await holdChain(tenant.organization.id);
      const removed = await createVrUser(tenant, 'Removed while waiting');
      const unqueued = await createVrUser(tenant, 'Taken out of the queue');
      await release();
      const saved = await t.db
        .selectFrom('audit_events')
        .selectAll()
        .where('id', '=', removed.eventId)
        .executeTakeFirstOrThrow();
      await tamper(sql`DELETE FROM audit_events WHERE id = ${removed.eventId}`);
      await sql`DELETE FROM audit_unlinked WHERE event_id = ${unqueued.eventId}`.execute(t.db);
      expect(await verify()).toMatchObject({
        ok: false,
        first_bad_event_id: removed.eventId,
        organization_id: tenant.organization.id,
      });
      // Put back, it is linked; the one out of the queue is still named.
      await sql`INSERT INTO audit_events SELECT * FROM json_populate_record(null::audit_events,
      ${JSON.stringify(saved)}::json)`.execute(t.db);
      expect(await verify()).toMatchObject({ ok: false, first_bad_event_id: unqueued.eventId });
      await sql`INSERT INTO audit_unlinked (event_id, chain)
      VALUES (${unqueued.eventId}, ${tenant.organization.id})`.execute(t.db);
      expect(await verify()).toMatchObject({ ok: true });
    });

    it('purges linked events with the others, and the chain verifies from its checkpoint', async () => {
      const tenant = await makeTenant(t);
      await createVrUser(tenant, 'Old, linked as written');
      const release = await holdChain(tenant.organization.id);
      const old = await createVrUser(tenant, 'Old, linked later');
      await release();
      await linkAudit(t.db); // as the linker does within the second
      t.clock.advance((t.config.auditRetentionDays + 1) * 24 * 3600 * 1000);
      admin.headers = bearer((await issueToken(t, admin.account.id)).token);
      tenant.headers = bearer((await issueToken(t, tenant.account.id)).token);
      const recent = await createVrUser(tenant, 'Recent');

      expect(await purgeAudit(contextOf(t))).toBeGreaterThanOrEqual(3);
      expect(await placeOf(old.eventId)).toBeUndefined();
      expect(await placeOf(recent.eventId)).toMatchObject({ queued: false });
      const { rows } = await sql<{ links: number }>`
      SELECT count(*)::int AS links FROM audit_links
      WHERE chain = ${tenant.organization.id}`.execute(t.db);
      expect(rows[0]!.links).toBe(0);
      expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
    });
  },
);
