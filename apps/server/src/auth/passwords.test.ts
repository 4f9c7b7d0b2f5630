import { describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config/config.ts';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('password hashes', () => {
  it('keep the standard Argon2id cost in production (19 MiB, 2 passes, 1 lane)', async () => {
    const production = loadConfig({ NODE_ENV: 'production' });
    const stored = await hashPassword('correct horse', production.passwordHashCost);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'correct horse', production.passwordHashCost)).toBe(true);
    expect(await verifyPassword(stored, 'wrong horse', production.passwordHashCost)).toBe(false);
    // A caller that names no cost gets the standard one too (the demo's seed, the benchmarks).
    expect(await hashPassword('correct horse')).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('hash at Argon2’s floor only at the test cost, and verify by the cost a hash carries', async () => {
    const cheap = await hashPassword('correct horse', 'test');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    // Verifying reads the parameters from the hash, whatever the server's own cost.
    expect(await verifyPassword(cheap, 'correct horse', 'standard')).toBe(true);
    expect(await verifyPassword(cheap, 'wrong horse', 'test')).toBe(false);
  });

  it('refuses an unknown account at either cost', async () => {
    expect(await verifyPassword(undefined, 'correct horse', 'standard')).toBe(false);
    expect(await verifyPassword(undefined, 'correct horse', 'test')).toBe(false);
    expect(await verifyPassword('not a hash', 'anything', 'test')).toBe(false);
  });
});
