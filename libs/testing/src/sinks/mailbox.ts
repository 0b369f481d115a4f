interface Waiter<T> {
  match: (item: T) => boolean;
  resolve: (item: T) => void;
}

/**
 * Items received by a sink, each handed to at most one `next` caller: a test awaits "the next
 * message matching X" whether it arrived before the call or arrives later.
 */
export class Mailbox<T> {
  readonly items: T[] = [];
  private readonly claimed = new Set<T>();
  private readonly waiters: Waiter<T>[] = [];

  push(item: T): void {
    this.items.push(item);
    const index = this.waiters.findIndex((w) => w.match(item));
    if (index >= 0) {
      const [waiter] = this.waiters.splice(index, 1);
      this.claimed.add(item);
      waiter.resolve(item);
    }
  }

  /**
   * The oldest unclaimed item matching, or the next one to arrive.
   * @throws after `timeoutMs` with `what` and the number of items received so far
   */
  next(match: (item: T) => boolean, what: string, timeoutMs: number): Promise<T> {
    const ready = this.items.find((item) => !this.claimed.has(item) && match(item));
    if (ready) {
      this.claimed.add(ready);
      return Promise.resolve(ready);
    }
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter<T> = {
        match,
        resolve: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
      };
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what} (${this.items.length} received in all)`,
          ),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Every item received so far that matches (claimed or not). */
  all(match: (item: T) => boolean = () => true): T[] {
    return this.items.filter(match);
  }
}
