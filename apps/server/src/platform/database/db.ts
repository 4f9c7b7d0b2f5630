import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { PreparingPool } from './pg-pool.ts';
import type { WorkerSource } from './pglite-worker.ts';
import type { ListeningHandler, NotificationHandler, NotificationListener } from './pg-listener.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;

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

export interface PoolStats {
  /** Connections the pool may open. */
  max: number;
  /** Connections open now (busy or idle). */
  total: number;
  idle: number;
  /** Callers waiting for a connection: the pool is the bottleneck while this stays above 0. */
  waiting: number;
}

interface QueryResultLike {
  command: string;
  rowCount: number;
  rows: unknown[];
}

interface ThreadResult {
  rows: unknown[];
  affectedRows: number;
}

type ThreadRequest =
  | { op: 'query'; text: string; params: readonly unknown[] }
  | { op: 'exec'; text: string }
  | { op: 'listen'; text: string }
  | { op: 'dump' }
  | { op: 'close' };

type ThreadReply =
  | { ready: true }
  | { ready: false; error: ErrorData }
  | { id: number; result: unknown }
  | { id: number; error: ErrorData }
  | { notification: { channel: string; payload: string } };

interface ErrorData {
  name?: string;
  message: string;
  stack?: string;
  [field: string]: unknown;
}

/** Every statement fails with this once the embedded database's thread has died. */
export class DatabaseLostError extends Error {
  readonly code = 'DATABASE_LOST';
}

/** Rebuilds an error the thread sent as data, keeping PostgreSQL's fields (code, constraint…). */
function errorFrom(data: ErrorData): Error {
  const { message, stack, name, ...fields } = data;
  const error = Object.assign(new Error(message), fields);
  if (name) error.name = name;
  if (stack) error.stack = stack;
  return error;
}

/**
 * The embedded database's thread. Compiled (dist/), its entry is the JavaScript beside this file.
 * From the sources (tests, `npm run dev`, benchmarks) it is TypeScript, which a worker thread on
 * Node 20 cannot load by itself: neither a `--import tsx` in its execArgv nor a loader registered
 * inside it applies to the thread's entry module. So a small evaluated entry imports tsx's API and
 * lets tsImport load the worker file (tsx is a development dependency; dist never needs it).
 */
function startWorker(source: WorkerSource): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./pglite-worker.js', import.meta.url), { workerData: source });
  }
  const entry = new URL('./pglite-worker.ts', import.meta.url).href;
  // tsx's ES module API, as its package's exports map names it (import.meta.resolve would pick it,
  // but Vitest's global setup runs without one).
  const tsxManifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const { exports } = JSON.parse(fs.readFileSync(tsxManifest, 'utf8')) as {
    exports: Record<string, { import?: { default?: string } }>;
  };
  const apiFile = exports['./esm/api']?.import?.default;
  if (!apiFile) throw new Error(`${tsxManifest} exports no ./esm/api (tsImport) for ES modules`);
  const tsxApi = pathToFileURL(path.join(path.dirname(tsxManifest), apiFile)).href;
  const code =
    `import(${JSON.stringify(tsxApi)})` +
    `.then((tsx) => tsx.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}));`;
  return new Worker(code, { eval: true, workerData: source });
}

/**
 * PGlite runs PostgreSQL compiled to WebAssembly on the thread that calls it, so on the server's
 * thread a statement holds up every request meanwhile (a last-seen flush of 1,000 devices took
 * tens of milliseconds). It runs on a worker thread instead, one statement at a time, and this
 * is its handle: statements go over as messages, rows come back as structured clones (Date,
 * bigint and Uint8Array intact). The thread keeps the process alive only while a statement is
 * in flight, as a socket would.
 */
class PGliteThread {
  private readonly worker: Worker;
  private readonly pending = new Map<
    number,
    { resolve(value: unknown): void; reject(error: Error): void }
  >();
  private nextId = 1;
  private stopped: Error | undefined;
  private closing = false;
  private readonly lostListeners: Array<(error: DatabaseLostError) => void> = [];
  /** Called with each notification of a LISTENed channel. */
  onNotification?: (channel: string, payload: string) => void;

  private constructor(source: WorkerSource) {
    this.worker = startWorker(source);
    this.worker.unref();
    this.worker.on('message', (reply: ThreadReply) => {
      if ('notification' in reply) {
        this.onNotification?.(reply.notification.channel, reply.notification.payload);
        return;
      }
      if (!('id' in reply)) return;
      const waiting = this.pending.get(reply.id);
      if (!waiting) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('error' in reply) waiting.reject(errorFrom(reply.error));
      else waiting.resolve(reply.result);
    });
    const stop = (reason: DatabaseLostError) => {
      if (this.stopped) return;
      this.stopped = reason;
      for (const waiting of this.pending.values()) waiting.reject(reason);
      this.pending.clear();
      if (!this.closing) for (const listener of this.lostListeners) listener(reason);
    };
    this.worker.on('error', (error) =>
      stop(
        new DatabaseLostError(`The embedded database thread failed: ${error.message}`, {
          cause: error,
        }),
      ),
    );
    this.worker.on('exit', (code) =>
      stop(new DatabaseLostError(`The embedded database thread stopped (exit code ${code})`)),
    );
  }

