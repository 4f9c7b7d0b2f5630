import type { Clock } from './clock.ts';

/**
 * Answers of expensive reads, shared by every request that asks the same question within
 * `maxAgeMs` (requests that arrive while one is being computed wait for it instead of computing it
 * again). Whoever knows of a change calls `forget`, so an answer is only ever as old as the last
 * change its owner did not hear of, and never older than `maxAgeMs`. A failed computation is not
 * kept. At most `maxEntries` answers are kept, the oldest dropped first.
 */
export class SharedAnswers<Value> {
  private readonly answers = new Map<string, { atMs: number; value: Promise<Value> }>();

  constructor(
    private readonly clock: Clock,
    private readonly options: { maxAgeMs: number; maxEntries?: number },
  ) {}

  get(key: string, compute: (now: Date) => Promise<Value>): Promise<Value> {
    const now = this.clock.now();
    const kept = this.answers.get(key);
    const age = kept ? now.getTime() - kept.atMs : Infinity;
    if (kept && age >= 0 && age < this.options.maxAgeMs) return kept.value;
    const value = compute(now);
    this.answers.delete(key);
    this.answers.set(key, { atMs: now.getTime(), value });
    if (this.answers.size > (this.options.maxEntries ?? 1000)) {
      this.answers.delete(this.answers.keys().next().value!);
    }
    value.catch(() => {
      if (this.answers.get(key)?.value === value) this.answers.delete(key);
    });
    return value;
  }

  /** Drops every answer, or those whose key starts with `prefix`. */
  forget(prefix?: string): void {
    for (const key of this.answers.keys()) {
      if (prefix === undefined || key.startsWith(prefix)) this.answers.delete(key);
    }
  }
}
