import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditKey, signingSecret } from './signing-secret.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrtc-secret-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('signingSecret', () => {
  it('prefers SIGNING_SECRET and then writes nothing', () => {
    const dataDir = tempDir();
    expect(signingSecret({ signingSecret: 'from-env', dataDir })).toBe('from-env');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('creates a private random secret in DATA_DIR once and reuses it', () => {
    const dataDir = path.join(tempDir(), 'nested');
    const secret = signingSecret({ signingSecret: undefined, dataDir });
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const file = path.join(dataDir, 'signing-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dataDir)).toEqual(['signing-secret']);
    expect(signingSecret({ signingSecret: undefined, dataDir })).toBe(secret);
  });

  it('reads a secret that is already there (another process, or a restart)', () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'signing-secret'), 'kept-from-before\n');
    expect(signingSecret({ signingSecret: undefined, dataDir })).toBe('kept-from-before');
  });
});

describe('auditKey', () => {
  it('prefers AUDIT_KEY, else makes its own private file in DATA_DIR beside the others', () => {
    const dataDir = tempDir();
    expect(auditKey({ auditKey: 'from-env', dataDir })).toBe('from-env');
    expect(fs.readdirSync(dataDir)).toEqual([]);
    const key = auditKey({ auditKey: undefined, dataDir });
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(key).not.toBe(signingSecret({ signingSecret: undefined, dataDir }));
    expect(fs.statSync(path.join(dataDir, 'audit-key')).mode & 0o777).toBe(0o600);
    expect(auditKey({ auditKey: undefined, dataDir })).toBe(key);
  });
});
