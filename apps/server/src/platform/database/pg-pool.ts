import crypto from 'node:crypto';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import pg from 'pg';

/**
 * Ends the text of a statement that PostgreSQL should parse and plan once per connection and keep
 * (a named prepared statement), for the few hot statements whose planning costs more than their
 * work: the audit log's writers (audit.ts), whose text is fixed and whose plan does not depend on
 * the values. Only those carry it: a kept generic plan would serve a statement whose best plan
 * depends on its values (the console's lists) worse. PGlite ignores it (a comment).
 */
export const PREPARED_STATEMENT = '/* prepared */';

/** The name a prepared statement goes by on each connection: its text's digest. */
const preparedNames = new Map<string, string>();
function preparedName(text: string): string {
  let name = preparedNames.get(text);
  if (!name) {
    name = `vrtc_${crypto.createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    preparedNames.set(text, name);
  }
  return name;
}

/**
 * pg's pool as Kysely's PostgresDialect takes it, with two differences in how a statement is
 * sent (PreparingClient). Everything else (sizes, counts, events) is pg's own pool, `pool`.
 */
export class PreparingPool implements PostgresPool {
  readonly pool: pg.Pool;

  constructor(config: pg.PoolConfig) {
    this.pool = new pg.Pool(config);
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => {});
    // A connection lost while the pool has lent the client out (between the statements of a
    // transaction, say) is told as an 'error' event, which pg-pool listens to only while the
    // client is idle: unheard, it would end the process (an administrator's
    // pg_terminate_backend, a database restart). The next statement on it fails instead, and the
    // pool drops the client when it comes back.
    this.pool.on('connect', (client) => client.on('error', () => {}));
  }

  async connect(): Promise<PostgresPoolClient> {
    return new PreparingClient(await this.pool.connect());
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * One of the pool's clients as Kysely asks it: a statement whose text ends in PREPARED_STATEMENT
 * goes as a named prepared statement, and every statement through pg's callback form under a
 * promise of our own. Rows that pg resolves its own promise with survive V8's young-generation
 * collections, for a reason we have not pinned down, and wait in the old generation for a full
 * collection. A 100,000-row History export left 65 MB of such garbage (+57 MB of RSS per download
 * in bench:console); through the callback it leaves 10 MB and the RSS stays flat
 * (`--trace-gc-nvp`, promoted bytes). Errors get the caller's async stack, as pg's own promise
 * gives them.
 */
class PreparingClient implements PostgresPoolClient {
  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    statement: string | PostgresCursor<R>,
    parameters?: ReadonlyArray<unknown>,
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof statement !== 'string') {
      // A cursor (Kysely's streams) is pg's to drive, as given.
      return this.client.query(
        statement as unknown as pg.Submittable,
      ) as unknown as PostgresCursor<R>;
    }
    const config: pg.QueryConfig = {
      text: statement,
      values: parameters as unknown[],
      ...(statement.endsWith(PREPARED_STATEMENT) ? { name: preparedName(statement) } : {}),
    };
    return new Promise<PostgresQueryResult<R>>((resolve, reject) => {
      this.client.query(config, (error: Error | null, result: pg.QueryResult) =>
        error ? reject(error) : resolve(result as unknown as PostgresQueryResult<R>),
      );
    }).catch((error: Error) => {
      Error.captureStackTrace(error);
      throw error;
    });
  }

  release(): void {
    this.client.release();
  }
}
