interface Slot {
  active: number;
  waiting: (() => void)[];
}

/**
 * At most `limit` concurrent runs per key, FIFO beyond that. Used per balance (wallet + asset)
 * around ledger calls: requests for a hot balance queue in memory rather than each holding a
 * pooled database connection while PostgreSQL makes them wait for the row lock, so one hot
 * wallet cannot starve every other request of connections. Keys are taken in sorted order, so
 * two runs over the same keys cannot wait for each other in a cycle.
 */
export class KeyedLimiter {
  private readonly slots = new Map<string, Slot>();

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('limit must be a positive integer');
  }

  async run<T>(keys: string[], task: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const held: string[] = [];
    try {
      for (const key of sorted) {
        const wait = this.acquire(key);
        held.push(key);
        if (wait) await wait;
      }
      return await task();
    } finally {
      for (const key of held) this.release(key);
    }
  }

  /** Keys with runs in flight or waiting (tests, metrics). */
  get size(): number {
    return this.slots.size;
  }

  private acquire(key: string): Promise<void> | undefined {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { active: 0, waiting: [] };
      this.slots.set(key, slot);
    }
    if (slot.active < this.limit) {
      slot.active++;
      return undefined;
    }
    const queue = slot.waiting;
    return new Promise<void>((resolve) => queue.push(resolve));
  }

  private release(key: string): void {
    const slot = this.slots.get(key);
    if (!slot) return;
    const next = slot.waiting.shift();
    if (next) {
      next(); // the slot passes to the next waiter
      return;
    }
    slot.active--;
    if (slot.active === 0) this.slots.delete(key);
  }
}
