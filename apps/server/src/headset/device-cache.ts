import type { EndedSessionStatus, MovementType, SessionLaunch } from '@vrtc/contract';

/** The device behind a token, with its active session: what every headset call starts from. */
export interface AuthenticatedDevice {
  id: string;
  organizationId: string;
  movementType: MovementType;
  batteryPercent: number | null;
  appVersion: string | null;
  session: SessionLaunch | null;
  /** Its session that ended last and how: the heartbeat tells the headset why its session went. */
  lastEnded: { id: string; status: EndedSessionStatus } | null;
}

/** A safety net only: invalidation (device-events.ts) is what keeps entries fresh. */
export const DEVICE_CACHE_TTL_MS = 30_000;
/**
 * How often entries in use are read again ahead of their expiry (`refresh`), and how far ahead:
 * twice this. An entry lives 22.5–30 s, so one in use is read again 12.5–25 s after its fill.
 */
export const DEVICE_CACHE_REFRESH_MS = 5_000;
/** Far above any fleet this product serves; beyond it the oldest entries go first. */
export const DEVICE_CACHE_MAX_ENTRIES = 100_000;

interface Entry {
  device: AuthenticatedDevice;
  cachedAt: number;
  /** cachedAt + 75–100% of the TTL: fills made together do not all expire together. */
  expiresAt: number;
  /** Answered a call since it was read: worth reading again before it expires. */
  used: boolean;
}

export interface DeviceCacheStats {
  /** Answered from memory. */
  hits: number;
  /** Went to the database (absent, expired, or the cache was off). */
  misses: number;
  /** Fills and refreshes not stored because the device was invalidated while their SELECT ran. */
  discarded: number;
  /** Entries read again and stored ahead of their expiry (`refresh`), not on a headset's call. */
  refreshed: number;
}

/**
 * Per process: token hash → the device as a headset call sees it (id, organisation, movement
 * type, active session launch description), so most heartbeats cost no query. Nothing here must
 * survive: a miss reads the database, and every entry expires after `ttlMs` anyway.
 *
 * Invalidation is by device id (or everything). A fill notes the invalidation sequence before its
 * SELECT and does not store its result when that device (or everything) was invalidated since:
 * the SELECT may have read the state from before the change.
 */
export class DeviceCache {
  readonly stats: DeviceCacheStats = { hits: 0, misses: 0, discarded: 0, refreshed: 0 };
  private readonly entries = new Map<string, Entry>();
  private readonly tokenOf = new Map<string, string>();
  /** Bumped by every invalidation. */
  private sequence = 0;
  /** Device id → sequence of its last invalidation; only kept while fills are in flight. */
  private readonly invalidatedAt = new Map<string, number>();
  private clearedAt = 0;
  private fillsInFlight = 0;
  private enabled: boolean;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(
    private readonly now: () => number,
    options: { ttlMs?: number; maxEntries?: number; enabled?: boolean } = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEVICE_CACHE_TTL_MS;
    this.maxEntries = options.maxEntries ?? DEVICE_CACHE_MAX_ENTRIES;
    this.enabled = options.enabled ?? true;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached device for this token hash, if there is a fresh one. */
  peek(tokenHash: string): AuthenticatedDevice | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    const now = this.now();
    if (now >= entry.cachedAt && now < entry.expiresAt) {
      this.stats.hits += 1;
      entry.used = true;
      return entry.device;
    }
    this.drop(tokenHash, entry.device.id);
    return undefined;
  }

  /**
   * `load()`'s answer, for when `peek` found nothing: stored unless the device was invalidated
   * while it ran.
   */
  async fill(
    tokenHash: string,
    load: () => Promise<AuthenticatedDevice>,
  ): Promise<AuthenticatedDevice> {
    this.stats.misses += 1;
    return (await this.read(tokenHash, load)).device;
  }

