import crypto from 'node:crypto';
import type { AuditEvent, AuditEventPage } from '@vrtc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYSTEM, chainOf, recordAudit } from './audit.ts';
import { canonicalJson } from '../platform/service/serialize.ts';
import { contextOf, createTestApp, verifyAuditAs, type TestApp } from '../../test/harness.ts';
import {
  makeAdminAndStaff,
  makeEnrolledDevice,
  makeStartableSetup,
  makeTenant,
  type Tenant,
} from '../../test/factories.ts';

/**
 * Issue 42, "Both languages everywhere": an event about something named in English too keeps that
 * name beside the Russian one (target.label_en), under the chain's hash like every other field, so
 * the English console can show it. Events written before (no English label) read and verify as
 * they always did. On both databases.
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

async function eventsOf(targetId: string, headers = admin.headers): Promise<AuditEvent[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/v1/audit-events?target_id=${targetId}`,
    headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<AuditEventPage>().audit_events;
}

async function send(method: 'POST' | 'PUT', url: string, payload: object, headers = admin.headers) {
  const response = await t.app.inject({ method, url, headers, payload });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json<{ id: string }>();
}

/**
 * Writes an event as a server of the version before did: vrtc_audit_append with its nineteen
 * parameters, the event's canonical JSON without target_label_en.
 */
async function writeAsBefore(organizationId: string, label: string) {
  const content = {
    id: crypto.randomUUID(),
    chain: chainOf(organizationId),
    seq: -1,
    at: t.clock.now().toISOString(),
    organization_id: organizationId,
    actor_type: 'system',
    actor_id: null,
    actor_email: null,
    actor_role: null,
    action: 'vr_user.updated',
    outcome: 'success',
    target_type: 'vr_user',
    target_id: null,
    target_label: label,
    changes: {},
    ip: null,
    user_agent: null,
    request_id: null,
  };
  const [before, after] = canonicalJson(content).split('"seq":-1');
  const c = content;
  await sql`SELECT vrtc_audit_append(${c.id}, ${c.chain}, ${c.at}, ${c.organization_id},
    ${c.actor_type}, ${c.actor_id}, ${c.actor_email}, ${c.actor_role}, ${c.action}, ${c.outcome},
    ${c.target_type}, ${c.target_id}, ${c.target_label}, '{}'::jsonb, ${c.ip}, ${c.user_agent},
    ${c.request_id}, ${`${before}"seq":`}, ${after})`.execute(t.db);
  return content.id;
}

