// The PGlite database on a thread of its own (see PGliteThread in db.ts for why). Plain
// JavaScript: a worker thread starts without the TypeScript loader the server runs under.
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @type {{ dataDir?: string, snapshotPath?: string }} */
const { dataDir, snapshotPath } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** An error as plain data: the message, and the PostgreSQL fields (code, constraint…) if any. */
function describe(error) {
  const fields = {};
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || value === null || typeof value !== 'object') fields[key] = value;
  }
  // Not every throw is an Error: the file system layer throws { name: 'ErrnoError', errno }.
  if (!(error instanceof Error)) return { ...fields, message: JSON.stringify(fields) };
  return { ...fields, name: error.name, message: error.message, stack: error.stack };
}

/** What the pool needs of a result, and nothing PGlite-specific that would not clone. */
function outcome(result) {
  return { rows: result?.rows ?? [], affectedRows: result?.affectedRows ?? 0 };
}

async function open() {
  const options = snapshotPath
    ? { loadDataDir: new Blob([fs.readFileSync(snapshotPath)]) }
    : undefined;
  return PGlite.create(dataDir, options);
}

try {
  const pglite = await open();
  port.on('message', async ({ id, op, text, params }) => {
    try {
      let result;
      if (op === 'query') result = outcome(await pglite.query(text, params));
      else if (op === 'exec') result = outcome((await pglite.exec(text)).at(-1));
      else if (op === 'dump') {
        const blob = await pglite.dumpDataDir('none');
        result = new Uint8Array(await blob.arrayBuffer());
      } else if (op === 'close') {
        await pglite.close();
        port.postMessage({ id, result: null });
        port.close();
        return;
      } else throw new Error(`unknown operation ${op}`);
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
