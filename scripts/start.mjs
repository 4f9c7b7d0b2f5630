// `npm start`: builds the console when its build is missing or older than its sources, then runs
// the server in the foreground (signals are passed on, so Ctrl+C closes it cleanly).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const webDir = path.join(root, 'apps/web');
const builtIndex = path.join(webDir, 'dist/index.html');

function newestMtime(target) {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    0,
    ...fs.readdirSync(target).map((entry) => newestMtime(path.join(target, entry))),
  );
}

const sources = ['src', 'index.html', 'vite.config.ts', 'public'].map((p) => path.join(webDir, p));
const contract = path.join(root, 'packages/contract/src');
const sourceTime = Math.max(...sources.map(newestMtime), newestMtime(contract));
if (!fs.existsSync(builtIndex) || fs.statSync(builtIndex).mtimeMs < sourceTime) {
  console.log('Building the web console…');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], {
    stdio: 'inherit',
    cwd: root,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: root },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
