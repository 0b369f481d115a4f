import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from initialMs per attempt and stops at maxMs', () => {
    const schedule = { initialMs: 100, maxMs: 5000 };
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((a) => backoffDelay(a, schedule))).toEqual([
      100, 200, 400, 800, 1600, 3200, 5000, 5000,
    ]);
  });

  it('treats a negative or fractional attempt as its floor, at least 0', () => {
    const schedule = { initialMs: 10, maxMs: 1000 };
    expect(backoffDelay(-3, schedule)).toBe(10);
    expect(backoffDelay(2.7, schedule)).toBe(40);
    expect(backoffDelay(Number.MAX_SAFE_INTEGER, schedule)).toBe(1000);
  });
});
