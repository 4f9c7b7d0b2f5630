import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { sql } from 'kysely';
import * as tar from 'tar';
import { openDatabase, type Db } from '../database/db.ts';
import { ownerOnlyFiles, prepareDataDir } from '../config/data-dir.ts';
import { BackupError, requestSnapshot, runningServer } from './backup-socket.ts';

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

const MANIFEST = 'vrtc-backup.json';
const DATABASE_ENTRY = 'pglite.tar.gz';
const SECRET_ENTRY = 'signing-secret';
const BUILDS_DIR = 'builds';
const FORMAT = 'vrtc-backup';
const FORMAT_VERSION = 1;

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
    const tarball = await takeSnapshot(dataDir, pid);
    const files = stageFiles(dataDir, staging);
    const described = await stageDatabase(staging, tarball);

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

/** The database's snapshot: asked of the running server, or taken from the stopped directory. */
async function takeSnapshot(dataDir: string, pid: number | undefined): Promise<Uint8Array> {
  if (pid !== undefined) return requestSnapshot(dataDir);
  const database = await openDatabase({ pgliteDir: dataDir });
  try {
    return await database.snapshotPglite!();
  } finally {
    await database.close();
  }
}

/**
 * The builds as they are now (a build uploaded meanwhile replaces the file by a rename, which
 * leaves these links alone), and the secret, linked into the staging directory.
 */
function stageFiles(dataDir: string, staging: string): string[] {
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
  return files;
}

/**
 * Opens the snapshot (in memory) before anything is written: a backup that cannot be read back is
 * refused now, not found out at restore time. Then stages it compressed.
 */
async function stageDatabase(
  staging: string,
  tarball: Uint8Array,
): Promise<Pick<Manifest, 'migrations' | 'counts'>> {
  const rawTar = path.join(staging, 'pglite.tar');
  fs.writeFileSync(rawTar, tarball);
  const copy = await openDatabase({ pgliteSnapshotPath: rawTar });
  try {
    const described = await describeDatabase(copy.db);
    fs.writeFileSync(path.join(staging, DATABASE_ENTRY), zlib.gzipSync(tarball));
    return described;
  } finally {
    await copy.close();
    fs.rmSync(rawTar, { force: true });
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
  const source = path.resolve(file);
  refuseUnsafeRestore(config, source, options);
  const { dataDir } = config;

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

    const replacedInto = moveAside(dataDir);

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

/** A restore that would lose data or meet a running server is refused before anything moves. */
function refuseUnsafeRestore(
  config: { dataDir: string; databaseUrl?: string },
  source: string,
  options: { force?: boolean },
): void {
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: restore PostgreSQL with pg_restore (docs/operations.md); ' +
        '`npm run restore` is for the embedded database.',
    );
  }
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
}

/** What a forced restore replaces goes to DATA_DIR/replaced-<time>/, never deleted. */
function moveAside(dataDir: string): string | undefined {
  const present = ['pglite', BUILDS_DIR, SECRET_ENTRY].filter((name) =>
    fs.existsSync(path.join(dataDir, name)),
  );
  if (present.length === 0) return undefined;
  const replacedInto = path.join(
    dataDir,
    `replaced-${new Date().toISOString().replace(/:/g, '-')}`,
  );
  fs.mkdirSync(replacedInto);
  for (const name of present) {
    fs.renameSync(path.join(dataDir, name), path.join(replacedInto, name));
  }
  return replacedInto;
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
