import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { PGLITE_SETTINGS } from './pglite-settings.ts';
import type { ListeningHandler, NotificationHandler, NotificationListener } from './pg-listener.ts';

/**
 * The embedded database (PGlite) in a worker thread of its own, served to Kysely as a pool of one
 * connection (PGlitePool), with its notifications (PGliteNotifications). openDatabase (db.ts)
 * opens it.
 */

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

/** Where the database's thread opens PGlite from: in memory, in `dataDir`, or as a snapshot's copy. */
export interface DatabaseSource {
  dataDir?: string;
  snapshotPath?: string;
}

/** What the thread (pglite-worker.mjs) is started with. */
export interface WorkerSource extends DatabaseSource {
  pgliteWasmModule: WebAssembly.Module;
  settings: string[];
}

let pgliteModule: Promise<WebAssembly.Module> | undefined;

/**
 * PostgreSQL's WebAssembly, compiled once per process: every thread that opens a database (a test
 * file's, a backup's, the first start's) instantiates the same module and shares its compiled
 * code, where each compiled its own (about a second of CPU per opening, docs/benchmarks.md).
 */
function compiledPglite(): Promise<WebAssembly.Module> {
  pgliteModule ??= fs.promises
    .readFile(createRequire(import.meta.url).resolve('@electric-sql/pglite/pglite.wasm'))
    .then((bytes) => WebAssembly.compile(bytes));
  return pgliteModule;
}

/**
 * PGlite runs PostgreSQL compiled to WebAssembly on the thread that calls it, so on the server's
 * thread a statement holds up every request meanwhile (a last-seen flush of 1,000 devices took
 * tens of milliseconds). It runs on a worker thread instead, one statement at a time, and this
 * is its handle: statements go over as messages, rows come back as structured clones (Date,
 * bigint and Uint8Array intact). The thread keeps the process alive only while a statement is
 * in flight, as a socket would.
 */
export class PGliteThread {
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
    // Plain JavaScript, from the sources and from dist/ alike (pglite-worker.mjs says why).
    this.worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: source,
    });
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
  static async start(source: DatabaseSource): Promise<PGliteThread> {
    const thread = new PGliteThread({
      ...source,
      pgliteWasmModule: await compiledPglite(),
      settings: PGLITE_SETTINGS,
    });
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
export class PGlitePool {
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
export class PGliteNotifications implements NotificationListener {
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

  /** Its handlers are dropped: an app built again on the same database registers its own. */
  async close(): Promise<void> {
    this.listening = false;
    this.handlers.clear();
  }
}
