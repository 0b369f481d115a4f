import { Logger, NotFoundException, type ArgumentsHost } from '@nestjs/common';
import { DomainError } from './domain-error.js';
import {
  DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
} from './database-unavailable.js';
import { JsonApiErrorFilter } from './json-api-error.filter.js';
import {
  isTransactionConflict,
  TRANSACTION_CONFLICT_RETRY_AFTER_SECONDS,
} from './transaction-conflict.js';

/** A minimal Fastify reply/request pair recording what the filter sends. */
function host() {
  const sent: { status?: number; headers: Record<string, string>; body?: unknown } = {
    headers: {},
  };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name.toLowerCase()] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  const request = { id: 'req-42' };
  const argumentsHost = {
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }),
  } as unknown as ArgumentsHost;
  return { sent, argumentsHost };
}

describe('JsonApiErrorFilter (docs/architecture.md § Error body)', () => {
  const filter = new JsonApiErrorFilter();
  beforeAll(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));

  it('writes a DomainError as its category status with code, title, detail, source, meta', () => {
    const { sent, argumentsHost } = host();
    filter.catch(
      new DomainError('rule', 'INVALID_ROLE_TRANSITION', 'Invalid role transition', {
        detail: 'Transfer ownership first.',
        source: { pointer: '/role' },
        meta: { x: 1 },
      }),
      argumentsHost,
    );
    expect(sent.status).toBe(422);
    expect(sent.body).toEqual({
      errors: [
        {
          status: '422',
          code: 'INVALID_ROLE_TRANSITION',
          title: 'Invalid role transition',
          detail: 'Transfer ownership first.',
          source: { pointer: '/role' },
          meta: { x: 1 },
        },
      ],
    });
  });

  it('sets Retry-After for rate limits', () => {
    const { sent, argumentsHost } = host();
    filter.catch(
      new DomainError('rate_limited', 'RATE_LIMITED', 'Too many', { retryAfter: 30 }),
      argumentsHost,
    );
    expect(sent.status).toBe(429);
    expect(sent.headers['retry-after']).toBe('30');
  });

  it('maps Nest HTTP errors such as unknown routes', () => {
    const { sent, argumentsHost } = host();
    filter.catch(new NotFoundException('Cannot GET /nowhere'), argumentsHost);
    expect(sent.status).toBe(404);
    expect((sent.body as { errors: { code: string }[] }).errors[0].code).toBe('NOT_FOUND');
  });

  it('maps Fastify parser errors to 400', () => {
    const { sent, argumentsHost } = host();
    filter.catch(
      Object.assign(new Error('Unexpected end of JSON'), {
        code: 'FST_ERR_CTP_INVALID_JSON',
        statusCode: 400,
      }),
      argumentsHost,
    );
    expect(sent.status).toBe(400);
  });

  it('answers anything unexpected with 500, the request id and no internals', () => {
    const { sent, argumentsHost } = host();
    filter.catch(new TypeError('secret internal detail at line 12'), argumentsHost);
    expect(sent.status).toBe(500);
    const text = JSON.stringify(sent.body);
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toContain('line 12');
    expect((sent.body as { errors: { meta: unknown }[] }).errors[0].meta).toEqual({
      requestId: 'req-42',
    });
  });
});

describe('JsonApiErrorFilter: PostgreSQL unreachable (docs/architecture.md § Errors)', () => {
  const filter = new JsonApiErrorFilter();
  beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));

  it.each([
    ['admin shutdown 57P01', Object.assign(new Error('terminating connection'), { code: '57P01' })],
    [
      'shutting down 57P03',
      Object.assign(new Error('the database system is shutting down'), { code: '57P03' }),
    ],
    ['too many connections', Object.assign(new Error('too many clients'), { code: '53300' })],
    ['connection failure 08006', Object.assign(new Error('x'), { code: '08006' })],
    ['connection lost', new Error('Connection terminated unexpectedly')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    [
      'TypeORM runner released by a lost connection',
      Object.assign(new Error('Query runner already released. Cannot run queries anymore.'), {
        name: 'QueryRunnerAlreadyReleasedError',
      }),
    ],
    [
      'refused on every address',
      new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })]),
    ],
    [
      'TypeORM QueryFailedError',
      Object.assign(new Error('query failed'), {
        driverError: Object.assign(new Error('x'), { code: '57P01' }),
      }),
    ],
  ])('answers %s with 503 UNAVAILABLE and Retry-After', (_name, error) => {
    const { sent, argumentsHost } = host();
    filter.catch(error, argumentsHost);
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe(String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
    expect(sent.body).toMatchObject({
      errors: [{ status: '503', code: 'UNAVAILABLE', meta: { requestId: 'req-42' } }],
    });
  });

  it.each([
    ['unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['syntax error', Object.assign(new Error('syntax'), { code: '42601' })],
    ['a plain bug', new TypeError('x is undefined')],
  ])('keeps %s a 500', (_name, error) => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(isDatabaseUnavailable(error)).toBe(false);
    const { sent, argumentsHost } = host();
    filter.catch(error, argumentsHost);
    expect(sent.status).toBe(500);
  });
});

describe('JsonApiErrorFilter: deadlocks and serialization failures (docs/architecture.md § Deadlocks and serialization failures)', () => {
  const filter = new JsonApiErrorFilter();
  beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));

  it.each([
    ['a deadlock 40P01', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
    [
      'a serialization failure 40001',
      Object.assign(new Error('could not serialize access'), { code: '40001' }),
    ],
    [
      'TypeORM QueryFailedError around a deadlock',
      Object.assign(new Error('query failed'), {
        driverError: Object.assign(new Error('deadlock detected'), { code: '40P01' }),
      }),
    ],
  ])('answers %s left after the retries with 503 UNAVAILABLE and Retry-After', (_name, error) => {
    expect(isTransactionConflict(error)).toBe(true);
    const { sent, argumentsHost } = host();
    filter.catch(error, argumentsHost);
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe(String(TRANSACTION_CONFLICT_RETRY_AFTER_SECONDS));
    expect(sent.body).toMatchObject({
      errors: [{ status: '503', code: 'UNAVAILABLE', meta: { requestId: 'req-42' } }],
    });
  });

  it('does not take a unique violation for a conflict', () => {
    expect(isTransactionConflict(Object.assign(new Error('dup'), { code: '23505' }))).toBe(false);
  });
});
