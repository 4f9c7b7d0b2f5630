import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/platform/database/db.ts';
import { createTestDatabase } from './harness.ts';

/** Every table's rows and every sequence's position: what a test file could tell apart. */
async function contents(db: Db) {
  const { rows: tables } = await sql<{ name: string }>`
    SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
    WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`.execute(db);
  const state: Record<string, unknown> = {};
  for (const { name } of tables) {
    const { rows } = await sql<{ digest: string | null; count: string }>`
      SELECT md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest, count(*)::text AS count
      FROM ${sql.raw(name)} t`.execute(db);
    state[name] = rows[0];
  }
  const { rows: sequences } = await sql<{ name: string; last_value: string | null }>`
    SELECT sequencename AS name, last_value::text FROM pg_sequences ORDER BY 1`.execute(db);
  return { state, sequences };
}

describe("the test worker's kept database", () => {
  it('is handed to the next file as the migrations left it', async () => {
    const first = await createTestDatabase();
    const migrated = await contents(first.db);
    const { rows } = await sql<{ id: string }>`
      INSERT INTO organizations (name) VALUES ('Left behind') RETURNING id`.execute(first.db);
    await sql`INSERT INTO accounts (email, password_hash, role, organization_id)
      VALUES ('left@behind.test', 'x', 'client', ${rows[0]!.id})`.execute(first.db);
    const { rows: sequences } = await sql<{ name: string }>`
      SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences`.execute(first.db);
    for (const { name } of sequences)
      await sql`SELECT nextval(${name}::regclass)`.execute(first.db);
    if (first.kind === 'pglite') await sql`SET statement_timeout = '1s'`.execute(first.db);
    expect(await contents(first.db)).not.toEqual(migrated);
    await first.close();

    const next = await createTestDatabase();
    try {
      // The same database, not a new copy, and nothing of the file before is left in it.
      expect(next.db).toBe(first.db);
      expect(await contents(next.db)).toEqual(migrated);
      const { rows: timeout } = await sql<{ statement_timeout: string }>`
        SHOW statement_timeout`.execute(next.db);
      expect(timeout[0]!.statement_timeout).toBe('0');
    } finally {
      await next.close();
    }
  });

  it('is not handed on after a file changed the schema: the next file gets a new copy', async () => {
    const changed = await createTestDatabase();
    await sql`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`.execute(
      changed.db,
    );
    await changed.close();

    const next = await createTestDatabase();
    try {
      expect(next.db).not.toBe(changed.db);
      const { rows } = await sql<{ enabled: string }>`
        SELECT tgenabled AS enabled FROM pg_trigger
        WHERE tgname = 'audit_events_append_only'`.execute(next.db);
      expect(rows[0]!.enabled).toBe('O');
    } finally {
      await next.close();
    }
  });
});
