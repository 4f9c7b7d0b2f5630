import { sql } from 'kysely';
import type { DatabaseHandle, Db } from '../src/platform/database/db.ts';

/**
 * One database per test worker, kept open from file to file and put back to the migrated state
 * before each lease, instead of a new copy for every file (on PGlite 1.3–2 s of CPU each: the
 * thread, PGlite's start, the snapshot's unpacking; on PostgreSQL a database made from the
 * template and dropped; docs/benchmarks.md, "Test suite time"). A file sees exactly what a new
 * copy would hold: every table emptied, the rows the migrations wrote put back, every sequence
 * where the migrations left it, the session's settings reset. A file that changed the schema
 * itself (a trigger disabled, an owner or a role made: any write to the system catalogs) is not
 * trusted to have undone it, and the next file gets a new copy instead.
 */
interface Kept {
  handle: DatabaseHandle;
  migrated: MigratedState;
  /** The transaction id after the last reset: a catalog row written at or after it is a change. */
  mark: string;
  leased: boolean;
}

interface MigratedState {
  tables: string[];
  /** The rows the migrations wrote, per table, with the columns an INSERT may name. */
  rows: { table: string; columns: string[]; json: string }[];
  sequences: { name: string; value: string; called: boolean }[];
  /**
   * The system catalogs a schema change writes to: the tables of `pg_catalog`, but for the
   * planner's statistics and the catalogs all databases share (roles apart).
   */
  catalogs: string[];
}

let kept: Kept | undefined;

/**
 * A migrated database for one file: the worker's kept one when it is free and can be reset,
 * otherwise a new copy (`open`). Its `close()` hands the kept one back, still open.
 */
export async function leaseDatabase(open: () => Promise<DatabaseHandle>): Promise<DatabaseHandle> {
  if (kept && !kept.leased) {
    const current = kept;
    if (await withinTime(resetToMigrated(current))) return lease(current);
    kept = undefined;
    // Not awaited: a database whose connection a file left held would never finish closing.
    void current.handle.close().catch(() => {});
  }
  const handle = await open();
  // The kept one is in use (a file with two databases at once): this one is the file's alone.
  if (kept) return handle;
  const fresh: Kept = {
    handle,
    migrated: await readMigratedState(handle.db),
    mark: await transactionMark(handle.db),
    leased: false,
  };
  kept = fresh;
  return lease(fresh);
}

/**
 * False when the reset has not ended in RESET_TIME_MS: a file that left the database's one
 * connection held (it would wait for ever) gets a new copy, and the held one is left to the worker.
 */
async function withinTime(reset: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  // Pacing: a limit, not a wait: a reset that ends (in milliseconds) clears it.
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), RESET_TIME_MS);
  });
  try {
    return await Promise.race([reset, late]);
  } finally {
    clearTimeout(timer);
  }
}

const RESET_TIME_MS = 10_000;

function lease(current: Kept): DatabaseHandle {
  current.leased = true;
  return {
    ...current.handle,
    async close() {
      current.leased = false;
    },
  };
}

async function readMigratedState(db: Db): Promise<MigratedState> {
  const { rows: tables } = await sql<{ name: string; columns: string[] }>`
    SELECT format('%I.%I', n.nspname, c.relname) AS name,
      array(SELECT quote_ident(a.attname) FROM pg_attribute a
            WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
              AND a.attgenerated = '' ORDER BY a.attnum) AS columns
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname NOT IN ('pg_catalog', 'information_schema')
      AND n.nspname NOT LIKE 'pg_toast%'
    ORDER BY 1`.execute(db);
  const rows: MigratedState['rows'] = [];
  for (const table of tables) {
    const { rows: found } = await sql<{ json: string | null }>`
      SELECT json_agg(t)::text AS json FROM ${sql.raw(table.name)} t`.execute(db);
    if (found[0]?.json)
      rows.push({ table: table.name, columns: table.columns, json: found[0].json });
  }
  const { rows: sequences } = await sql<{ name: string; value: string; called: boolean }>`
    SELECT format('%I.%I', schemaname, sequencename) AS name,
      coalesce(last_value, start_value)::text AS value, last_value IS NOT NULL AS called
    FROM pg_sequences`.execute(db);
  // Not the planner's statistics (PostgreSQL's autovacuum writes them), nor the catalogs every
  // database of the server shares, but for its roles: another test file's database is no change.
  const { rows: catalogs } = await sql<{ name: string }>`
    SELECT format('pg_catalog.%I', relname) AS name FROM pg_class
    WHERE relnamespace = 'pg_catalog'::regnamespace AND relkind = 'r'
      AND relname <> 'pg_statistic'
      AND (NOT relisshared OR relname IN ('pg_authid', 'pg_auth_members'))`.execute(db);
  return {
    tables: tables.map((table) => table.name),
    rows,
    sequences,
    catalogs: catalogs.map((catalog) => catalog.name),
  };
}

async function transactionMark(db: Db): Promise<string> {
  // The 32 bits of the transaction id that `xmin` holds.
  const { rows } = await sql<{ mark: string }>`
    SELECT (txid_current() % 4294967296)::text AS mark`.execute(db);
  return rows[0]!.mark;
}

/** Puts the kept database back to the migrated state; false when it cannot be trusted to. */
async function resetToMigrated(current: Kept): Promise<boolean> {
  const { db } = current.handle;
  const { migrated } = current;
  try {
    const changed = migrated.catalogs
      .map((catalog) => `SELECT 1 FROM ${catalog} WHERE xmin::text::bigint >= ${current.mark}`)
      .join(' UNION ALL ');
    const { rows } = await sql.raw(`SELECT EXISTS (${changed}) AS changed`).execute(db);
    if ((rows[0] as { changed: boolean }).changed) return false;
    if (current.handle.kind === 'pglite') {
      // Its one connection is every file's: what a file set for its session goes (PostgreSQL's
      // pool is left as it is: no test or query sets anything beyond its transaction there).
      await sql`RESET ALL`.execute(db);
      await sql`SET TimeZone = 'UTC'`.execute(db);
      await sql`UNLISTEN *`.execute(db);
      await sql`SELECT pg_advisory_unlock_all()`.execute(db);
    }
    await db.transaction().execute(async (tx) => {
      // The rows go back as the migrations left them: no trigger adds to them or refuses them.
      await sql`SET LOCAL session_replication_role = replica`.execute(tx);
      await sql.raw(`TRUNCATE ${migrated.tables.join(', ')}`).execute(tx);
      for (const { table, columns, json } of migrated.rows) {
        const list = sql.raw(columns.join(', '));
        const name = sql.raw(table);
        await sql`INSERT INTO ${name} (${list}) OVERRIDING SYSTEM VALUE
          SELECT ${list} FROM json_populate_recordset(NULL::${name}, ${json})`.execute(tx);
      }
      for (const { name, value, called } of migrated.sequences) {
        await sql`SELECT setval(${name}::regclass, ${value}::bigint, ${called})`.execute(tx);
      }
    });
    current.mark = await transactionMark(db);
    return true;
  } catch {
    return false;
  }
}
