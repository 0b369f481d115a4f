import type { ArgumentsHost } from '@nestjs/common';
import { DomainError } from './domain-error.js';
import { JsonApiErrorFilter } from './json-api-error.filter.js';

function render(error: unknown): { status: number; body: any } {
  const out = { status: 0, body: undefined as any };
  const reply = {
    header: () => reply,
    status: (s: number) => ((out.status = s), reply),
    send: (b: unknown) => ((out.body = b), reply),
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => ({ id: 'r1' }) }),
  } as unknown as ArgumentsHost;
  new JsonApiErrorFilter().catch(error, host);
  return out;
}

describe('DomainError document meta', () => {
  it('writes documentMeta as the top-level meta beside errors', () => {
    const { status, body } = render(
      new DomainError('rule', 'redirect_to_add_member', 'Has an account', {
        meta: { redirect_to_add_member: true },
        documentMeta: { redirect_to_add_member: true },
      }),
    );
    expect(status).toBe(422);
    expect(body).toEqual({
      errors: [
        {
          status: '422',
          code: 'redirect_to_add_member',
          title: 'Has an account',
          meta: { redirect_to_add_member: true },
        },
      ],
      meta: { redirect_to_add_member: true },
    });
  });

  it('leaves the document without meta when none is given', () => {
    expect(render(new DomainError('conflict', 'X', 'x')).body).toEqual({
      errors: [{ status: '409', code: 'X', title: 'x' }],
    });
  });
});
