import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.ts';

/**
 * docs/operations.md, "The audit log's purge role": on PostgreSQL the audit tables and
 * vrtc_audit_purge belong to a role the application's role cannot become. Set up as documented,
 * the application's role can write events and purge through the function, and nothing else:
 * no DELETE (with the setting or without), no switching the trigger off, no checkpoint of its
 * own. PostgreSQL only (the embedded database has one user).
 */
const onPostgres = process.env.TEST_DB_KIND === 'postgres';
const suffix = crypto.randomBytes(4).toString('hex');
const app = `vrtc_app_${suffix}`;
const owner = `vrtc_audit_owner_${suffix}`;
const PURGE = 'vrtc_audit_purge(text, bigint, text, timestamptz, text)';

let t: TestApp;
beforeAll(async () => {
  if (!onPostgres) return;
  t = await createTestApp();
  const steps = [
    `CREATE ROLE ${app} NOLOGIN`,
    `CREATE ROLE ${owner} NOLOGIN`,
    // What the application's role has from running the migrations.
    `GRANT ALL ON audit_chain_heads, audit_unlinked TO ${app}`,
    // The documented steps.
    `ALTER TABLE audit_events OWNER TO ${owner}`,
    `ALTER TABLE audit_links OWNER TO ${owner}`,
    `ALTER TABLE audit_checkpoints OWNER TO ${owner}`,
    `ALTER FUNCTION vrtc_audit_append_only() OWNER TO ${owner}`,
    `ALTER FUNCTION ${PURGE} OWNER TO ${owner}`,
    `REVOKE ALL ON FUNCTION ${PURGE} FROM PUBLIC`,
    `GRANT EXECUTE ON FUNCTION ${PURGE} TO ${app}`,
    `GRANT SELECT, INSERT ON audit_events, audit_links TO ${app}`,
    `GRANT SELECT ON audit_checkpoints TO ${app}`,
  ];
  for (const step of steps) await sql.raw(step).execute(t.db);
});
afterAll(async () => {
  if (!onPostgres) return;
  for (const step of [
    `REASSIGN OWNED BY ${owner} TO current_user`,
    `DROP OWNED BY ${app}`,
    `DROP OWNED BY ${owner}`,
    `DROP ROLE ${app}`,
    `DROP ROLE ${owner}`,
  ])
    await sql.raw(step).execute(t.db);
  await t.close();
});

/** Runs `statement` as the application's role, in a transaction of its own. */
const asApp = (statement: string) =>
  t.db.transaction().execute(async (trx) => {
    await sql.raw(`SET LOCAL ROLE ${app}`).execute(trx);
    await sql.raw(`SELECT set_config('vrtc.audit_purge', 'on', true)`).execute(trx);
    return sql.raw<{ count?: number }>(statement).execute(trx);
  });

describe.skipIf(!onPostgres)('the purge role on PostgreSQL', () => {
  it('leaves the application its events and the purge function, nothing else', async () => {
    for (let index = 0; index < 3; index += 1) {
      await asApp(`SELECT vrtc_audit_append(gen_random_uuid(), 'role-test', now(), null,
        'system', null, null, null, 'audit.purged', 'success', 'audit_log', null, null, '{}',
        null, null, null, '{"a":', '}')`);
    }
    await expect(asApp(`DELETE FROM audit_events`)).rejects.toThrow(/permission denied/);
    await expect(
      asApp(`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`),
    ).rejects.toThrow(/must be owner/);
    await expect(
      asApp(`INSERT INTO audit_checkpoints (chain, seq, hash, purged_at)
        VALUES ('role-test', 1, 'x', now())`),
    ).rejects.toThrow(/permission denied/);
    const { rows } = await asApp(`SELECT vrtc_audit_purge('role-test', 2,
      (SELECT hash FROM audit_events WHERE chain = 'role-test' AND seq = 2), now(), 'signed')
      AS count`);
    expect(rows[0]?.count).toBe(2);
    const left = await t.db
      .selectFrom('audit_events')
      .select('seq')
      .where('chain', '=', 'role-test')
      .execute();
    expect(left.map((row) => Number(row.seq))).toEqual([3]);
  });
});
