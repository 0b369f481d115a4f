import {
  shouldRetryUpstream,
  upstreamFailureStatus,
  UPSTREAM_RETRIES,
  type UpstreamAttempt,
} from './upstream-failures.js';

/** reply-from's wrappers: its own error with the socket error as `cause`. */
const wrapped = (code: string, cause?: { code: string }) =>
  Object.assign(new Error(code), { code, cause });

describe('upstream failures (docs/architecture.md § Upstream failures at the gateway)', () => {
  it.each([
    [
      'a refused connection',
      wrapped('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', { code: 'ECONNREFUSED' }),
    ],
    ['a reset', wrapped('ECONNRESET')],
    ['a socket closed before the answer', wrapped('UND_ERR_SOCKET')],
    [
      'a connect that timed out',
      Object.assign(wrapped('UND_ERR_CONNECT_TIMEOUT'), { statusCode: 504 }),
    ],
    ['a name that does not resolve', wrapped('FST_REPLY_FROM_SERVICE_UNAVAILABLE')],
    ['refused on every address', Object.assign(new AggregateError([wrapped('ECONNREFUSED')]), {})],
  ])('answers %s 503', (_name, error) => {
    expect(upstreamFailureStatus(error)).toBe(503);
  });

  it('answers a service that accepted and did not answer in time 504', () => {
    expect(
      upstreamFailureStatus(
        Object.assign(wrapped('FST_REPLY_FROM_GATEWAY_TIMEOUT'), { statusCode: 504 }),
      ),
    ).toBe(504);
    expect(upstreamFailureStatus(wrapped('UND_ERR_HEADERS_TIMEOUT'))).toBe(504);
  });

  it('answers an answer that is not HTTP, or anything unknown, 502', () => {
    expect(upstreamFailureStatus(wrapped('FST_REPLY_FROM_BAD_GATEWAY'))).toBe(502);
    expect(
      upstreamFailureStatus(
        wrapped('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', { code: 'HPE_INVALID_CONSTANT' }),
      ),
    ).toBe(502);
  });

  const attempt = (over: Partial<UpstreamAttempt>): UpstreamAttempt => ({
    method: 'GET',
    headers: {},
    retries: 0,
    ...over,
  });
  const refused = wrapped('FST_REPLY_FROM_INTERNAL_SERVER_ERROR', { code: 'ECONNREFUSED' });
  const draining = { statusCode: 503, headers: { connection: 'close', 'retry-after': '1' } };

  it('retries what certainly did not run, without a body, a bounded number of times', () => {
    expect(shouldRetryUpstream(attempt({ method: 'POST', error: refused }))).toBe(true);
    expect(shouldRetryUpstream(attempt({ method: 'DELETE', response: draining }))).toBe(true);
    expect(shouldRetryUpstream(attempt({ error: wrapped('ECONNRESET') }))).toBe(true);
    expect(shouldRetryUpstream(attempt({ error: refused, retries: UPSTREAM_RETRIES }))).toBe(false);
  });

  it('never retries a body, a command cut off mid-way, or an answer of the service', () => {
    const body = { 'content-length': '12' };
    expect(shouldRetryUpstream(attempt({ method: 'POST', headers: body, error: refused }))).toBe(
      false,
    );
    expect(
      shouldRetryUpstream(
        attempt({ headers: { 'transfer-encoding': 'chunked' }, response: draining }),
      ),
    ).toBe(false);
    expect(shouldRetryUpstream(attempt({ method: 'POST', error: wrapped('ECONNRESET') }))).toBe(
      false,
    );
    expect(shouldRetryUpstream(attempt({ response: { statusCode: 503, headers: {} } }))).toBe(
      false,
    );
    expect(shouldRetryUpstream(attempt({ response: { statusCode: 200, headers: {} } }))).toBe(
      false,
    );
    expect(shouldRetryUpstream(attempt({ error: wrapped('FST_REPLY_FROM_GATEWAY_TIMEOUT') }))).toBe(
      false,
    );
  });
});
