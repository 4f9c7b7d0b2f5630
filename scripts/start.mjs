// `npm start`: builds what is missing or older than its sources (the contract, the server, the
// console: scripts/build.mjs), then runs the compiled server (apps/server/dist/main.js) in this
// very process. package.json starts it with `exec`, so npm's child is this process: a SIGTERM or
// SIGINT sent to npm reaches the server, which drains and exits, and npm exits with it. (A second
// process here would be one more layer a signal can stop at.)
import { ensureBuilt } from './build.mjs';

// The console is left alone when WEB_DIST_DIR points at a build made elsewhere.
const targets = process.env.WEB_DIST_DIR ? ['server'] : ['server', 'web'];
try {
  await ensureBuilt(targets);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const { runServer } = await import('../apps/server/dist/main.js');
await runServer();
