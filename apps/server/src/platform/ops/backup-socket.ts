import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../database/db.ts';

/**
 * The backup's way into a running server (backup.ts): while a server runs on DATA_DIR it holds the
 * data directory (server.lock), so `npm run backup` asks it for a snapshot over a Unix socket in
 * DATA_DIR that only its own user can open.
 */
export const BACKUP_SOCKET_NAME = 'backup.sock';
/** A socket path longer than this does not fit sockaddr_un on Linux (108 bytes with the NUL). */
const MAX_SOCKET_PATH = 100;

/** What `npm run backup` and `npm run restore` answer when they refuse, in words for the operator. */
export class BackupError extends Error {}

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
export function requestSnapshot(dataDir: string): Promise<Buffer> {
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
export function runningServer(dataDir: string): number | undefined {
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
