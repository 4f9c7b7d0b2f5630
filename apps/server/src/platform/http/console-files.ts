import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { AppInstance } from './app-types.ts';
import { apiNotFound } from './http-errors.ts';

/** Vite names every file under assets/ by its content hash (a new build is a new name); the
 * precompressed copies carry .br or .gz after it. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(\.br|\.gz)?$/;

/**
 * Security headers that only a document (a page, or an SVG opened as one) acts on. Helmet sends
 * them on every answer of the browser's scope; on a script, a stylesheet or a font they do
 * nothing, and they were ~0.7 KB of each asset's ~1 KB of headers: about a tenth of a first
 * visit's bytes once every file pays it (issue #27). `x-content-type-options: nosniff` and
 * `cross-origin-resource-policy` apply to any file, and stay.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'strict-transport-security',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
const DOCUMENT = /\.(html|svg)(\.br|\.gz)?$/;

interface StaticReply {
  header(name: string, value: string): unknown;
  raw: { removeHeader(name: string): void };
}

/**
 * Headers of a file of the console. Caching: a hashed asset never changes, so browsers keep it
 * for a year without asking again; everything else (index.html above all, which names the current
 * assets) is revalidated on every load, so a new build shows at once.
 */
function fileHeaders(reply: StaticReply, file: string) {
  reply.header(
    'cache-control',
    HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache',
  );
  if (!DOCUMENT.test(file)) {
    for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
  }
}

/** The built console at `/`; any non-API path falls back to index.html for client-side routes. */
export async function serveConsole(app: AppInstance, distDir: string) {
  const indexHtml = path.join(distDir, 'index.html');
  const hasConsole = fs.existsSync(indexHtml);
  if (hasConsole) {
    // wildcard: files are looked up on each request, so a rebuilt console is served without a
    // restart; a missing file falls through to the not-found handler below. preCompressed: the
    // build's .br and .gz copies (apps/web/scripts/precompress.mjs) go to clients that accept them.
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      index: 'index.html',
      preCompressed: true,
      cacheControl: false,
      setHeaders: fileHeaders,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/v1/') || request.url.startsWith('/docs');
    if (!isApi && hasConsole && request.method === 'GET') {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply.status(404).send(apiNotFound(request.method, request.url));
  });
}
