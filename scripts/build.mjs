// The production build (decision 019): the contract and the server compiled to JavaScript by tsc,
// the console bundled by Vite.
//
//   node scripts/build.mjs [contract|server|web …] [--if-stale] [--sizes]
//
// Without names it builds all three; with --if-stale only what is missing or older than its
// sources (what `npm start`, `npm run backup|restore` and the tests that start the compiled server
// use, through ensureBuilt()). Plain JavaScript, because it runs before anything is compiled.
//
// - contract: packages/contract/src → packages/contract/dist (tsc -b, with declarations: the
//   server's build reads the contract's types from there).
// - server: apps/server/src → apps/server/dist (tsc -b, `.ts` imports rewritten to `.js`), the
//   migrations copied beside the compiled migrate.js (dist/platform/database/migrations), the LMS
//   launch page beside scorm-package.js (dist/lms/launch-page). Built from a clean
//   dist/ each time, so nothing removed from src/ survives there.
// - web: `npm run build -w apps/web` → apps/web/dist; with --sizes Vite lists each chunk and its
//   gzip size (VRTC_BUILD_SIZES=1), otherwise it prints only warnings.
//
// Two processes asking at once (tests in parallel, two `npm start`) build once: a lock per target,
// and a second look at staleness once it is held.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const at = (...parts) => path.join(root, ...parts);
const tsc = at('node_modules/typescript/bin/tsc');
const BUILD_STAMP = '.build-stamp';

/** Newest modification time under `target` (a file or a directory), skipping what `skip` says. */
function newestMtime(target, skip = () => false) {
  if (!fs.existsSync(target) || skip(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    0,
    ...fs.readdirSync(target).map((entry) => newestMtime(path.join(target, entry), skip)),
  );
}

const isTest = (file) => /\.test\.tsx?$/.test(file);

const contractInputs = [
  at('packages/contract/src'),
  at('packages/contract/tsconfig.build.json'),
  at('tsconfig.base.json'),
];

export const TARGETS = {
  contract: {
    title: 'the contract (packages/contract/dist)',
    inputs: contractInputs,
    output: at('packages/contract/dist', BUILD_STAMP),
    async build() {
      fs.rmSync(at('packages/contract/dist'), { recursive: true, force: true });
      await run(process.execPath, [tsc, '-b', at('packages/contract/tsconfig.build.json')]);
    },
  },
  server: {
    title: 'the server (apps/server/dist)',
    needs: ['contract'],
    // The contract's sources too: the server's build checks its code against the contract's types.
    inputs: [at('apps/server/src'), at('apps/server/tsconfig.build.json'), ...contractInputs],
    output: at('apps/server/dist', BUILD_STAMP),
    async build() {
      const dist = at('apps/server/dist');
      fs.rmSync(dist, { recursive: true, force: true });
      await run(process.execPath, [tsc, '-b', at('apps/server/tsconfig.build.json')]);
      // migrate.ts reads the SQL files beside itself: src/platform/database/migrations from the sources,
      // dist/platform/database/migrations once compiled.
      fs.cpSync(
        at('apps/server/src/platform/database/migrations'),
        path.join(dist, 'platform/database/migrations'),
        {
          recursive: true,
          filter: (source) => source.endsWith('.sql') || fs.statSync(source).isDirectory(),
        },
      );
      // The embedded database's thread is plain JavaScript (pglite-worker.mjs says why).
      fs.copyFileSync(
        at('apps/server/src/platform/database/pglite-worker.mjs'),
        path.join(dist, 'platform/database/pglite-worker.mjs'),
      );
      // The LMS package's launch page (HTML, CSS, script) is read beside scorm-package.js: without
      // it a compiled server cannot export a SCORM package.
      fs.cpSync(at('apps/server/src/lms/launch-page'), path.join(dist, 'lms/launch-page'), {
        recursive: true,
      });
    },
  },
  web: {
    title: 'the console (apps/web/dist)',
    // The console bundles the contract from its sources (the `vrtc-source` condition).
    inputs: [
      ...['src', 'index.html', 'vite.config.ts', 'public', 'scripts'].map((p) => at('apps/web', p)),
      at('packages/contract/src'),
      at('scripts/source-condition.ts'),
    ],
    // Vite writes index.html on every build: a build made by `npm run build -w apps/web` counts.
    output: at('apps/web/dist/index.html'),
    stampless: true,
    async build() {
      await run('npm', ['run', 'build', '-w', 'apps/web']);
    },
  },
};

/** True when `name`'s build is missing or older than one of its sources. */
export function isStale(name) {
  const target = TARGETS[name];
  if (!fs.existsSync(target.output)) return true;
  const builtAt = fs.statSync(target.output).mtimeMs;
  const sourcesAt = Math.max(...target.inputs.map((input) => newestMtime(input, isTest)));
  return sourcesAt > builtAt;
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      // The build's output on stderr: `npm run backup` may build first, and its stdout is its report.
      stdio: ['ignore', 2, 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * Runs `fn` holding a lock shared by every process building this checkout's `name` (a directory
 * in the temporary folder, holding the owner's pid). A lock whose owner died is taken over.
 */
async function withLock(name, fn) {
  const checkout = crypto.createHash('sha256').update(root).digest('hex').slice(0, 12);
  const lock = path.join(os.tmpdir(), `vrtc-build-${checkout}-${name}.lock`);
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner = 0;
    try {
      owner = Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8'));
    } catch {
      // Just made, its pid not written yet; or gone already.
    }
    const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if ((owner && !alive(owner)) || (!owner && age > 10_000)) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    await sleep(250);
  }
  fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
  try {
    return await fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Builds `names` (and what they need first), each only when stale unless `force`. Resolves with
 * the names it built. Throws when a build fails, or when one is needed and TypeScript is not
 * installed (`npm ci --omit=dev`: build before, where the development dependencies are).
 */
export async function ensureBuilt(names, { force = false, log = console.log } = {}) {
  const order = [];
  const add = (name) => {
    if (!TARGETS[name]) throw new Error(`unknown build target "${name}"`);
    for (const need of TARGETS[name].needs ?? []) add(need);
    if (!order.includes(name)) order.push(name);
  };
  names.forEach(add);
  const built = [];
  for (const name of order) {
    const target = TARGETS[name];
    if (!force && !isStale(name)) continue;
    await withLock(name, async () => {
      // Someone else may have built it while this process waited for the lock.
      if (!force && !isStale(name)) return;
      if (name !== 'web' && !fs.existsSync(tsc)) {
        throw new Error(
          `${target.title} must be built, and TypeScript is not installed: run \`npm install\` ` +
            '(with development dependencies) and `npm run build`',
        );
      }
      log(`Building ${target.title}…`);
      const startedAt = new Date();
      await target.build();
      if (!target.stampless) {
        // Dated when the build started: a source saved during the build makes it stale again.
        fs.writeFileSync(target.output, `${startedAt.toISOString()}\n`);
        fs.utimesSync(target.output, startedAt, startedAt);
      }
      built.push(name);
    });
  }
  return built;
}

if (import.meta.url === pathToFileURL(fs.realpathSync(process.argv[1] ?? '')).href) {
  const args = process.argv.slice(2);
  const ifStale = args.includes('--if-stale');
  if (args.includes('--sizes')) process.env.VRTC_BUILD_SIZES = '1';
  const names = args.filter((arg) => !arg.startsWith('--'));
  try {
    // Messages on stderr: `npm run backup` builds first, and its stdout is the backup's report.
    await ensureBuilt(names.length > 0 ? names : Object.keys(TARGETS), {
      force: !ifStale,
      log: console.error,
    });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
