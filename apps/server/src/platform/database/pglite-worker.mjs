// @ts-check
// The PGlite database on a thread of its own (PGliteThread in pglite-thread.ts says why). Plain
// JavaScript, and it imports nothing of the server: a worker thread of Node 20 cannot load
// TypeScript, and loading it through tsx cost each opening about a second of CPU (the server
// tests open a database per file; docs/benchmarks.md). The build copies it into dist/ as it is.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** @typedef {import('./pglite-thread.ts').WorkerSource} WorkerSource */
/** @typedef {{ id: number, op: 'query' | 'exec' | 'listen' | 'dump' | 'close', text: string, params?: unknown[] }} Request */
/** @typedef {{ name?: string, message: string, stack?: string, [field: string]: unknown }} ErrorData */

/**
 * PGlite's file system layer sets the modes of the files it writes itself (chmod with its
 * in-memory defaults, 0666), which no umask masks. Everything in DATA_DIR is its owner's only
 * (data-dir.ts): the group and other bits come off every mode it sets. This thread runs only
 * PGlite, and its `fs` is its own (a worker's modules are not the main thread's).
 */
function keepModesOwnerOnly() {
  /** @param {fs.Mode} mode */
  const ownerOnly = (mode) => (typeof mode === 'string' ? Number.parseInt(mode, 8) : mode) & ~0o077;
  const { chmodSync, fchmodSync } = fs;
  fs.chmodSync = (target, mode) => chmodSync(target, ownerOnly(mode));
  fs.fchmodSync = (fd, mode) => fchmodSync(fd, ownerOnly(mode));
}
keepModesOwnerOnly();

const { dataDir, snapshotPath, pgliteWasmModule, settings } = /** @type {WorkerSource} */ (
  workerData
);
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/**
 * An error as plain data: the message, and the PostgreSQL fields (code, constraint…) if any.
 * @param {unknown} error
 * @returns {ErrorData}
 */
function describe(error) {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || value === null || typeof value !== 'object') fields[key] = value;
  }
  // Not every throw is an Error: the file system layer throws { name: 'ErrnoError', errno }.
  if (!(error instanceof Error)) return { ...fields, message: JSON.stringify(fields) };
  return { ...fields, name: error.name, message: error.message, stack: error.stack };
}

/**
 * What the pool needs of a result, and nothing PGlite-specific that would not clone.
 * @param {{ rows?: unknown[], affectedRows?: number } | undefined} result
 */
function outcome(result) {
  return { rows: result?.rows ?? [], affectedRows: result?.affectedRows ?? 0 };
}

/** The extensions the migrations create (the VR users' search indexes, 0008). */
const extensions = { pg_trgm, btree_gin };

/**
 * A snapshot (a test file's copy of the migrated database, a restore) is read from its file as
 * PGlite unpacks it: a Blob made from the file's bytes copied its 40-odd MB once more first
 * (0.2–0.3 s of CPU per opening, docs/benchmarks.md). The WebAssembly module comes compiled by the
 * thread that started this one, once for every database the process opens.
 */
async function open() {
  return PGlite.create(dataDir, {
    extensions,
    pgliteWasmModule,
    postgresqlconf: settings,
    ...(snapshotPath ? { loadDataDir: await fs.openAsBlob(snapshotPath) } : {}),
  });
}

try {
  const pglite = await open();
  // NOTIFY on a LISTENed channel (the access-change triggers, migration 0009), passed on when its
  // transaction commits: before the answer to the COMMIT, on the same port.
  pglite.onNotification((channel, payload) =>
    port.postMessage({ notification: { channel, payload } }),
  );
  port.on('message', async (/** @type {Request} */ { id, op, text, params }) => {
    try {
      /** @type {unknown} */
      let result;
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
