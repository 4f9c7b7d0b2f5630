// The Unity SDK's tests (sdk/unity/Tests) under Mono, against the real server built from this
// repository: `npm test`'s "sdk" suite, or `node scripts/sdk-test.mjs [test name filter …]`.
//
// Compiles the SDK's core and tests with `mcs -langversion:7.2` (the compiler the issue names; the
// console sample is compiled too, so it cannot rot), and the Unity layer (Runtime/Unity, Editor,
// the Unity sample) against scripts/unity-stubs/UnityStubs.cs with UNITY_5_3_OR_NEWER defined, so
// it cannot stop compiling unseen. The tests run on a main thread whose SynchronizationContext is
// not pumped while a test blocks, as in Unity's Test Runner (Tests/Runner/TestRunner.cs). Starts the compiled server (PGlite in a
// temporary DATA_DIR; then PostgreSQL in a database of its own when TEST_DATABASE_URL is set),
// seeds what a test needs through the API as the first admin (a scenario with a 3-task level and
// an option, granted to the admin's organisation), and runs the test program with:
//   SERVER_URL, STAFF_TOKEN, LEVEL_ID, OPTION_ID, HEARTBEAT_INTERVAL_MS
//   PACKAGE_KEY: the key of a SCORM package exported for that level (the LMS launch tests)
//   CONTROL_URL: POST /stop and /start stop the server process and start it again on the same
//   port and database (the "server went away mid-session" tests).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import pg from 'pg';
import { ensureBuilt } from './build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const sdk = path.join(root, 'sdk/unity');
const filters = process.argv.slice(2);
const HEARTBEAT_INTERVAL_MS = 200;
const ADMIN = { email: 'sdk-admin@example.com', password: 'sdk-test-password' };

function fail(message) {
  console.error(message);
  process.exit(1);
}

// Mono first: without it nothing below can run, and the fix is one command.
for (const tool of ['mcs', 'mono']) {
  if (spawnSync(tool, ['--version']).error) {
    fail(
      `The Unity SDK tests need Mono (\`${tool}\` is missing). Install it with:\n` +
        '  apt-get install -y mono-devel',
    );
  }
}

/** Every .cs file under the given folders of the package (Unity-only files compile to nothing). */
function sources(...folders) {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.cs')) found.push(full);
    }
  };
  for (const folder of folders) walk(path.join(sdk, folder));
  return found.sort();
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-sdk-'));
function compile(out, files, target, defines = [], references = []) {
  const run = spawnSync(
    'mcs',
    [
      '-langversion:7.2',
      `-target:${target}`,
      `-out:${out}`,
      '-r:System.Net.Http.dll',
      '-warnaserror+',
      ...defines.map((name) => `-define:${name}`),
      ...references.map((reference) => `-r:${reference}`),
      ...files,
    ],
    { encoding: 'utf8' },
  );
  if (run.status !== 0) fail(`mcs failed for ${path.basename(out)}:\n${run.stdout}${run.stderr}`);
}
// Two assemblies, as Unity's asmdefs make them: the tests see only what the SDK makes public.
const runtimeDll = path.join(work, 'Vrtc.Headset.dll');
compile(runtimeDll, sources('Runtime'), 'library');
const testsExe = path.join(work, 'Vrtc.Headset.Tests.exe');
compile(testsExe, sources('Tests'), 'exe', [], [runtimeDll]);
compile(
  path.join(work, 'ConsoleHeadset.exe'),
  [...sources('Runtime'), ...sources('Samples~/ConsoleHeadset')],
  'exe',
);
compile(
  path.join(work, 'Vrtc.Headset.Unity.dll'),
  [
    path.join(root, 'scripts/unity-stubs/UnityStubs.cs'),
    ...sources('Runtime', 'Editor', 'Samples~/UnityPlayer'),
  ],
  'library',
  ['UNITY_5_3_OR_NEWER', 'UNITY_EDITOR'],
);
console.log(
  'compiled the SDK, its tests, the console sample and the Unity layer (against Unity stubs) with mcs -langversion:7.2',
);

await ensureBuilt(['server']);
const serverEntry = path.join(root, 'apps/server/dist/main.js');

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** The compiled server, as docs/operations.md runs it; resolves once it listens. */
const running = new Set();
function startServer(env) {
  const startedAt = Date.now();
  const child = spawn(process.execPath, [serverEntry], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  running.add(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  void exited.then(() => running.delete(child));
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      if (/Server listening at http:\/\//.test(output)) {
        child.stdout.removeListener('data', onData);
        child.stderr.removeListener('data', onData);
        child.stdout.resume();
        child.stderr.resume();
        const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
        resolve({ child, exited, output: () => output, seconds });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) =>
      reject(new Error(`server exited (${code}) before listening:\n${output}`)),
    );
  });
}

