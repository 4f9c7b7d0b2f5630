import { createHash } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEnrolledDevice, makeTenant } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { DeviceAuthenticator } from './device-auth.ts';
import { DeviceCache, type AuthenticatedDevice } from './device-cache.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const device = (id: string, session: string | null = null) =>
  ({ id, session: session && { id: session } }) as unknown as AuthenticatedDevice;

describe('device cache: entries in use are read again before they expire', () => {
  it('lists only entries that answered a call since their read and expire within the window', async () => {
    let now = 0;
    const cache = new DeviceCache(() => now);
    await cache.fill('used', async () => device('d1'));
    await cache.fill('idle', async () => device('d2'));
    expect(cache.peek('used')).toBeDefined();
    // Entries live 22.5–30 s: none is due 10 s ahead at first, every one in use is by 21 s.
    expect(cache.dueForRefresh(10_000)).toEqual([]);
    now = 21_000;
    expect(cache.dueForRefresh(10_000)).toEqual(['used']);

    await cache.refresh('used', async () => device('d1', 's1'));
    expect(cache.stats.refreshed).toBe(1);
    // What the refresh read answers from now on, well past the first read's expiry, and until it
    // is used again it is not read again.
    now = 35_000;
    expect(cache.peek('used')?.session).toEqual({ id: 's1' });
    expect(cache.peek('idle')).toBeUndefined();
    expect(cache.stats.misses).toBe(2);
  });

  it('forgets an entry whose token no longer lets a device in, and keeps none a change raced', async () => {
    const now = 0;
    const cache = new DeviceCache(() => now);
    await cache.fill('gone', async () => device('d1'));
    await cache.refresh('gone', async () => undefined);
    expect(cache.peek('gone')).toBeUndefined();

    await cache.fill('raced', async () => device('d2'));
    let release!: () => void;
    const refreshing = cache.refresh('raced', async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return device('d2'); // read before the session started
    });
    cache.invalidate('d2'); // the session starts meanwhile
    release();
    await refreshing;
    expect(cache.peek('raced')).toBeUndefined();
    expect(cache.stats.discarded).toBe(1);
  });

  it('reads a fleet again in one statement, and drops a device deleted meanwhile', async () => {
    const tenant = await makeTenant(t);
    const headsets = await Promise.all(
      Array.from({ length: 12 }, () => makeEnrolledDevice(t.db, tenant.organization.id)),
    );
    let lookups = 0;
    const counting: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === 'SelectQueryNode') lookups++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    let now = t.clock.now().getTime();
    const cache = new DeviceCache(() => now);
    const devices = new DeviceAuthenticator(t.db.withPlugin(counting), cache);
    const hashes = headsets.map((headset) => tokenHashOf(headset.headers));
    await Promise.all(hashes.map((hash) => devices.load(hash)));
    for (const hash of hashes) expect(devices.cached(hash)).toBeDefined();
    await t.db.deleteFrom('devices').where('id', '=', headsets[0]!.device.id).execute();

    now += 21_000;
    lookups = 0;
    await devices.refreshExpiring();
    expect(lookups).toBe(1);
    expect(cache.stats.refreshed).toBe(11);
    // Past every first read's expiry: the eleven still enrolled are answered from memory, the
    // deleted one is not (its next call reads, and is refused).
    now += 9_000;
    expect(hashes.map((hash) => devices.cached(hash) !== undefined)).toEqual(
      hashes.map((_, i) => i !== 0),
    );
    await expect(devices.load(hashes[0]!)).rejects.toMatchObject({ code: 'unauthorized' });
  });
});

function tokenHashOf(headers: Record<string, string>): string {
  const token = headers.authorization!.replace(/^Bearer /, '');
  return createHash('sha256').update(token).digest('hex');
}
