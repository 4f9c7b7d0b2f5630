// `npm start`: builds the console when its build is missing or older than its sources, then runs
// the server in this very process. package.json starts it with `exec`, so npm's child is this
// process: a SIGTERM or SIGINT sent to npm reaches the server, which drains and exits, and npm
// exits with it. (A second process here would be one more layer a signal can stop at.)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { register } from 'tsx/esm/api';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'apps/web');

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    0,
    ...fs.readdirSync(target).map((entry) => newestMtime(path.join(target, entry))),
  );
}

/** The console's build, unless WEB_DIST_DIR points at one made elsewhere. */
function ensureConsoleBuilt() {
  if (process.env.WEB_DIST_DIR) return;
  const builtIndex = path.join(webDir, 'dist/index.html');
  const sources = ['src', 'index.html', 'vite.config.ts', 'public'].map((p) =>
    path.join(webDir, p),
  );
  const contract = path.join(root, 'packages/contract/src');
  const sourceTime = Math.max(...sources.map(newestMtime), newestMtime(contract));
  if (fs.existsSync(builtIndex) && fs.statSync(builtIndex).mtimeMs >= sourceTime) return;
  console.log('Building the web console…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    stdio: 'inherit',
    cwd: root,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

ensureConsoleBuilt();
register();
const { runServer } = await import('../apps/server/src/main.ts');
await runServer();
