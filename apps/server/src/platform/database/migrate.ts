import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
/** Arbitrary constant shared by every process of this product: "one migrator at a time". */
const MIGRATION_LOCK_KEY = 7_310_001;

const migrationFiles = () =>
  fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((name) => /^\d{4}_[\w-]+\.sql$/.test(name))
    .sort();

/** The versions this build knows, in order (a database is migrated when it holds them all). */
export function migrationVersions(): string[] {
  return migrationFiles().map((file) => file.replace(/\.sql$/, ''));
}

/**
 * Applies the versioned SQL files not applied yet, in one transaction under an advisory lock, so
 * processes starting together apply each file once.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = migrationFiles();
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`.execute(trx);
    const { rows } = await sql<{ version: string }>`SELECT version FROM schema_migrations`.execute(
      trx,
    );
    const applied = new Set(rows.map((row) => row.version));
    const newlyApplied: string[] = [];
    for (const file of files) {
      const version = file.replace(/\.sql$/, '');
      if (applied.has(version)) continue;
      await sql.raw(fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')).execute(trx);
      await sql`INSERT INTO schema_migrations (version) VALUES (${version})`.execute(trx);
      newlyApplied.push(version);
    }
    return newlyApplied;
  });
}
