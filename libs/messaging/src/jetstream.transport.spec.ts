import {
  PUBLISH_DUPLICATE_WINDOW_MS,
  PUBLISH_RETRY,
  PULL,
  publishWithRetry,
} from './jetstream.transport.js';

/** An error as nats.js throws them: `code` `TIMEOUT` (no acknowledgement), `503` (no responders). */
const natsError = (code: string) => Object.assign(new Error(code), { code });

describe('JetStream publish retries', () => {
  it('send again after an acknowledgement timeout or no responders, then succeed', async () => {
    const outcomes = [natsError('TIMEOUT'), natsError('503'), 'ack'];
    const publish = jest.fn(() => {
      const next = outcomes.shift();
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    });
    await expect(publishWithRetry(publish)).resolves.toBe('ack');
    expect(publish).toHaveBeenCalledTimes(3);
  });

  it('give up after the last attempt with its error', async () => {
    const publish = jest.fn(() => Promise.reject(natsError('TIMEOUT')));
    await expect(publishWithRetry(publish)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(publish).toHaveBeenCalledTimes(PUBLISH_RETRY.attempts);
  }, 15_000);

  it('never send again after another error (e.g. a wrong stream)', async () => {
    const publish = jest.fn(() => Promise.reject(natsError('400')));
    await expect(publishWithRetry(publish)).rejects.toMatchObject({ code: '400' });
    expect(publish).toHaveBeenCalledTimes(1);
  });

  it('stay exactly-once: the whole retry budget is far inside the duplicate window', () => {
    const budget = PUBLISH_RETRY.attempts * (PUBLISH_RETRY.ackTimeoutMs + PUBLISH_RETRY.pauseMs);
    expect(budget * 10).toBeLessThan(PUBLISH_DUPLICATE_WINDOW_MS);
    // a pull outlives two of its heartbeats (nats.js renews it after two missed ones)
    expect(PULL.expires).toBeGreaterThanOrEqual(2 * PULL.idle_heartbeat);
  });
});
