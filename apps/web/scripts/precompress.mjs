// After `vite build`: a brotli (.br) and a gzip (.gz) copy beside every text file of dist/ (or of
// the folder given as the argument: the browser tests' dist-e2e), made once at maximum
// compression, so the server sends them by content negotiation without compressing on each
// request (apps/server/src/platform/http/console-files.ts).
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../dist'));
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/**
 * A compressed copy is sent with a `content-encoding` header (and the answer's `vary`): a copy that
 * saves less than this is not written, and the file goes as it is. Small files are worth it: the
 * page itself (index.html, ~1.3 KB → ~0.5 KB, its icon inline) and a screen's few hundred bytes of
 * styles are on every first visit (issue #42).
 */
const MIN_SAVED_BYTES = 64;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

let before = 0;
let after = 0;
await Promise.all(
  [...files(dist)].map(async (file) => {
    const content = fs.readFileSync(file);
    const [br, gz] = await Promise.all([
      brotli(content, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
      gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
    ]);
    for (const [extension, copy] of [
      ['br', br],
      ['gz', gz],
    ]) {
      if (copy.length + MIN_SAVED_BYTES <= content.length)
        fs.writeFileSync(`${file}.${extension}`, copy);
      else fs.rmSync(`${file}.${extension}`, { force: true });
    }
    before += content.length;
    after += Math.min(br.length, content.length);
  }),
);
const kb = (bytes) => `${Math.round(bytes / 1024)} KB`;
console.log(`precompressed dist/: ${kb(before)} → ${kb(after)} with brotli (gzip copies beside)`);
