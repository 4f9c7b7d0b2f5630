import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkpointSignature } from './audit-key.ts';
import { purgeAudit } from './audit-purge.ts';
import { issueToken } from '../auth/auth.service.ts';
import {
  bearer,
  contextOf,
  createTestApp,
  verifyAuditAs,
  type TestApp,
} from '../../test/harness.ts';
import { makeAdminAndStaff, type Tenant } from '../../test/factories.ts';

/**
 * Issue 40, item 7: the audit chain could be cut by any session of the database. `SET LOCAL
 * vrtc.audit_purge = 'on'` let it delete events and write a checkpoint, and verify started the
 * chain from any checkpoint it found. Now only vrtc_audit_purge deletes (migration 0023), and
 * verify trusts a checkpoint only when it is signed with AUDIT_KEY, which the database never
 * sees. On both databases; each case puts back what it cut (saved rows, written behind the
 * guard), so the next starts from a chain that holds.
 */
let t: TestApp;
let admin: Tenant;
let staff: Tenant;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, staff } = await makeAdminAndStaff(t));
  for (const name of ['One', 'Two', 'Three', 'Four']) await createVrUser(name);
});
afterAll(() => t.close());
afterEach(() => putBack());

const verify = () => verifyAuditAs(t, admin.headers);

async function createVrUser(name: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/v1/vr-users',
    headers: staff.headers,
    payload: { name },
  });
  expect(response.statusCode, response.body).toBe(201);
}

/** The staff chain's event at `seq`. */
async function eventAt(seq: number) {
  return t.db
    .selectFrom('audit_events')
    .select(['id', 'hash'])
    .where('chain', '=', staff.organization.id)
    .where('seq', '=', String(seq) as never)
    .executeTakeFirstOrThrow();
}

