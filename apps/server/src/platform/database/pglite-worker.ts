// The PGlite database on a thread of its own (see PGliteThread in db.ts for why). Compiled, it is
// dist/platform/database/pglite-worker.js; from the sources (tests, `npm run dev`) db.ts starts it through
// tsx (startWorker there).
import fs from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLITE_SETTINGS } from './pglite-settings.ts';

export interface WorkerSource {
  dataDir?: string;
  snapshotPath?: string;
}

interface Request {
  id: number;
  op: 'query' | 'exec' | 'listen' | 'dump' | 'close';
  text: string;
  params?: unknown[];
}

interface ErrorData {
  name?: string;
  message: string;
  stack?: string;
  [field: string]: unknown;
}

/**
 * PGlite's file system layer sets the modes of the files it writes itself (chmod with its
 * in-memory defaults, 0666), which no umask masks. Everything in DATA_DIR is its owner's only
 * (data-dir.ts): the group and other bits come off every mode it sets. This thread runs only
 * PGlite, and its `fs` is its own (a worker's modules are not the main thread's).
 */
function keepModesOwnerOnly(): void {
  const ownerOnly = (mode: fs.Mode) =>
    (typeof mode === 'string' ? Number.parseInt(mode, 8) : mode) & ~0o077;
  const { chmodSync, fchmodSync } = fs;
  fs.chmodSync = (target, mode) => chmodSync(target, ownerOnly(mode));
  fs.fchmodSync = (fd, mode) => fchmodSync(fd, ownerOnly(mode));
}
keepModesOwnerOnly();

const { dataDir, snapshotPath } = workerData as WorkerSource;
const port = parentPort as MessagePort;

/** An error as plain data: the message, and the PostgreSQL fields (code, constraint…) if any. */
function describe(error: unknown): ErrorData {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || value === null || typeof value !== 'object') fields[key] = value;
  }
  // Not every throw is an Error: the file system layer throws { name: 'ErrnoError', errno }.
  if (!(error instanceof Error)) return { ...fields, message: JSON.stringify(fields) };
  return { ...fields, name: error.name, message: error.message, stack: error.stack };
}

/** What the pool needs of a result, and nothing PGlite-specific that would not clone. */
function outcome(result: { rows?: unknown[]; affectedRows?: number } | undefined) {
  return { rows: result?.rows ?? [], affectedRows: result?.affectedRows ?? 0 };
}

/** The extensions the migrations create (the VR users' search indexes, 0008). */
const extensions = { pg_trgm, btree_gin };

/**
 * A snapshot (a test file's copy of the migrated database, a restore) is read from its file as
 * PGlite unpacks it: a Blob made from the file's bytes copied its 40-odd MB once more first
 * (0.2–0.3 s of CPU per opening, docs/benchmarks.md).
 */
async function open(): Promise<PGlite> {
  const options: PGliteOptions = snapshotPath
    ? { extensions, loadDataDir: await fs.openAsBlob(snapshotPath) }
    : { extensions };
  return PGlite.create(dataDir, { ...options, postgresqlconf: PGLITE_SETTINGS });
}

try {
  const pglite = await open();
  // NOTIFY on a LISTENed channel (the access-change triggers, migration 0009), passed on when its
  // transaction commits: before the answer to the COMMIT, on the same port.
  pglite.onNotification((channel, payload) =>
    port.postMessage({ notification: { channel, payload } }),
  );
  port.on('message', async ({ id, op, text, params }: Request) => {
    try {
      let result: unknown;
      if (op === 'query') result = outcome(await pglite.query(text, params));
      else if (op === 'exec') result = outcome((await pglite.exec(text)).at(-1));
      else if (op === 'listen') {
        await pglite.exec(`LISTEN "${text.replaceAll('"', '""')}"`);
        result = null;
      } else if (op === 'dump') {
        const blob = await pglite.dumpDataDir('none');
        result = new Uint8Array(await blob.arrayBuffer());
      } else if (op === 'close') {
        await pglite.close();
        port.postMessage({ id, result: null });
        port.close();
        return;
      } else throw new Error(`unknown operation ${String(op)}`);
      port.postMessage({ id, result });
    } catch (error) {
      port.postMessage({ id, error: describe(error) });
    }
  });
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: describe(error) });
  port.close();
}