async function stopServer(server) {
  if (server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGTERM');
  await server.exited;
}

// Every server process this run started is gone when it ends, whatever happened (a test that gave
// up while the control endpoint was still starting one).
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

async function api(base, method, route, body, token) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** An organisation's staff view: the admin's own organisation, a granted 3-task level with an option. */
async function seed(base) {
  const login = await api(base, 'POST', '/v1/auth/login', ADMIN);
  const token = login.token;
  const scenario = await api(
    base,
    'POST',
    '/v1/admin/scenarios',
    { name: 'Пожарная безопасность' },
    token,
  );
  const module = await api(
    base,
    'POST',
    `/v1/admin/scenarios/${scenario.id}/modules`,
    { name: 'Модуль 1' },
    token,
  );
  const level = await api(
    base,
    'POST',
    `/v1/admin/modules/${module.id}/levels`,
    { name: 'Уровень 2', level_number: 2, max_tasks: 3 },
    token,
  );
  const option = await api(
    base,
    'POST',
    `/v1/admin/levels/${level.id}/options`,
    { name: 'Ночь', order_index: 0 },
    token,
  );
  const nextYear = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
  await api(
    base,
    'POST',
    `/v1/admin/scenarios/${scenario.id}/grant`,
    { organization_ids: [login.organization_id], expires_at: nextYear },
    token,
  );
  return {
    STAFF_TOKEN: token,
    LEVEL_ID: level.id,
    OPTION_ID: option.id,
    PACKAGE_KEY: await exportedPackageKey(base, level.id, token),
  };
}

/** The key of a SCORM package exported for the level, read from the package as an LMS would. */
async function exportedPackageKey(base, levelId, token) {
  const route = `/v1/lms/packages?level_id=${levelId}&scorm_version=1.2`;
  const response = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`POST ${route}: ${response.status} ${await response.text()}`);
  const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
  const config = strFromU8(files['config.js']);
  const key = /"packageKey": "([^"]+)"/.exec(config)?.[1];
  if (!key) throw new Error(`no package key in the exported config.js:\n${config}`);
  return key;
}

/** One run of the test program against a server on `database` ('' = PGlite in its DATA_DIR). */
async function runAgainst(label, databaseUrl) {
  const dataDir = fs.mkdtempSync(path.join(work, 'data-'));
  const port = await freePort();
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    WEB_DIST_DIR: '/nonexistent',
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_INTERVAL_MS),
    LAST_SEEN_FLUSH_MS: '100',
  };
  const base = `http://127.0.0.1:${port}`;
  let server = await startServer(env);
  // The control endpoint: the tests stop and restart the server through it.
  let pending = Promise.resolve();
  const control = http.createServer((request, response) => {
    const answer = (status, text) => response.writeHead(status).end(text);
    const startedAt = Date.now();
    const action =
      request.url === '/stop'
        ? stopServer(server)
        : request.url === '/start'
          ? startServer(env).then((started) => void (server = started))
          : Promise.reject(new Error(`unknown control ${request.url}`));
    pending = action.catch(() => undefined);
    action.then(
      () => {
        const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
        console.log(`(harness: server ${request.url.slice(1)} took ${seconds} s)`);
        answer(200, 'ok');
      },
      (error) => answer(500, String(error)),
    );
  });
  await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));
  try {
    const seeded = await seed(base);
    console.log(`\n--- Unity SDK tests against the server on ${label} ---`);
    const tests = spawn('mono', ['--debug', testsExe, ...filters], {
      stdio: 'inherit',
      env: {
        ...process.env,
        ...seeded,
        SERVER_URL: base,
        CONTROL_URL: `http://127.0.0.1:${control.address().port}`,
        HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_INTERVAL_MS),
      },
    });
    const status = await new Promise((resolve) => tests.once('exit', (code) => resolve(code)));
    if (status !== 0) {
      const notable = server
        .output()
        .split('\n')
        .filter((line) => /"level":(40|50|60)/.test(line));
      console.log(`server warnings and errors:\n${notable.join('\n')}`);
    }
    return status === 0;
  } finally {
    control.close();
    await pending;
    await stopServer(server);
  }
}

let ok = false;
try {
  ok = await runAgainst('PGlite', '');
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (ok && serverUrl) {
    const name = `vrtc_sdk_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      ok = await runAgainst('PostgreSQL', url.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
