import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import * as tar from 'tar';
import { openDatabase, type DatabaseHandle, type Db } from '../database/db.ts';
import { ownerOnlyFiles, prepareDataDir } from '../config/data-dir.ts';

/**
 * Backups of the embedded database (PGlite) with what else lives in DATA_DIR: the uploaded app
 * builds and the generated signing secret (decision 004). A backup is a plain tar file:
 *
 *   vrtc-backup.json    what it holds: format, when, from where, migrations, row counts
 *   pglite.tar.gz       PGlite's data directory, dumped between transactions after a checkpoint
 *   signing-secret      DATA_DIR/signing-secret, when there is one
 *   builds/<p>.apk      the uploaded builds, as they were when the backup began
 *
 * While a server runs on DATA_DIR it holds the data directory (server.lock), so the snapshot is
 * asked of it over a Unix socket in DATA_DIR that only its own user can open. With no server
 * running, the backup opens the data directory itself (and holds its lock meanwhile).
 */

export const BACKUP_SOCKET_NAME = 'backup.sock';
const MANIFEST = 'vrtc-backup.json';
const DATABASE_ENTRY = 'pglite.tar.gz';
const SECRET_ENTRY = 'signing-secret';
const BUILDS_DIR = 'builds';
/** A socket path longer than this does not fit sockaddr_un on Linux (108 bytes with the NUL). */
const MAX_SOCKET_PATH = 100;
const FORMAT = 'vrtc-backup';
const FORMAT_VERSION = 1;

export class BackupError extends Error {}

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  created_at: string;
  database: 'pglite';
  /** "running server (pid N)" or "stopped data directory". */
  taken_from: string;
  migrations: string[];
  counts: Record<string, number>;
  files: string[];
  /** Each file's modification time to the millisecond (a tar keeps whole seconds): a build's
   * upload time is shown in the console. */
  modified: Record<string, string>;
}

const socketPathOf = (dataDir: string) => path.join(dataDir, BACKUP_SOCKET_NAME);

// ——— in the server process ———

export interface BackupSocket {
  close(): Promise<void>;
}

/**
 * Serves consistent snapshots of the running server's embedded database on DATA_DIR/backup.sock
 * (mode 0600: the server's user, and root, only). One request per connection: a line
 * `{"op":"snapshot"}`, answered by a line `{"ok":true,"bytes":N}` and N bytes of tar, or
 * `{"ok":false,"message":…}`. Statements wait while the data directory is dumped.
 */
