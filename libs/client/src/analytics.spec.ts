import { AnalyticsClient } from './analytics.js';
import { LocalStorageTokenStorage } from './tokens.js';
import { fakeFetch, json } from './test-fetch.spec-helper.js';

const DAY = { fromTimestamp: '2026-01-01T00:00:00Z', toTimestamp: '2026-01-02T00:00:00Z' };

describe('AnalyticsClient: Basic credentials, 30 s metrics cache, auto-refresh with backoff', () => {
  afterEach(() => jest.useRealTimers());

  it('sends HTTP Basic from the project key pair and caches metrics for 30 s', async () => {
    jest.useFakeTimers({ now: 0 });
    const { fetch, calls } = fakeFetch(() => json(200, { data: [], meta: {} }));
    const analytics = new AnalyticsClient(
      'http://p.test',
      { publicKey: 'pk-lf-1', secretKey: 'sk-lf-1' },
      { fetch },
    );
    await analytics.dailyMetrics(DAY);
    await analytics.dailyMetrics(DAY);
    expect(calls).toHaveLength(1);
    expect(calls[0].headers.get('authorization')).toBe(`Basic ${btoa('pk-lf-1:sk-lf-1')}`);
    jest.advanceTimersByTime(30_000);
    await analytics.dailyMetrics(DAY);
    expect(calls).toHaveLength(2);
  });

  it('auto-refreshes every 30 s and backs off exponentially while requests fail', async () => {
    jest.useFakeTimers({ now: 0 });
    let fail = true;
    const { fetch, calls } = fakeFetch(() =>
      fail ? json(503, { message: 'down', code: 'service_unavailable' }) : json(200, { data: [] }),
    );
    const analytics = new AnalyticsClient(
      'http://p.test',
      { publicKey: 'p', secretKey: 's' },
      { fetch, retry: false }, // the SDK's own retries are tested in retry.spec.ts
    );
    const onError = jest.fn();
    const onData = jest.fn();
    const stop = analytics.autoRefresh(onData, { query: DAY, onError });
    await jest.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(59_999); // after one failure: 60 s
    expect(calls).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    fail = false;
    await jest.advanceTimersByTimeAsync(120_000); // after two failures: 120 s
    expect(calls).toHaveLength(3);
    expect(onData).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(30_000); // success: back to 30 s
    expect(calls).toHaveLength(4);
    expect(onError).toHaveBeenCalledTimes(2);
    stop();
    await jest.advanceTimersByTimeAsync(300_000);
    expect(calls).toHaveLength(4);
  });
});

describe('LocalStorageTokenStorage', () => {
  it('keeps the tokens under one key and clears them', () => {
    const map = new Map<string, string>();
    const storage = new LocalStorageTokenStorage({
      getItem: (k) => map.get(k) ?? null,
      setItem: (k, v) => void map.set(k, v),
      removeItem: (k) => void map.delete(k),
    });
    storage.set({ accessToken: 'a', refreshToken: 'r' });
    expect(
      new LocalStorageTokenStorage({
        getItem: (k) => map.get(k) ?? null,
        setItem: () => undefined,
        removeItem: () => undefined,
      }).get(),
    ).toEqual({ accessToken: 'a', refreshToken: 'r' });
    storage.clear();
    expect(storage.get()).toBeNull();
  });
});
