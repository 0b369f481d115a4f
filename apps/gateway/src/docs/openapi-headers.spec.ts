import { addHeaders } from './openapi-headers.js';

describe('addHeaders', () => {
  it('declares the answer headers once and refers to them from every answer', () => {
    const document: Record<string, any> = {
      paths: {
        '/v1/api/wallets/transact': {
          post: {
            parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }],
            responses: { '201': { description: 'ok' }, '429': { description: 'slow down' } },
          },
        },
        '/v1/api/wallets': { get: { responses: { '503': { description: 'down' } } } },
      },
    };
    addHeaders(document);
    const transact = document['paths']['/v1/api/wallets/transact'].post;
    expect(transact.parameters).toEqual([{ $ref: '#/components/parameters/IdempotencyKey' }]);
    expect(document['components'].parameters.IdempotencyKey.name).toBe('Idempotency-Key');
    expect(Object.keys(transact.responses['201'].headers)).toEqual([
      'X-Request-Id',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'Idempotent-Replayed',
    ]);
    expect(transact.responses['429'].headers['Retry-After']).toEqual({
      $ref: '#/components/headers/Retry-After',
    });
    expect(transact.responses['429'].headers).not.toHaveProperty('Idempotent-Replayed');
    const list = document['paths']['/v1/api/wallets'].get;
    expect(list.responses['503'].headers).toHaveProperty('Retry-After');
    expect(list.responses['503'].headers).not.toHaveProperty('Idempotent-Replayed');
    expect(Object.keys(document['components'].headers)).toContain('X-Request-Id');
  });
});
