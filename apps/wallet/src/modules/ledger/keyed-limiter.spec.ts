import { KeyedLimiter } from './keyed-limiter.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('KeyedLimiter', () => {
  it('runs at most `limit` tasks per key at once and the rest in arrival order', async () => {
    const limiter = new KeyedLimiter(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    const gates: (() => void)[] = [];
    const runs = [0, 1, 2, 3, 4].map((i) =>
      limiter.run(['hot'], async () => {
        active++;
        peak = Math.max(peak, active);
        order.push(i);
        await new Promise<void>((resolve) => gates.push(resolve));
        active--;
      }),
    );
    for (let i = 0; i < 5; i++) {
      await tick();
      gates.shift()?.();
    }
    await Promise.all(runs);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.size).toBe(0);
  });

  it('does not hold back runs on other keys', async () => {
    const limiter = new KeyedLimiter(1);
    let release!: () => void;
    const blocked = limiter.run(['a'], () => new Promise<void>((r) => (release = r)));
    await tick();
    await expect(limiter.run(['b'], () => Promise.resolve('b ran'))).resolves.toBe('b ran');
    release();
    await blocked;
  });

  it('never deadlocks runs that take the same keys in opposite order', async () => {
    const limiter = new KeyedLimiter(1);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        limiter.run(i % 2 ? ['a', 'b'] : ['b', 'a'], async () => {
          await tick();
          return i;
        }),
      ),
    );
    expect(results).toHaveLength(50);
    expect(limiter.size).toBe(0);
  });

  it('releases its keys when the task fails', async () => {
    const limiter = new KeyedLimiter(1);
    await expect(limiter.run(['k'], () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(limiter.run(['k'], () => Promise.resolve(1))).resolves.toBe(1);
    expect(limiter.size).toBe(0);
  });
});