export async function startBackupSocket(
  database: DatabaseHandle,
  dataDir: string,
  log: FastifyBaseLogger,
): Promise<BackupSocket | undefined> {
  const snapshot = database.snapshotPglite;
  if (!snapshot) return undefined;
  const socketPath = socketPathOf(dataDir);
  if (socketPath.length > MAX_SOCKET_PATH) {
    log.warn(
      `no backup socket: ${socketPath} is longer than a Unix socket path may be; ` +
        '`npm run backup` works only while the server is stopped (use a shorter DATA_DIR)',
    );
    return undefined;
  }
  // This process holds the data directory's lock: a socket file here is a dead server's.
  fs.rmSync(socketPath, { force: true });
  // allowHalfOpen: the client ends its side after the request; the answer still has to go back.
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    let request = '';
    socket.setEncoding('utf8');
    socket.on('error', () => {}); // a client that went away
    socket.on('data', (chunk: string) => {
      request += chunk;
      if (!request.includes('\n')) {
        if (request.length > 1024) socket.destroy();
        return;
      }
      socket.removeAllListeners('data');
      const op = parseOp(request.slice(0, request.indexOf('\n')));
      if (op !== 'snapshot') {
        socket.end(`${JSON.stringify({ ok: false, message: 'unknown request' })}\n`);
        return;
      }
      const started = Date.now();
      snapshot().then(
        (tarball) => {
          socket.write(`${JSON.stringify({ ok: true, bytes: tarball.length })}\n`);
          socket.end(tarball);
          log.info(
            `backup: served a snapshot of the embedded database (${tarball.length} bytes, ${Date.now() - started} ms)`,
          );
        },
        (error: unknown) => {
          log.error({ err: error }, 'backup: could not snapshot the embedded database');
          socket.end(`${JSON.stringify({ ok: false, message: (error as Error).message })}\n`);
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  fs.chmodSync(socketPath, 0o600);
  server.unref();
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

function parseOp(line: string): string | undefined {
  try {
    const parsed = JSON.parse(line) as { op?: unknown };
    return typeof parsed.op === 'string' ? parsed.op : undefined;
  } catch {
    return undefined;
  }
}

// ——— in the backup command ———

/** Asks the server running on `dataDir` for a snapshot of its database. */
function requestSnapshot(dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPathOf(dataDir));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        new BackupError(
          `A server is running on ${dataDir}, but its backup socket does not answer ` +
            `(${error.code ?? error.message}). Stop the server and run the backup again, ` +
            'or restart it so that it opens the socket.',
        ),
      );
    });
    socket.on('end', () => {
      const data = Buffer.concat(chunks);
      const newline = data.indexOf(0x0a);
      const header = newline < 0 ? undefined : parseHeader(data.subarray(0, newline).toString());
      if (!header) return reject(new BackupError('The server sent an unreadable answer'));
      if (!header.ok) {
        return reject(new BackupError(`The server could not take a snapshot: ${header.message}`));
      }
      const tarball = data.subarray(newline + 1);
      if (tarball.length !== header.bytes) {
        return reject(
          new BackupError(
            `The snapshot was cut short (${tarball.length} of ${header.bytes} bytes)`,
          ),
        );
      }
      resolve(tarball);
    });
    socket.end(`${JSON.stringify({ op: 'snapshot' })}\n`);
  });
}

function parseHeader(line: string): { ok: boolean; bytes?: number; message?: string } | undefined {
  try {
    return JSON.parse(line) as { ok: boolean; bytes?: number; message?: string };
  } catch {
    return undefined;
  }
}

/** The pid of the live server holding `dataDir`, if any (its lock file names it). */
function runningServer(dataDir: string): number | undefined {
  let holder: number;
  try {
    holder = Number(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(holder) || holder <= 0) return undefined;
  try {
    process.kill(holder, 0);
    return holder;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? holder : undefined;
  }
}

const hasDatabase = (dataDir: string) => fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'));

/** Counts worth comparing after a restore (what the guide tells to check). */
async function describeDatabase(db: Db): Promise<Pick<Manifest, 'migrations' | 'counts'>> {
  const { rows: migrations } = await sql<{ version: string }>`
    SELECT version FROM schema_migrations ORDER BY version`.execute(db);
  const { rows } = await sql<Record<string, number>>`
    SELECT (SELECT count(*)::int FROM organizations) AS organizations,
           (SELECT count(*)::int FROM accounts) AS accounts,
           (SELECT count(*)::int FROM vr_users) AS vr_users,
           (SELECT count(*)::int FROM devices) AS devices,
           (SELECT count(*)::int FROM sessions) AS sessions`.execute(db);
  return { migrations: migrations.map((row) => row.version), counts: rows[0] ?? {} };
}

/** A hard link (the file as it is now, even if replaced later), or a copy across file systems. */
function linkOrCopy(from: string, to: string) {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.copyFileSync(from, to);
  }
}

export interface BackupResult {
  file: string;
  manifest: Manifest;
  bytes: number;
}

/**
 * `npm run backup -- FILE`: writes a backup of DATA_DIR's embedded database, builds and signing
 * secret to FILE (never over an existing file; written under another name and renamed at the
 * end, so FILE is complete or absent). Refuses on PostgreSQL, where pg_dump is the tool.
 */
