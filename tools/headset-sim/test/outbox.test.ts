import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox, type OutboxEntry } from '../src/outbox.ts';
import { isRetryableStatus, parseRetryAfter, retryDelayMs } from '../src/retry.ts';

const SESSION_ID = '00000000-0000-4000-8000-0000000000a1';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempFile() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-outbox-'));
  dirs.push(dir);
  return path.join(dir, 'state', 'outbox-device.jsonl');
}

const progress = (n: number, key = `00000000-0000-4000-8000-00000000000${n}`): OutboxEntry => ({
  key,
  route: 'progress',
  session_id: SESSION_ID,
  body: { completed_tasks: n, task: { number: n, key: `task-${n}`, result: 'passed' } },
});

describe('the outbox', () => {
  it('keeps reports on disk in the order they were made, with their keys, across reopening', () => {
    const file = tempFile();
    const first = Outbox.open(file);
    const entries = [progress(1), progress(2), progress(3)];
    for (const entry of entries) first.add(entry);
    // No close: what a killed process leaves behind is what the next one reads.
    const again = Outbox.open(file);
    expect(again.pending()).toEqual(entries);
    expect(again.first()).toEqual(entries[0]);
    expect(again.size).toBe(3);
    first.close();
    again.close();
  });

  it('forgets delivered reports, and empties its file once nothing is left', () => {
    const file = tempFile();
    const outbox = Outbox.open(file);
    outbox.add(progress(1));
    outbox.add(progress(2));
    outbox.remove(progress(1).key);
    expect(Outbox.open(file).pending()).toEqual([progress(2)]);
    outbox.remove(progress(2).key);
    expect(fs.statSync(file).size).toBe(0);
    outbox.add(progress(3));
    expect(Outbox.open(file).pending()).toEqual([progress(3)]);
    outbox.close();
  });

  it('refuses a report once closed, rather than seem to keep it', () => {
    const file = tempFile();
    const outbox = Outbox.open(file);
    outbox.close();
    expect(() => outbox.add(progress(1))).toThrow(/is closed/);
    expect(Outbox.open(file).size).toBe(0);
  });

  it('refuses a second report under a key it already holds', () => {
    const outbox = Outbox.open();
    outbox.add(progress(1));
    expect(() => outbox.add(progress(1))).toThrow(/already holds/);
    expect(outbox.size).toBe(1);
  });

  it('ignores a last line cut short by a crash, and goes on writing after it', () => {
    const file = tempFile();
    const outbox = Outbox.open(file);
    outbox.add(progress(1));
    outbox.close();
    fs.appendFileSync(file, '{"add":{"key":"00000000-0000-4000-8000-000000000002","rou');
    const reopened = Outbox.open(file);
    expect(reopened.pending()).toEqual([progress(1)]);
    reopened.add(progress(3));
    reopened.close();
    expect(Outbox.open(file).pending()).toEqual([progress(1), progress(3)]);
  });

  it('lives in memory without a file', () => {
    const outbox = Outbox.open();
    outbox.add(progress(1));
    expect(outbox.file).toBeUndefined();
    expect(Outbox.open().size).toBe(0);
  });
});

describe('retries', () => {
  it('retries network trouble, 408, 429 and 5xx; every other 4xx is final', () => {
    expect([408, 429, 500, 502, 503, 504].map(isRetryableStatus)).toEqual(Array(6).fill(true));
    expect([400, 401, 403, 404, 409, 413, 422].map(isRetryableStatus)).toEqual(
      Array(7).fill(false),
    );
  });

  it('waits what Retry-After says, in seconds or as a date', () => {
    const now = Date.parse('2026-11-25T10:00:00.000Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    const policy = { baseMs: 100, maxMs: 1000 };
    expect(retryDelayMs(1, policy, () => 0.5, 3000)).toBe(3000);
  });

  it('backs off exponentially with full jitter, capped', () => {
    const policy = { baseMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5, 10].map((n) => retryDelayMs(n, policy, () => 0.999999))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(retryDelayMs(4, policy, () => 0)).toBe(0);
    expect(retryDelayMs(4, policy, () => 0.5)).toBe(400);
  });
});