describe('an event’s English label', () => {
  it('names content by its English name beside the Russian one, and a change of it too', async () => {
    const scenario = await send('POST', '/v1/admin/scenarios', {
      name: 'Пожарная безопасность',
      name_en: 'Fire safety',
    });
    await send('PUT', `/v1/admin/scenarios/${scenario.id}`, { name_en: 'Fire safety basics' });
    const plain = await send('POST', '/v1/admin/scenarios', { name: 'Только по-русски' });
    const events = await eventsOf(scenario.id);
    const created = events.find((event) => event.action === 'scenario.created');
    const updated = events.find((event) => event.action === 'scenario.updated');
    expect(created!.target).toEqual({
      type: 'scenario',
      id: scenario.id,
      label: 'Пожарная безопасность',
      label_en: 'Fire safety',
    });
    expect(updated!.target).toMatchObject({ label: 'Пожарная безопасность' });
    expect(updated!.target.label_en).toBe('Fire safety basics');
    // No English name: none is made up.
    expect((await eventsOf(plain.id))[0]!.target).toMatchObject({
      label: 'Только по-русски',
      label_en: null,
    });
    expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
  });

  it('names a licence, a session and a qualification in English for the organisation’s staff', async () => {
    const setup = await makeStartableSetup(t, staff.organization.id);
    await t.db
      .updateTable('scenarios')
      .set({ name: 'Работа на высоте', name_en: 'Working at height' })
      .where('id', '=', setup.scenario.id)
      .execute();
    await t.db
      .updateTable('levels')
      .set({ name: 'Страховка', name_en: 'Harness' })
      .where('id', '=', setup.level.id)
      .execute();
    await send('POST', `/v1/admin/scenarios/${setup.scenario.id}/grant`, {
      organization_ids: [staff.organization.id],
      expires_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString(),
    });
    const licence = (await eventsOf(setup.scenario.id, staff.headers)).find(
      (event) => event.action === 'license.granted',
    );
    expect(licence?.target).toMatchObject({
      label: 'Работа на высоте',
      label_en: 'Working at height',
    });

    const headset = await makeEnrolledDevice(t.db, staff.organization.id, {
      last_seen_at: t.clock.now(),
    });
    const session = await send(
      'POST',
      '/v1/sessions/start',
      { device_id: headset.device.id, level_id: setup.level.id, vr_user_name: 'Пётр Сидоров' },
      staff.headers,
    );
    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/v1/sessions/${session.id}/cancel`,
      headers: staff.headers,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const sessionEvents = await eventsOf(session.id, staff.headers);
    expect(sessionEvents.map((event) => event.action).sort()).toEqual([
      'session.cancelled',
      'session.started',
    ]);
    for (const event of sessionEvents) {
      expect(event.target).toMatchObject({
        label: 'Пётр Сидоров: Работа на высоте / Страховка',
        label_en: 'Пётр Сидоров: Working at height / Harness',
      });
    }

    const qualification = await send(
      'POST',
      '/v1/qualifications',
      {
        name: 'Допуск к работе на высоте',
        name_en: 'Work at height permit',
        level_ids: [setup.level.id],
      },
      staff.headers,
    );
    expect((await eventsOf(qualification.id, staff.headers))[0]!.target).toMatchObject({
      label: 'Допуск к работе на высоте',
      label_en: 'Work at height permit',
    });
    expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
  });

  it('verifies events written before English labels were kept beside those written after', async () => {
    const tenant = await makeTenant(t);
    const older = await writeAsBefore(tenant.organization.id, 'Записано прежней версией');
    const ctx = contextOf(t);
    t.clock.advance(1000);
    await ctx.db.transaction().execute((trx) =>
      recordAudit(trx, {
        by: { ...SYSTEM, organizationId: tenant.organization.id },
        at: ctx.clock.now(),
        action: 'qualification.updated',
        target: { type: 'qualification', label: 'Новое', labelEn: 'New' },
      }),
    );
    t.clock.advance(1000);
    const older2 = await writeAsBefore(tenant.organization.id, 'И ещё одно прежней версией');
    const page = await t.app.inject({
      method: 'GET',
      url: `/v1/audit-events?organization_id=${tenant.organization.id}`,
      headers: admin.headers,
    });
    const events = page.json<AuditEventPage>().audit_events;
    expect(events.map((event) => [event.target.label, event.target.label_en])).toEqual([
      ['И ещё одно прежней версией', null],
      ['Новое', 'New'],
      ['Записано прежней версией', null],
    ]);
    expect(events.map((event) => event.id)).toContain(older);
    expect(events.map((event) => event.id)).toContain(older2);
    expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
  });

  it('is covered by the chain: an English label edited afterwards is named by verify', async () => {
    const scenario = await send('POST', '/v1/admin/scenarios', {
      name: 'Охрана труда',
      name_en: 'Occupational safety',
    });
    const [event] = await eventsOf(scenario.id);
    expect((await verify()).ok).toBe(true);
    await sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`.execute(t.db);
    try {
      await sql`UPDATE audit_events SET target_label_en = 'Something else'
        WHERE id = ${event!.id}`.execute(t.db);
      expect(await verify()).toMatchObject({ ok: false, first_bad_event_id: event!.id });
      // Taken away altogether, as if it had never been written: named all the same.
      await sql`UPDATE audit_events SET target_label_en = NULL WHERE id = ${event!.id}`.execute(
        t.db,
      );
      expect(await verify()).toMatchObject({ ok: false, first_bad_event_id: event!.id });
      await sql`UPDATE audit_events SET target_label_en = 'Occupational safety'
        WHERE id = ${event!.id}`.execute(t.db);
      expect(await verify()).toMatchObject({ ok: true });
    } finally {
      await sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`.execute(t.db);
    }
  });

  it.runIf(inject('dbTemplate').kind === 'postgres')(
    'is covered when the event waited for the linker (its chain held by another writer)',
    async () => {
      const tenant = await makeTenant(t);
      await writeAsBefore(tenant.organization.id, 'The chain’s first event');
      const write = (trx: Parameters<typeof recordAudit>[0], labelEn: string) =>
        recordAudit(trx, {
          by: { ...SYSTEM, organizationId: tenant.organization.id },
          at: t.clock.now(),
          action: 'qualification.updated',
          target: { type: 'qualification', label: 'Русское имя', labelEn },
        });
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let holding!: () => void;
      const held = new Promise<void>((resolve) => (holding = resolve));
      const holder = t.db.transaction().execute(async (trx) => {
        await write(trx, 'Holding the chain');
        holding();
        await released;
      });
      await held;
      await t.db.transaction().execute((trx) => write(trx, 'Written beside'));
      release();
      await holder;
      const { rows } = await sql<{ id: string; content_hash: string | null }>`
        SELECT id, content_hash FROM audit_events
        WHERE chain = ${tenant.organization.id} AND target_label_en = 'Written beside'`.execute(
        t.db,
      );
      expect(rows[0]?.content_hash).not.toBeNull();
      expect(await verify()).toMatchObject({ ok: true, first_bad_event_id: null });
      await sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`.execute(t.db);
      try {
        await sql`UPDATE audit_events SET target_label_en = 'Edited'
          WHERE id = ${rows[0]!.id}`.execute(t.db);
        expect(await verify()).toMatchObject({ ok: false, first_bad_event_id: rows[0]!.id });
        await sql`UPDATE audit_events SET target_label_en = 'Written beside'
          WHERE id = ${rows[0]!.id}`.execute(t.db);
        expect((await verify()).ok).toBe(true);
      } finally {
        await sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`.execute(t.db);
      }
    },
  );
});
