import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL: the connection string (for a dedicated LISTEN connection). */
  databaseUrl?: string;
  close(): Promise<void>;
}

interface QueryResultLike {
  command: string;
  rowCount: number;
  rows: unknown[];
}

/**
 * PGlite is a single connection. This presents it to Kysely's PostgresDialect as a pool whose
 * connect() hands the connection out to one holder at a time, so a transaction owns it from BEGIN
 * to COMMIT. Inside a transaction, always query through the transaction object.
 */
class PGlitePool {
  private tail: Promise<void> = Promise.resolve();
  constructor(private readonly pglite: PGlite) {}

  async connect() {
    let release!: () => void;
    const previous = this.tail;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    const pglite = this.pglite;
    return {
      async query(text: string, params: readonly unknown[] = []): Promise<QueryResultLike> {
        // Statements without parameters go through the simple protocol, which also accepts
        // several statements at once (migration files).
        const result =
          params.length === 0
            ? (await pglite.exec(text)).at(-1)
            : await pglite.query(text, params as unknown[]);
        const firstWord = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? '';
        const affected = result?.affectedRows ?? 0;
        return {
          command: firstWord === 'WITH' ? (affected > 0 ? 'UPDATE' : 'SELECT') : firstWord,
          rowCount: affected || (result?.rows.length ?? 0),
          rows: result?.rows ?? [],
        };
      },
      release() {
        release();
      },
    };
  }

  async end(): Promise<void> {
    await this.pglite.close();
  }
}

/** Refuses a second process on one PGlite data directory (PGlite has no lock of its own). */
function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'server.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) {
        throw new Error(
          `The data directory ${dir} is in use by another server process (pid ${holder}). ` +
            'Stop it, or give this one its own DATA_DIR or a DATABASE_URL.',
        );
      }
      fs.rmSync(lockPath, { force: true }); // left behind by a process that died
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface OpenDatabaseOptions {
  /** PostgreSQL connection string; when absent, PGlite is used. */
  databaseUrl?: string;
  /** Directory for PGlite's files (persisted); ignored with databaseUrl or pglite. */
  pgliteDir?: string;
  /** An already opened PGlite instance (tests load a migrated snapshot into one). */
  pglite?: PGlite;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 10,
      options: '-c TimeZone=UTC',
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      databaseUrl: options.databaseUrl,
      close: () => db.destroy(),
    };
  }

  let unlock = () => {};
  let pglite = options.pglite;
  if (!pglite) {
    const dir = options.pgliteDir;
    if (dir) unlock = lockDataDir(dir);
    try {
      pglite = await PGlite.create(dir ? path.join(dir, 'pglite') : undefined);
    } catch (error) {
      unlock();
      throw error;
    }
  }
  await pglite.exec(`SET TimeZone = 'UTC'`);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new PGlitePool(pglite) as unknown as pg.Pool }),
  });
  return {
    db,
    kind: 'pglite',
    async close() {
      await db.destroy();
      unlock();
    },
  };
}
