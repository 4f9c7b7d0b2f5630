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

/**
 * Makes sure DATA_DIR exists and is writable (the embedded database, uploaded builds and the
 * signing secret live there), or throws one message that names the directory, says what is wrong
 * and what to do: better at start than as an opaque error on the first upload.
 */
export function prepareDataDir(dir: string): void {
  const probe = path.join(dir, `.write-test-${process.pid}`);
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(probe, '');
    fs.rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = REASONS[code] ?? (error as Error).message;
    throw new Error(
      `DATA_DIR ${dir} cannot be used: ${reason} (${code || 'error'}). Create the directory and ` +
        'let the server’s user write to it, or set DATA_DIR to a directory that it can write.',
      { cause: error },
    );
  }
}
