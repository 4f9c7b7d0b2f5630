import fs from 'node:fs';
import path from 'node:path';
import type { FinishBody, ProgressBody } from '@vrtc/contract';

/**
 * The headset's outbox: every report (progress, finish) it has made and the server has not yet
 * answered, in the order it made them (docs/headset-protocol.md). A report is written here before
 * anything is sent, with the Idempotency-Key it keeps for every retry, so a headset that loses
 * the network, or is killed, sends each report later exactly as it made it, under the same key.
 *
 * On disk it is one append-only file of JSON lines, each line either a report (`add`) or the key
 * of one that left the outbox (`done`), and each line is flushed to the disk (fsync) before the
 * call returns: a report the headset was told of survives a crash. A last line cut short by a
 * crash mid-write is ignored. When nothing is left the file is emptied, so it never grows past
 * what is pending plus what was delivered since it was last empty. Without a file it lives in
 * memory only (a simulator that needs no durability, e.g. in tests).
 */

export type ReportRoute = 'progress' | 'finish';

export interface OutboxEntry {
  /** Idempotency-Key (UUID), made once when the report is made. */
  key: string;
  route: ReportRoute;
  session_id: string;
  /** The body exactly as every attempt sends it (with its seq and occurred_at). */
  body: ProgressBody | FinishBody;
}

type Line = { add: OutboxEntry } | { done: string };

function isEntry(value: unknown): value is OutboxEntry {
  const entry = value as Partial<OutboxEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.key === 'string' &&
    (entry.route === 'progress' || entry.route === 'finish') &&
    typeof entry.session_id === 'string' &&
    typeof entry.body === 'object' &&
    entry.body !== null
  );
}

export class Outbox {
  private readonly entries = new Map<string, OutboxEntry>();
  private fd: number | undefined;

  private constructor(readonly file: string | undefined) {}

  /** Opens (creating when missing) the outbox kept in `file`; without a file, one in memory. */
  static open(file?: string): Outbox {
    const outbox = new Outbox(file);
    if (file) outbox.load(file);
    return outbox;
  }

  private load(file: string): void {
    const dir = path.dirname(file);
    fs.mkdirSync(dir, { recursive: true });
    let text = '';
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    for (const raw of text.split('\n')) {
      if (!raw.trim()) continue;
      let line: Line;
      try {
        line = JSON.parse(raw) as Line;
      } catch {
        continue; // a line cut short by a crash while it was written: never acknowledged
      }
      if ('add' in line && isEntry(line.add)) this.entries.set(line.add.key, line.add);
      else if ('done' in line && typeof line.done === 'string') this.entries.delete(line.done);
    }
    const existed = text.length > 0;
    this.fd = fs.openSync(file, 'a', 0o600);
    // What follows a torn line starts on a line of its own.
    if (existed && !text.endsWith('\n')) this.write('\n');
    if (!existed) syncDirectory(dir); // the file's name is durable too, not only its bytes
    if (this.entries.size === 0 && existed) this.empty();
  }

  /** The reports not yet delivered, oldest first. */
  pending(): OutboxEntry[] {
    return [...this.entries.values()];
  }

  get size(): number {
    return this.entries.size;
  }

  /** The oldest report not yet delivered. */
  first(): OutboxEntry | undefined {
    return this.entries.values().next().value;
  }

  /** Keeps `entry`; returns once it is on the disk. A key already held is refused. */
  add(entry: OutboxEntry): void {
    if (this.entries.has(entry.key)) throw new Error(`outbox already holds report ${entry.key}`);
    this.write(`${JSON.stringify({ add: entry } satisfies Line)}\n`);
    this.entries.set(entry.key, entry);
  }

  /** Takes the report out (delivered, or refused for good); returns once that is on the disk. */
  remove(key: string): void {
    if (!this.entries.has(key)) return;
    this.entries.delete(key);
    if (this.entries.size === 0) this.empty();
    else this.write(`${JSON.stringify({ done: key } satisfies Line)}\n`);
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
  }

  private write(text: string): void {
    if (this.file === undefined) return;
    // A closed outbox must not look as if it kept a report.
    if (this.fd === undefined) throw new Error(`outbox ${this.file} is closed`);
    fs.writeSync(this.fd, text);
    fs.fsyncSync(this.fd);
  }

  /** Nothing pending: the file starts over (appends on an `a` descriptor follow its new end). */
  private empty(): void {
    if (this.fd === undefined) return;
    fs.ftruncateSync(this.fd, 0);
    fs.fsyncSync(this.fd);
  }
}

function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the file's contents are still synced.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