  /**
   * Token hashes of the entries that answered a call since they were read and expire within
   * `withinMs`: what `refresh` reads again, so that heartbeats do not wait on a read at each
   * expiry. A fleet that reconnects together (a restart, a network back) fills together, and
   * without it its entries would then keep expiring within the same few seconds under its load,
   * each miss a statement of its own; read ahead, they cost one statement per 500.
   */
  dueForRefresh(withinMs: number): string[] {
    const horizon = this.now() + withinMs;
    const due: string[] = [];
    for (const [tokenHash, entry] of this.entries) {
      if (entry.used && entry.expiresAt <= horizon) due.push(tokenHash);
    }
    return due;
  }

  /**
   * Reads an entry again ahead of its expiry: stored as a fill's answer is (not when the device was
   * invalidated meanwhile); `undefined` (the token no longer lets a device in) forgets it, so the
   * next call reads and gets its refusal. A failed read leaves the entry to its expiry.
   */
  async refresh(
    tokenHash: string,
    load: () => Promise<AuthenticatedDevice | undefined>,
  ): Promise<void> {
    const { device, stored } = await this.read(tokenHash, load);
    if (stored) this.stats.refreshed += 1;
    const entry = this.entries.get(tokenHash);
    if (!device && entry) this.drop(tokenHash, entry.device.id);
  }

  private async read<D extends AuthenticatedDevice | undefined>(
    tokenHash: string,
    load: () => Promise<D>,
  ): Promise<{ device: D; stored: boolean }> {
    const startedAt = this.sequence;
    this.fillsInFlight += 1;
    let device: D;
    try {
      device = await load();
    } finally {
      this.fillsInFlight -= 1;
    }
    let stored = false;
    if (device) {
      const invalidated = this.invalidatedAt.get(device.id) ?? 0;
      if (!this.enabled || this.clearedAt > startedAt || invalidated > startedAt) {
        this.stats.discarded += 1;
      } else {
        this.store(tokenHash, device);
        stored = true;
      }
    }
    // No fill left that started before these invalidations: they can no longer matter.
    if (this.fillsInFlight === 0) this.invalidatedAt.clear();
    return { device, stored };
  }

  /** Forgets the device, and makes any fill of it already under way not store what it read. */
  invalidate(deviceId: string): void {
    this.sequence += 1;
    if (this.fillsInFlight > 0) this.invalidatedAt.set(deviceId, this.sequence);
    const tokenHash = this.tokenOf.get(deviceId);
    if (tokenHash !== undefined) this.drop(tokenHash, deviceId);
  }

  /** Forgets everything, including what fills under way will read. */
  clear(): void {
    this.sequence += 1;
    this.clearedAt = this.sequence;
    this.entries.clear();
    this.tokenOf.clear();
  }

  /**
   * Off: every call reads the database and nothing is stored (e.g. while the cross-process
   * notification channel is down, when a missed notification could leave an entry stale).
   * Either way the cache starts over empty.
   */
  setEnabled(enabled: boolean): void {
    this.clear();
    this.enabled = enabled;
  }

  private store(tokenHash: string, device: AuthenticatedDevice) {
    const previous = this.tokenOf.get(device.id);
    if (previous !== undefined && previous !== tokenHash) this.entries.delete(previous);
    this.entries.delete(tokenHash); // re-inserted last: the map's order is the age order
    const cachedAt = this.now();
    const expiresAt = cachedAt + this.ttlMs * (0.75 + Math.random() * 0.25);
    this.entries.set(tokenHash, { device, cachedAt, expiresAt, used: false });
    this.tokenOf.set(device.id, tokenHash);
    while (this.entries.size > this.maxEntries) {
      const [oldestHash, oldest] = this.entries.entries().next().value as [string, Entry];
      this.drop(oldestHash, oldest.device.id);
    }
  }

  private drop(tokenHash: string, deviceId: string) {
    this.entries.delete(tokenHash);
    if (this.tokenOf.get(deviceId) === tokenHash) this.tokenOf.delete(deviceId);
  }
}
