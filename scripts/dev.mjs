// `npm run dev`: the API server (port 8080) and Vite with hot reload (port 5173, proxying /v1).
// Both run from the sources: the server through tsx, the workspace packages through their
// `vrtc-source` export condition (decision 019), so nothing needs building first.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const children = [
  spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=vrtc-source', '--watch', 'apps/server/src/main.ts'],
    { cwd: root, stdio: 'inherit' },
  ),
  spawn('npm', ['run', 'dev', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', () => stop());