export async function createBackup(
  config: { dataDir: string; databaseUrl?: string },
  file: string,
): Promise<BackupResult> {
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: this server keeps its data in PostgreSQL. Back it up with pg_dump ' +
        '(docs/operations.md, "Backups on PostgreSQL"); `npm run backup` is for the embedded database.',
    );
  }
  const target = path.resolve(file);
  if (fs.existsSync(target)) {
    throw new BackupError(`${target} exists already; choose a new file name for the backup`);
  }
  const { dataDir } = config;
  if (!hasDatabase(dataDir)) {
    throw new BackupError(`There is no embedded database in ${dataDir} (DATA_DIR) to back up`);
  }

  // The backup holds password hashes and the signing secret: nothing of it readable by others.
  ownerOnlyFiles();
  const staging = fs.mkdtempSync(path.join(dataDir, '.backup-'));
  const partial = `${target}.partial-${process.pid}`;
  try {
    const pid = runningServer(dataDir);
    let tarball: Uint8Array;
    if (pid !== undefined) {
      tarball = await requestSnapshot(dataDir);
    } else {
      const database = await openDatabase({ pgliteDir: dataDir });
      try {
        tarball = await database.snapshotPglite!();
      } finally {
        await database.close();
      }
    }
    // The builds as they are now (a build uploaded meanwhile replaces the file by a rename, which
    // leaves these links alone), and the secret.
    const files: string[] = [];
    const secret = path.join(dataDir, SECRET_ENTRY);
    if (fs.existsSync(secret)) {
      linkOrCopy(secret, path.join(staging, SECRET_ENTRY));
      files.push(SECRET_ENTRY);
    }
    const builds = path.join(dataDir, BUILDS_DIR);
    if (fs.existsSync(builds)) {
      for (const name of fs
        .readdirSync(builds)
        .filter((n) => n.endsWith('.apk'))
        .sort()) {
        linkOrCopy(path.join(builds, name), path.join(staging, BUILDS_DIR, name));
        files.push(`${BUILDS_DIR}/${name}`);
      }
    }

    // Open the snapshot (in memory) before anything is written: a backup that cannot be read
    // back is refused now, not found out at restore time.
    const rawTar = path.join(staging, 'pglite.tar');
    fs.writeFileSync(rawTar, tarball);
    const copy = await openDatabase({ pgliteSnapshotPath: rawTar });
    let described: Pick<Manifest, 'migrations' | 'counts'>;
    try {
      described = await describeDatabase(copy.db);
    } finally {
      await copy.close();
    }
    fs.writeFileSync(path.join(staging, DATABASE_ENTRY), zlib.gzipSync(tarball));
    fs.rmSync(rawTar);

    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      created_at: new Date().toISOString(),
      database: 'pglite',
      taken_from: pid !== undefined ? `running server (pid ${pid})` : 'stopped data directory',
      ...described,
      files,
      modified: Object.fromEntries(
        files.map((entry) => [entry, fs.statSync(path.join(staging, entry)).mtime.toISOString()]),
      ),
    };
    fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    await tar.create({ file: partial, cwd: staging, portable: true }, [
      MANIFEST,
      DATABASE_ENTRY,
      ...files,
    ]);
    // It holds password hashes and the signing secret: for the server's user only.
    fs.chmodSync(partial, 0o600);
    fs.renameSync(partial, target);
    return { file: target, manifest, bytes: fs.statSync(target).size };
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

export interface RestoreResult {
  manifest: Manifest;
  /** Row counts read from the restored database. */
  counts: Record<string, number>;
  /** Where the data the restore replaced went (with --force), if there was any. */
  replacedInto?: string;
}

/**
 * `npm run restore -- FILE [--force]`: puts a backup into DATA_DIR. The server must be stopped
 * (its lock is checked). A DATA_DIR that already holds a database is refused unless `force`; then
 * the database, builds and secret found there are moved aside into DATA_DIR/replaced-<time>/,
 * never deleted. The restored database is opened and counted before the command succeeds; the
 * next server start applies any migration the backup predates.
 */
