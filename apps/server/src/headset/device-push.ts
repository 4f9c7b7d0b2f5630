import type { LiveEvent } from '@vrtc/contract';
import type { AuthenticatedDevice } from './device-cache.ts';

/** How the push channel reads a device again: the device cache first, else the database. */
export interface DeviceReader {
  cached(tokenHash: string): AuthenticatedDevice | undefined;
  load(tokenHash: string): Promise<AuthenticatedDevice>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The headsets' held push calls on this process (tests and metrics read its figures). */
    devicePush: DevicePush;
  }
}

interface Waiter {
  /** Answers the held call with the device as it is now. */
  wake(): void;
}

export interface PushFigures {
  /** Calls held on this process now. */
  waiting: number;
  /** Held calls answered early by a change (since start). */
  woken: number;
}

/**
 * The headsets' push channel (GET /v1/headset/events, decision 028): each headset holds one call
 * until what a heartbeat would tell it changes. Nothing of its own crosses processes: it listens to
 * the live events every process already hears (events/live-events.ts, NOTIFY on PostgreSQL), so a
 * session started or cancelled through any node wakes the call held on any other.
 *
 * A wake reads the device again: from the device cache, which the change invalidated before its
 * live event was published (the invalidation goes out inside the changing transaction, the live
 * event after it commits, and one LISTEN connection delivers both in commit order), or from the
 * database when the cache no longer holds it.
 */
export class DevicePush {
  private readonly waiters = new Map<string, Waiter>();
  /** Bumped by every change heard: a read that overlapped one is made again. */
  private sequence = 0;
  private woken = 0;
  private isClosing = false;

  constructor(private readonly devices: DeviceReader) {}

  /** True once `release()` was called: the server is closing. */
  get closing(): boolean {
    return this.isClosing;
  }

  get figures(): PushFigures {
    return { waiting: this.waiters.size, woken: this.woken };
  }

  /** The live events' listener: a session started or ended, a headset changed or removed. */
  readonly heard = (event: LiveEvent): void => {
    if (event.device_id === null) return;
    const concerns =
      event.type === 'session'
        ? event.change !== 'progress'
        : event.change === 'updated' || event.change === 'deleted';
    if (!concerns) return;
    this.sequence += 1;
    const waiter = this.waiters.get(event.device_id);
    if (waiter) {
      this.woken += 1;
      waiter.wake();
    }
  };

  /**
   * The device as the headset should next hear it: at once when its session is not `known` (the
   * id the headset last heard, or undefined for none), else after the first change heard for it
   * or `waitMs`, whichever is first. `onAbort` is handed a function to call when the caller goes
   * away. A headset that opens a second call has its first answered at once.
   */
  async next(
    tokenHash: string,
    known: string | undefined,
    waitMs: number,
    onAbort: (abort: () => void) => void,
  ): Promise<AuthenticatedDevice> {
    const device = await this.read(tokenHash);
    if ((device.session?.id ?? undefined) !== known || waitMs <= 0 || this.isClosing) return device;
    return new Promise<AuthenticatedDevice>((resolve, reject) => {
      let done = false;
      const finish = (answer: () => void) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (this.waiters.get(device.id) === waiter) this.waiters.delete(device.id);
        answer();
      };
      const waiter: Waiter = {
        wake: () => finish(() => this.read(tokenHash).then(resolve, reject)),
      };
      const timer = setTimeout(waiter.wake, waitMs);
      this.waiters.get(device.id)?.wake();
      this.waiters.set(device.id, waiter);
      onAbort(() => finish(() => resolve(device)));
    });
  }

  /** Answers every held call now (the server is closing); calls made after answer at once. */
  release(): void {
    this.isClosing = true;
    for (const waiter of [...this.waiters.values()]) waiter.wake();
  }

  /** The device now; read again while changes were heard during the read (at most 3 times). */
  private async read(tokenHash: string): Promise<AuthenticatedDevice> {
    for (let attempt = 0; ; attempt += 1) {
      const before = this.sequence;
      const device = this.devices.cached(tokenHash) ?? (await this.devices.load(tokenHash));
      if (this.sequence === before || attempt === 2) return device;
    }
  }
}
