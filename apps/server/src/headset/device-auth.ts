import DataLoader from 'dataloader';
import type { Db } from '../platform/database/db.ts';
import { DEVICE_CACHE_REFRESH_MS, type DeviceCache } from './device-cache.ts';
import type { AuthenticatedDevice } from './device-cache.ts';
import { deviceOrRefusal, resolveDevices, type ResolvedDevice } from './device-resolution.ts';

/**
 * The device behind a device token: from the device cache (nearly every heartbeat), else read.
 * Cache misses arriving within one turn of the event loop share one SELECT: after a restart or a
 * TTL expiry many headsets miss at once, and a SELECT for 500 tokens costs about what one for a
 * single token does, on PGlite most of all. The device cache is the cache: the loader keeps
 * nothing itself.
 */
export class DeviceAuthenticator {
  private readonly loader: DataLoader<string, ResolvedDevice | undefined>;

  constructor(
    db: Db,
    private readonly cache: DeviceCache,
  ) {
    this.loader = new DataLoader(
      async (tokenHashes) => {
        const found = await resolveDevices(db, [...tokenHashes]);
        const byHash = new Map(found.map((row) => [row.tokenHash, row]));
        return tokenHashes.map((hash) => byHash.get(hash));
      },
      { cache: false, maxBatchSize: 500, batchScheduleFn: (run) => setImmediate(run) },
    );
  }

  /** The cached device, without a promise (the heartbeat's fast path); undefined on a miss. */
  cached(tokenHash: string): AuthenticatedDevice | undefined {
    return this.cache.peek(tokenHash);
  }

  /** The device read (batched with other misses) and cached; rejects with the 401 it deserves. */
  load(tokenHash: string): Promise<AuthenticatedDevice> {
    return this.cache.fill(tokenHash, async () =>
      deviceOrRefusal(await this.loader.load(tokenHash)),
    );
  }

  /**
   * Reads again, ahead of their expiry, the cached devices that answered calls (the headset jobs'
   * `device_cache_refresh`, every DEVICE_CACHE_REFRESH_MS): asked for in one turn, they share a
   * statement per 500, and the headsets' calls keep finding them in memory.
   */
  async refreshExpiring(): Promise<void> {
    const due = this.cache.dueForRefresh(2 * DEVICE_CACHE_REFRESH_MS);
    await Promise.all(
      due.map((tokenHash) =>
        this.cache.refresh(tokenHash, async () => {
          const found = await this.loader.load(tokenHash);
          return found?.organizationActive ? found.device : undefined;
        }),
      ),
    );
  }
}