/** Runs `change` with the guards off, as only a table's owner could. */
async function behindTheGuard(change: () => Promise<unknown>) {
  await sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`.execute(t.db);
  await sql`ALTER TABLE audit_checkpoints DISABLE TRIGGER audit_checkpoints_guarded`.execute(t.db);
  try {
    await change();
  } finally {
    await sql`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`.execute(t.db);
    await sql`ALTER TABLE audit_checkpoints ENABLE TRIGGER audit_checkpoints_guarded`.execute(t.db);
  }
}

/** The staff chain's first two events, saved before a case cuts them. */
let saved: unknown[] = [];
async function save() {
  saved = await t.db
    .selectFrom('audit_events')
    .selectAll()
    .where('chain', '=', staff.organization.id)
    .where('seq', '<=', '2' as never)
    .execute();
}

/** The cut events back, the checkpoint gone: the chain holds again. */
async function putBack() {
  if (saved.length === 0) return;
  const rows = saved;
  saved = [];
  await behindTheGuard(async () => {
    await sql`DELETE FROM audit_checkpoints WHERE chain = ${staff.organization.id}`.execute(t.db);
    for (const row of rows) {
      await sql`INSERT INTO audit_events SELECT * FROM json_populate_record(null::audit_events,
        ${JSON.stringify(row)}::json)`.execute(t.db);
    }
  });
  expect((await verify()).ok).toBe(true);
}

/**
 * What a session that owns the tables could still do on a database of one role: switch the
 * guard off, delete the chain's first events and set a checkpoint onto the last one deleted.
 */
async function cutBehindTheGuard(signature: string | null) {
  const last = await eventAt(2);
  const purgedAt = t.clock.now();
  await save();
  await behindTheGuard(async () => {
    await sql`DELETE FROM audit_events WHERE chain = ${staff.organization.id} AND seq <= 2`.execute(
      t.db,
    );
    await sql`INSERT INTO audit_checkpoints (chain, seq, hash, purged_at, signature)
      VALUES (${staff.organization.id}, 2, ${last.hash}, ${purgedAt}, ${signature})`.execute(t.db);
  });
  return { hash: last.hash, purgedAt };
}

describe('the audit chain against its own database session', () => {
  it('refuses a DELETE and a checkpoint even with vrtc.audit_purge on', async () => {
    const first = await eventAt(1);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('vrtc.audit_purge', 'on', true)`.execute(trx);
        await sql`DELETE FROM audit_events WHERE id = ${first.id}`.execute(trx);
      }),
    ).rejects.toThrow(/append-only: DELETE on audit_events refused/);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`SELECT set_config('vrtc.audit_purge', 'on', true)`.execute(trx);
        await sql`INSERT INTO audit_checkpoints (chain, seq, hash, purged_at)
          VALUES (${staff.organization.id}, 1, ${first.hash}, now())`.execute(trx);
      }),
    ).rejects.toThrow(/append-only: INSERT on audit_checkpoints refused/);
    // Nor from a block of code of its own.
    await expect(
      sql`DO $$ BEGIN PERFORM set_config('vrtc.audit_purge', 'on', true);
        DELETE FROM audit_links; DELETE FROM audit_events; END $$`.execute(t.db),
    ).rejects.toThrow(/append-only/);
    expect(await verify()).toMatchObject({ ok: true, checkpoints: [] });
  });

  it('verify refuses a checkpoint written by hand, naming its chain', async () => {
    const before = await verify();
    expect(before.ok).toBe(true);
    const { purgedAt } = await cutBehindTheGuard(null);
    const after = await verify();
    expect(after).toMatchObject({
      ok: false,
      organization_id: staff.organization.id,
      first_bad_event_id: null,
      checkpoints: [
        {
          organization_id: staff.organization.id,
          seq: 2,
          purged_at: purgedAt.toISOString(),
          trust: 'unsigned',
          trusted: false,
        },
      ],
    });
  });

  it('verify refuses a checkpoint signed with another key', async () => {
    const last = await eventAt(2);
    const forged = checkpointSignature(
      { auditKey: 'a key that is not this server’s', dataDir: t.config.dataDir },
      { chain: staff.organization.id, seq: 2, hash: last.hash!, purgedAt: t.clock.now() },
    );
    await cutBehindTheGuard(forged);
    expect(await verify()).toMatchObject({
      ok: false,
      organization_id: staff.organization.id,
      checkpoints: [{ seq: 2, trust: 'signature_mismatch', trusted: false }],
    });
  });

  it('the purge function called by hand cannot sign, so verify refuses what it did', async () => {
    const last = await eventAt(2);
    await save();
    const { rows } = await sql<{ count: number }>`
      SELECT vrtc_audit_purge(${staff.organization.id}, 2, ${last.hash}, now(), 'made-up')
        AS count`.execute(t.db);
    expect(rows[0]?.count).toBe(2);
    expect(await verify()).toMatchObject({
      ok: false,
      organization_id: staff.organization.id,
      checkpoints: [{ seq: 2, trust: 'signature_mismatch', trusted: false }],
    });
  });

  it('the retention purge signs its checkpoints, and verify says it trusted them', async () => {
    t.clock.advance((t.config.auditRetentionDays + 1) * 24 * 3600 * 1000);
    admin.headers = bearer((await issueToken(t, admin.account.id)).token);
    staff.headers = bearer((await issueToken(t, staff.account.id)).token);
    await createVrUser('Recently');
    expect(await purgeAudit(contextOf(t))).toBeGreaterThan(0);
    const after = await verify();
    expect(after.ok).toBe(true);
    expect(after.checkpoints.length).toBeGreaterThan(0);
    expect(
      after.checkpoints.find((c) => c.organization_id === staff.organization.id),
    ).toMatchObject({ trust: 'key_matched', trusted: true });
    // The key lives outside the database: the same database under another key trusts none.
    t.config.auditKey = 'another server’s key';
    expect(await verify()).toMatchObject({ ok: false });
  });
});
