/**
 * Send slots by key (decision 026): a send takes one slot of each of its keys (the process, its
 * organisation, its receiver's host) and waits while any of them is full. A waiting send is let
 * in as soon as all of its keys have room, whoever waits before it: a send held back by its own
 * organisation's or host's slow receivers never holds back another organisation's.
 */
interface Waiter {
  keys: readonly string[];
  resolve(slot: boolean): void;
  timer: NodeJS.Timeout;
}

export class SendSlots {
  private readonly taken = new Map<string, number>();
  private waiting: Waiter[] = [];

  constructor(private readonly limitOf: (key: string) => number) {}

  /** How many slots of `key` are taken. */
  takenOf(key: string): number {
    return this.taken.get(key) ?? 0;
  }

  /**
   * Resolves true once a slot of every key is this send's; false when none came within
   * `maxWaitMs` or the slots were closed (the send is then not made).
   */
  take(keys: readonly string[], maxWaitMs: number): Promise<boolean> {
    if (this.fits(keys)) {
      this.hold(keys, 1);
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        keys,
        resolve,
        timer: setTimeout(() => {
          this.waiting = this.waiting.filter((other) => other !== waiter);
          resolve(false);
        }, maxWaitMs),
      };
      waiter.timer.unref();
      this.waiting.push(waiter);
    });
  }

  /** Hands back a send's slots, and lets in every waiting send that now fits, oldest first. */
  give(keys: readonly string[]): void {
    this.hold(keys, -1);
    for (const waiter of [...this.waiting]) {
      if (!this.fits(waiter.keys)) continue;
      this.waiting = this.waiting.filter((other) => other !== waiter);
      clearTimeout(waiter.timer);
      this.hold(waiter.keys, 1);
      waiter.resolve(true);
    }
  }

  /** Lets every waiting send go without a slot (the dispatcher stopping). */
  close(): void {
    for (const waiter of this.waiting.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
  }

  private fits(keys: readonly string[]): boolean {
    return keys.every((key) => this.takenOf(key) < this.limitOf(key));
  }

  private hold(keys: readonly string[], by: 1 | -1): void {
    for (const key of keys) {
      const count = this.takenOf(key) + by;
      if (count === 0) this.taken.delete(key);
      else this.taken.set(key, count);
    }
  }
}
