import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { PreparingPool } from './pg-pool.ts';
import {
  DatabaseLostError,
  PGliteNotifications,
  PGlitePool,
  PGliteThread,
  type PoolStats,
} from './pglite-thread.ts';
import type { NotificationListener } from './pg-listener.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export { DatabaseLostError, type PoolStats };

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Calls `listener` once if the database is gone for good: the embedded database's thread died,
   * so every statement from now on fails with DatabaseLostError. (A PostgreSQL pool replaces lost
   * connections by itself, so it never calls it.)
   */
  onLost(listener: (error: DatabaseLostError) => void): void;
  /** PGlite: ends its thread abruptly, as a fatal error inside it would (tests of that path). */
  crashForTests?(): Promise<void>;
  /**
   * The same database for the few statements that stand between a commit and what waits for it
   * (the dispatcher's claim, decision 026), so they do not queue behind the requests of a busy
   * moment: on PGlite they take the one connection before the transactions waiting for it (one
   * statement each, so those wait one statement longer); on PostgreSQL they have a pool of
   * URGENT_POOL_SIZE connections of their own.
   */
  urgentDb: Db;
  /** PostgreSQL: the connection string (for a dedicated LISTEN connection). */
  databaseUrl?: string;
  /**
   * PGlite: its notifications (NOTIFY from triggers), as PgListener gives them on PostgreSQL.
   * On PostgreSQL the app opens its own LISTEN connection from databaseUrl.
   */
  notifications?: NotificationListener;
  /** PGlite: its whole data directory as an uncompressed tar, for `pgliteSnapshotPath`. */
  dumpPglite?(): Promise<Uint8Array>;
  /**
   * PGlite: a consistent copy of the data directory (uncompressed tar) while the server runs,
   * taken between transactions after a checkpoint (backups, decision 004).
   */
  snapshotPglite?(): Promise<Uint8Array>;
  /** How busy the connection pool is, for metrics. */
  poolStats(): PoolStats;
  close(): Promise<void>;
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
  /** Directory for PGlite's files (persisted); without it (and without databaseUrl), in memory. */
  pgliteDir?: string;
  /** A PGlite data directory dumped by `dumpPglite` to start from (tests' migrated snapshot). */
  pgliteSnapshotPath?: string;
  poolSize?: number;
}

export { PREPARED_STATEMENT } from './pg-pool.ts';

/** PostgreSQL: the connections of DatabaseHandle.urgentDb, beside the pool's. */
const URGENT_POOL_SIZE = 2;

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const config = { connectionString: options.databaseUrl, options: '-c TimeZone=UTC' };
    const pool = new PreparingPool({ ...config, max: options.poolSize ?? 10 });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const urgentPool = new PreparingPool({ ...config, max: URGENT_POOL_SIZE });
    const urgentDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: urgentPool }) });
    return {
      db,
      urgentDb,
      kind: 'postgres',
      databaseUrl: options.databaseUrl,
      poolStats: () => ({
        max: pool.pool.options.max ?? 10,
        total: pool.pool.totalCount,
        idle: pool.pool.idleCount,
        waiting: pool.pool.waitingCount,
      }),
      onLost: () => {},
      close: async () => {
        await Promise.all([db.destroy(), urgentDb.destroy()]);
      },
    };
  }

  const dir = options.pgliteDir;
  const unlock = dir ? lockDataDir(dir) : () => {};
  let pglite: PGliteThread;
  try {
    const source = {
      dataDir: dir ? path.join(dir, 'pglite') : undefined,
      snapshotPath: options.pgliteSnapshotPath,
    };
    // Creating the database (initdb, on a directory without one) leaves ~450 MB resident in the
    // thread that ran it, for as long as that thread lives (docs/benchmarks.md, issue #27). So a
    // new directory is created by a thread of its own, which ends, and the database is opened
    // again by the thread that serves it: a few seconds once, on the first start.
    if (source.dataDir && !fs.existsSync(path.join(source.dataDir, 'PG_VERSION'))) {
      await (await PGliteThread.start(source)).close();
      // The directory now holds the database (a snapshot, when given, is loaded into it already).
      source.snapshotPath = undefined;
    }
    pglite = await PGliteThread.start(source);
    await pglite.exec(`SET TimeZone = 'UTC'`);
  } catch (error) {
    unlock();
    const where = dir ? ` in ${path.join(dir, 'pglite')}` : '';
    throw new Error(`Could not open the embedded database${where}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const pool = new PGlitePool(pglite);
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: pool as unknown as pg.Pool }),
  });
  return {
    db,
    urgentDb: new Kysely<Database>({
      dialect: new PostgresDialect({ pool: pool.urgent() as unknown as pg.Pool }),
    }),
    kind: 'pglite',
    dumpPglite: () => pglite.dump(),
    snapshotPglite: () => pool.snapshot(),
    poolStats: () => pool.stats(),
    onLost: (listener) => pglite.onLost(listener),
    notifications: new PGliteNotifications(pglite, pool),
    crashForTests: () => pglite.crash(),
    async close() {
      await db.destroy();
      unlock();
    },
  };
}