  onLost(listener: (error: DatabaseLostError) => void): void {
    this.lostListeners.push(listener);
  }

  async crash(): Promise<void> {
    await this.worker.terminate();
  }

  /** Opens PGlite on its thread: in memory, in `dataDir`, or as a copy of a dumped snapshot. */
  static async start(source: WorkerSource): Promise<PGliteThread> {
    const thread = new PGliteThread(source);
    thread.worker.ref();
    // The thread's first message says whether PGlite opened; `once` rejects if the thread dies.
    const [reply] = (await once(thread.worker, 'message')) as [ThreadReply];
    thread.worker.unref();
    if ('ready' in reply && !reply.ready) {
      await thread.worker.terminate();
      throw errorFrom(reply.error);
    }
    return thread;
  }

  private send<T>(request: ThreadRequest): Promise<T> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, ...request });
    });
  }

  query(text: string, params: readonly unknown[]): Promise<ThreadResult> {
    return this.send({ op: 'query', text, params });
  }

  /** The simple protocol: several statements at once (migration files); the last one's result. */
  exec(text: string): Promise<ThreadResult> {
    return this.send({ op: 'exec', text });
  }

  /** LISTEN outside any transaction: call it holding the connection (PGlitePool.connect). */
  listen(channel: string): Promise<unknown> {
    return this.send({ op: 'listen', text: channel });
  }

  /** The whole data directory as an uncompressed tar (test snapshots). */
  dump(): Promise<Uint8Array> {
    return this.send({ op: 'dump' });
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    this.closing = true;
    await this.send({ op: 'close' });
    await this.worker.terminate();
  }
}

/**
 * PGlite is a single connection. This presents it to Kysely's PostgresDialect as a pool whose
 * connect() hands the connection out to one holder at a time, so a transaction owns it from BEGIN
 * to COMMIT. Inside a transaction, always query through the transaction object.
 */
class PGlitePool {
  /** Holders waiting for the connection, in turn; `ahead` ones before the others. */
  private readonly queue: Array<() => void> = [];
  private readonly ahead: Array<() => void> = [];
  private busy = false;
  constructor(private readonly pglite: PGliteThread) {}

  private get waiting(): number {
    return this.queue.length + this.ahead.length;
  }

  stats(): PoolStats {
    return { max: 1, total: 1, idle: this.busy ? 0 : 1, waiting: this.waiting };
  }

  /**
   * A consistent copy of the data directory: holding the one connection, no transaction is open
   * meanwhile, and after CHECKPOINT the files need no WAL replay. Statements wait during the dump.
   */
  async snapshot(): Promise<Uint8Array> {
    const connection = await this.connect();
    try {
      await connection.query('CHECKPOINT');
      return await this.pglite.dump();
    } finally {
      connection.release();
    }
  }

  /** The connection, when every holder before has released it; `ahead`: before the others waiting. */
  async connect(ahead = false) {
    // Released, the connection passes straight to the next holder: it stays busy meanwhile.
    if (this.busy)
      await new Promise<void>((resolve) => (ahead ? this.ahead : this.queue).push(resolve));
    this.busy = true;
    let released = false;
    const pglite = this.pglite;
    return {
      async query(text: string, params: readonly unknown[] = []): Promise<QueryResultLike> {
        // Statements without parameters go through the simple protocol, which also accepts
        // several statements at once (migration files).
        const result =
          params.length === 0 ? await pglite.exec(text) : await pglite.query(text, params);
        const firstWord = /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? '';
        const affected = result.affectedRows;
        return {
          command: firstWord === 'WITH' ? (affected > 0 ? 'UPDATE' : 'SELECT') : firstWord,
          rowCount: affected || result.rows.length,
          rows: result.rows,
        };
      },
      release: () => {
        if (released) return;
        released = true;
        const next = this.ahead.shift() ?? this.queue.shift();
        if (next) next();
        else this.busy = false;
      },
    };
  }

  /** The same connection for statements that go before the holders waiting (DatabaseHandle.urgentDb). */
  urgent(): PGlitePool {
    return { connect: () => this.connect(true), end: async () => {} } as unknown as PGlitePool;
  }

  async end(): Promise<void> {
    await this.pglite.close();
  }
}

/**
 * The embedded database's notifications. One process, one connection that never drops: it
 * listens from start() until the database closes.
 */
class PGliteNotifications implements NotificationListener {
  private readonly handlers = new Map<string, NotificationHandler[]>();
  listening = false;

  constructor(
    private readonly pglite: PGliteThread,
    private readonly pool: PGlitePool,
  ) {
    pglite.onNotification = (channel, payload) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(payload);
    };
  }

  on(channel: string, handler: NotificationHandler): void {
    this.handlers.set(channel, [...(this.handlers.get(channel) ?? []), handler]);
  }

  onListening(_handler: ListeningHandler): void {
    // Never lost while the database is open.
  }

  async start(): Promise<void> {
    // Holding the one connection: a LISTEN inside another holder's transaction would be undone
    // by its rollback.
    const connection = await this.pool.connect();
    try {
      for (const channel of this.handlers.keys()) await this.pglite.listen(channel);
    } finally {
      connection.release();
    }
    this.listening = true;
  }

  async close(): Promise<void> {
    this.listening = false;
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
