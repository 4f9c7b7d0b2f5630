import fs from 'node:fs';
import path from 'node:path';

const REASONS: Record<string, string> = {
  ENOENT: 'a part of the path does not exist and cannot be created',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EACCES: 'the server’s user may not write there',
  EPERM: 'the server’s user may not write there',
  EROFS: 'it is on a read-only file system',
  ENOSPC: 'its disk is full',
  EDQUOT: 'its disk quota is used up',
};

/** Why DATA_DIR cannot be written, in words, from the error a write met. */
export function dataDirProblem(error: unknown): { code: string; reason: string } {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return { code: code || 'error', reason: REASONS[code] ?? (error as Error).message };
}

/**
 * From now on, everything this process creates is its owner's only (directories 0700, files
 * 0600), whatever umask it was started with: DATA_DIR holds password hashes (the embedded
 * database), the signing secret and the builds, and the usual umask 022 would let every local
 * user read them. The umask covers every file the process creates; PGlite, which also sets modes
 * of its own, is kept owner-only in its thread (pglite-worker.mjs).
 */
export function ownerOnlyFiles(): void {
  process.umask(0o077);
}

/**
 * Makes sure DATA_DIR exists, is its owner's only (0700) and is writable (the embedded database,
 * uploaded builds and the signing secret live there), or throws one message that names the
 * directory, says what is wrong and what to do: better at start than as an opaque error on the
 * first upload. Everything the process writes afterwards is owner-only (ownerOnlyFiles).
 */
export function prepareDataDir(dir: string): void {
  ownerOnlyFiles();
  const probe = path.join(dir, `.write-test-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    restrictToOwner(dir);
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    const { code, reason } = dataDirProblem(error);
    throw new Error(
      `DATA_DIR ${dir} cannot be used: ${reason} (${code}). Create the directory and ` +
        'let the server’s user write to it, or set DATA_DIR to a directory that it can write.',
      { cause: error },
    );
  }
}

/** chmod 0700; a directory the server's user does not own (but may write) is left as it is. */
function restrictToOwner(dir: string): void {
  try {
    fs.chmodSync(dir, 0o700);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}
