import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

/**
 * A bare PGlite, the floor under the server's memory: opened by this process alone on an empty
 * directory, one `SELECT 1`, then its resident set. Run by console-load.bench.ts in a child
 * process per variant, so no variant inherits another's heap. argv[2]: the PGliteOptions to try,
 * as JSON. Prints one JSON line: { rssBytes, openMs }.
 */
const options = JSON.parse(process.argv[2] ?? '{}') as PGliteOptions;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-pglite-bare-'));
try {
  const started = performance.now();
  const pglite = await PGlite.create(dir, options);
  await pglite.query('SELECT 1');
  const openMs = performance.now() - started;
  const rssBytes = process.memoryUsage().rss;
  await pglite.close();
  process.stdout.write(`${JSON.stringify({ rssBytes, openMs })}\n`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
