import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREPARED_STATEMENT, type DatabaseHandle } from '../src/platform/database/db.ts';
import { createTestDatabase } from './harness.ts';

/**
 * A statement marked PREPARED_STATEMENT is prepared once per connection (pg on PostgreSQL,
 * the embedded database's thread on PGlite) and answers as the same statement unprepared does:
 * its rows with their types, its values bound by their types, its errors with their codes, and
 * the connection goes on after one. On both databases.
 */
let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
  await sql`CREATE TABLE prepared_probe (id int PRIMARY KEY, at timestamptz, note text)`.execute(
    database.db,
  );
});
afterAll(() => database.close());

const INSERT = `INSERT INTO prepared_probe (id, at, note) VALUES ($1, $2, $3)
  RETURNING id, at, note, $3 || '!' AS shout`;
const run = (text: string, parameters: unknown[]) =>
  database.db.executeQuery(CompiledQuery.raw(text, parameters));

describe('prepared statements', () => {
  it('answer as the same statement unprepared, again and again', async () => {
    const at = new Date('2026-11-28T10:00:00.000Z');
    const plain = await run(INSERT, [1, at, 'Один']);
    const first = await run(`${INSERT} ${PREPARED_STATEMENT}`, [2, at, 'Один']);
    const again = await run(`${INSERT} ${PREPARED_STATEMENT}`, [3, at.toISOString(), null]);
    expect(plain.rows).toEqual([{ id: 1, at, note: 'Один', shout: 'Один!' }]);
    expect(first.rows).toEqual([{ id: 2, at, note: 'Один', shout: 'Один!' }]);
    expect(again.rows).toEqual([{ id: 3, at, note: null, shout: null }]);
  });

  it('are kept by the connection that ran them, under one name', async () => {
    const names = await database.db.transaction().execute(async (trx) => {
      await trx.executeQuery(
        CompiledQuery.raw(`SELECT $1::int + 1 AS next ${PREPARED_STATEMENT}`, [41]),
      );
      const { rows } = await sql<{ name: string }>`
        SELECT name FROM pg_prepared_statements
        WHERE statement LIKE ${'%$1::int + 1 AS next%'}`.execute(trx);
      return rows.map((row) => row.name);
    });
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^vrtc_[0-9a-f]{32}$/);
  });

  it('fail with the database error, and the connection goes on', async () => {
    await expect(
      run(`${INSERT} ${PREPARED_STATEMENT}`, [1, new Date(), 'twice']),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows } = await run(`${INSERT} ${PREPARED_STATEMENT}`, [4, new Date(), 'after']);
    expect(rows).toMatchObject([{ id: 4, note: 'after' }]);
    // In a transaction too: the failure rolls it back, as any statement's does.
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx.executeQuery(
          CompiledQuery.raw(`${INSERT} ${PREPARED_STATEMENT}`, [5, new Date(), 'rolled back']),
        );
        await trx.executeQuery(
          CompiledQuery.raw(`${INSERT} ${PREPARED_STATEMENT}`, [5, new Date(), 'again']),
        );
      }),
    ).rejects.toMatchObject({ code: '23505' });
    const { rows: count } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM prepared_probe`.execute(database.db);
    expect(count).toEqual([{ n: 4 }]);
  });
});
