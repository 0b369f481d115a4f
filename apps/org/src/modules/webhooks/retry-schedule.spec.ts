import { decideRetry, retryAfterMs, withJitter, type RetryPolicy } from './retry-schedule.js';

describe('webhook retry schedule (docs/org.md § Webhooks, Retries)', () => {
  const svix: RetryPolicy = {
    scheduleMs: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    jitter: 0,
    retryAfterMaxSeconds: 3600,
  };
  const now = new Date('2026-11-28T12:00:00Z');

  it('follows the Svix schedule after each failed attempt, then gives up after the 8th', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attemptCount) =>
      decideRetry({ attemptCount, status: 500 }, svix, now),
    );
    expect(delays).toEqual(
      [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000].map((delayMs) => ({
        kind: 'retry',
        delayMs,
      })),
    );
    expect(decideRetry({ attemptCount: 8, status: 500 }, svix, now)).toEqual({ kind: 'give_up' });
    expect(decideRetry({ attemptCount: 8, status: null }, svix, now)).toEqual({ kind: 'give_up' });
  });

  it('disables the endpoint at once on 410 Gone, whatever the attempt', () => {
    expect(decideRetry({ attemptCount: 1, status: 410 }, svix, now)).toEqual({
      kind: 'disable_endpoint',
    });
  });

  it('retries after no answer at all (timeout, refused) like after an error status', () => {
    expect(decideRetry({ attemptCount: 1, status: null }, svix, now)).toEqual({
      kind: 'retry',
      delayMs: 5_000,
    });
  });

  it('honours Retry-After on 429 and 503 (seconds or HTTP date), bounded, never shorter than the schedule', () => {
    expect(decideRetry({ attemptCount: 1, status: 429, retryAfter: '120' }, svix, now)).toEqual({
      kind: 'retry',
      delayMs: 120_000,
    });
    expect(
      decideRetry(
        { attemptCount: 1, status: 503, retryAfter: 'Sat, 28 Nov 2026 12:10:00 GMT' },
        svix,
        now,
      ),
    ).toEqual({ kind: 'retry', delayMs: 600_000 });
    // bounded by retryAfterMaxSeconds
    expect(decideRetry({ attemptCount: 1, status: 429, retryAfter: '86400' }, svix, now)).toEqual({
      kind: 'retry',
      delayMs: 3_600_000,
    });
    // shorter than the schedule: the schedule wins
    expect(decideRetry({ attemptCount: 3, status: 429, retryAfter: '1' }, svix, now)).toEqual({
      kind: 'retry',
      delayMs: 1_800_000,
    });
    // other statuses ignore it; unreadable values are ignored
    expect(decideRetry({ attemptCount: 1, status: 500, retryAfter: '120' }, svix, now)).toEqual({
      kind: 'retry',
      delayMs: 5_000,
    });
    expect(decideRetry({ attemptCount: 1, status: 429, retryAfter: 'soon' }, svix, now)).toEqual({
      kind: 'retry',
      delayMs: 5_000,
    });
  });

  it('spreads pauses by ± the jitter fraction and leaves "immediately" immediate', () => {
    expect(withJitter(10_000, 0.1, () => 0)).toBe(9_000);
    expect(withJitter(10_000, 0.1, () => 0.5)).toBe(10_000);
    expect(withJitter(10_000, 0.1, () => 0.999999)).toBe(11_000);
    expect(withJitter(0, 0.5, () => 0)).toBe(0);
    const jittered = { ...svix, jitter: 0.1 };
    for (let i = 0; i < 200; i++) {
      const decision = decideRetry({ attemptCount: 2, status: 500 }, jittered, now);
      if (decision.kind !== 'retry') throw new Error('expected a retry');
      expect(decision.delayMs).toBeGreaterThanOrEqual(270_000);
      expect(decision.delayMs).toBeLessThanOrEqual(330_000);
    }
  });

  it('reads Retry-After values', () => {
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs(' 7 ', now)).toBe(7000);
    expect(retryAfterMs('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('-5', now)).toBeNull();
  });
});