export async function restoreBackup(
  config: { dataDir: string; databaseUrl?: string },
  file: string,
  options: { force?: boolean } = {},
): Promise<RestoreResult> {
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/operations.md); ' +
        '`npm run restore` is for the embedded database.',
    );
  }
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new BackupError(`No backup at ${source}`);
  const { dataDir } = config;
  const pid = runningServer(dataDir);
  if (pid !== undefined) {
    throw new BackupError(
      `A server (pid ${pid}) is running on ${dataDir}. Stop it first (e.g. systemctl stop ` +
        'vrtc), restore, then start it again.',
    );
  }
  if (hasDatabase(dataDir) && !options.force) {
    throw new BackupError(
      `${dataDir} (DATA_DIR) already holds a database. Restore into an empty DATA_DIR, or add ` +
        '--force to move what is there into DATA_DIR/replaced-<time>/ first.',
    );
  }

  // What is restored is as private as what the server writes (0700 / 0600, whatever the umask).
  prepareDataDir(dataDir);
  const staging = fs.mkdtempSync(path.join(dataDir, '.restore-'));
  try {
    await tar.extract({
      file: source,
      cwd: staging,
      strict: true,
      // Only what a backup holds, as plain files: nothing can land outside the staging directory.
      filter: (entry, stat) =>
        'type' in stat && stat.type === 'File' && isBackupEntry(entry.replace(/^\.\//, '')),
    });
    const manifest = readManifest(staging);
    const databaseTar = path.join(staging, 'pglite.tar');
    await pipeline(
      fs.createReadStream(path.join(staging, DATABASE_ENTRY)),
      zlib.createGunzip(),
      fs.createWriteStream(databaseTar),
    );

    let replacedInto: string | undefined;
    const present = ['pglite', BUILDS_DIR, SECRET_ENTRY].filter((name) =>
      fs.existsSync(path.join(dataDir, name)),
    );
    if (present.length > 0) {
      replacedInto = path.join(dataDir, `replaced-${new Date().toISOString().replace(/:/g, '-')}`);
      fs.mkdirSync(replacedInto);
      for (const name of present) {
        fs.renameSync(path.join(dataDir, name), path.join(replacedInto, name));
      }
    }

    // Loads the dump into DATA_DIR/pglite (PGlite refuses if a database is there).
    const database = await openDatabase({ pgliteDir: dataDir, pgliteSnapshotPath: databaseTar });
    let counts: Record<string, number>;
    try {
      counts = (await describeDatabase(database.db)).counts;
    } finally {
      await database.close();
    }
    for (const entry of manifest.files) {
      const to = path.join(dataDir, entry);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.renameSync(path.join(staging, entry), to);
      if (entry === SECRET_ENTRY) fs.chmodSync(to, 0o600);
      const modified = manifest.modified?.[entry];
      if (modified) fs.utimesSync(to, new Date(modified), new Date(modified));
    }
    return { manifest, counts, ...(replacedInto ? { replacedInto } : {}) };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function isBackupEntry(name: string): boolean {
  return (
    name === MANIFEST ||
    name === DATABASE_ENTRY ||
    name === SECRET_ENTRY ||
    /^builds\/[\w.-]+\.apk$/.test(name)
  );
}

function readManifest(staging: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(staging, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw new BackupError('This file is not a backup made by `npm run backup` (no manifest)');
  }
  if (manifest.format !== FORMAT || manifest.version !== FORMAT_VERSION) {
    throw new BackupError(
      `Unknown backup format ${String(manifest.format)} ${String(manifest.version)}`,
    );
  }
  if (!fs.existsSync(path.join(staging, DATABASE_ENTRY))) {
    throw new BackupError('The backup holds no database');
  }
  for (const entry of manifest.files) {
    if (!isBackupEntry(entry) || !fs.existsSync(path.join(staging, entry))) {
      throw new BackupError(`The backup lacks ${entry}, which its manifest lists`);
    }
  }
  return manifest;
}
