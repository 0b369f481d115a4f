import { withRetries, type RetryClock } from './retry.js';
import { retryAfterSeconds } from './retry-after.js';
import { fakeFetch, json } from './test-fetch.spec-helper.js';

/** A clock that records each wait instead of waiting; jitter pinned to its maximum. */
function fakeClock(random = 0.999_999): RetryClock & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    sleep: (ms, signal) => {
      if (signal?.aborted) return Promise.reject(new Error('aborted'));
      waits.push(ms);
      return Promise.resolve();
    },
    random: () => random,
  };
}

/** Answers the statuses in turn (the last one from then on). */
function answers(...statuses: [number, Record<string, string>?][]) {
  let i = 0;
  return fakeFetch(() => {
    const [status, headers] = statuses[Math.min(i++, statuses.length - 1)];
    return json(status, status < 300 ? { ok: true } : { errors: [{ code: 'X' }] }, headers);
  });
}

const get = () => new Request('http://p.test/v1/api/wallets');
const post = (headers: Record<string, string> = {}) =>
  new Request('http://p.test/v1/api/wallets/transact', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ transaction: { amount: 1 } }),
  });

describe('withRetries: 429 / 503 retried honouring Retry-After, only when safe to repeat', () => {
  it('waits what Retry-After asks (seconds) before sending the same request again', async () => {
    const { fetch, calls } = answers(
      [503, { 'retry-after': '2' }],
      [429, { 'retry-after': '1' }],
      [200],
    );
    const clock = fakeClock();
    const response = await withRetries(fetch, {}, clock)(get());
    expect(response.status).toBe(200);
    expect(calls).toHaveLength(3);
    expect(clock.waits).toEqual([2000, 1000]);
  });

  it('without Retry-After backs off exponentially with jitter (≤ base × 2^attempt)', async () => {
    const { fetch } = answers([502], [504], [503], [200]);
    const clock = fakeClock();
    await withRetries(fetch, { baseDelayMs: 100 }, clock)(get());
    expect(clock.waits).toEqual([100, 200, 400]);
  });

  it('gives up after maxRetries and answers the last response', async () => {
    const { fetch, calls } = answers([503, { 'retry-after': '0' }]);
    const response = await withRetries(fetch, { maxRetries: 2 }, fakeClock())(get());
    expect(response.status).toBe(503);
    expect(calls).toHaveLength(3);
  });

  it('does not wait for a Retry-After beyond maxDelayMs: the 429 is the answer', async () => {
    const { fetch, calls } = answers([429, { 'retry-after': '120' }], [200]);
    const clock = fakeClock();
    const response = await withRetries(fetch, { maxDelayMs: 60_000 }, clock)(get());
    expect(response.status).toBe(429);
    expect(calls).toHaveLength(1);
    expect(clock.waits).toEqual([]);
  });

  it('never retries a POST without an Idempotency-Key', async () => {
    const { fetch, calls } = answers([503, { 'retry-after': '0' }], [201]);
    const response = await withRetries(fetch, {}, fakeClock())(post());
    expect(response.status).toBe(503);
    expect(calls).toHaveLength(1);
  });

  it('retries a POST with an Idempotency-Key, with the same key and body every time', async () => {
    const { fetch, calls } = answers([503, { 'retry-after': '0' }], [503], [201]);
    const response = await withRetries(fetch, {}, fakeClock())(post({ 'Idempotency-Key': 'k-1' }));
    expect(response.status).toBe(201);
    expect(calls.map((c) => c.headers.get('idempotency-key'))).toEqual(['k-1', 'k-1', 'k-1']);
    expect(calls.map((c) => c.body)).toEqual(Array(3).fill({ transaction: { amount: 1 } }));
  });

  it('does not retry other statuses (400, 401, 409, 500)', async () => {
    for (const status of [400, 401, 409, 500]) {
      const { fetch, calls } = answers([status], [200]);
      expect((await withRetries(fetch, {}, fakeClock())(get())).status).toBe(status);
      expect(calls).toHaveLength(1);
    }
  });

  it('retries a request that got no answer (network error), but not an aborted one', async () => {
    let attempts = 0;
    const flaky = (request: Request) => {
      attempts++;
      if (attempts < 3) return Promise.reject(new TypeError('fetch failed'));
      return Promise.resolve(json(200, { url: request.url }));
    };
    expect((await withRetries(flaky, {}, fakeClock())(get())).status).toBe(200);
    expect(attempts).toBe(3);

    const controller = new AbortController();
    controller.abort();
    let aborted = 0;
    const failing = () => {
      aborted++;
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    };
    const request = new Request('http://p.test/v1/api/wallets', { signal: controller.signal });
    await expect(withRetries(failing, {}, fakeClock())(request)).rejects.toThrow('aborted');
    expect(aborted).toBe(1);
  });

  it('reads Retry-After as delta-seconds or an HTTP-date (RFC 9110 § 10.2.3)', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterSeconds('7', now)).toBe(7);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });
});
