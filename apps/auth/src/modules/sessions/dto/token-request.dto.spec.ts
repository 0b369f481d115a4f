import { isDeepStrictEqual } from 'node:util';
import { FAST_VALIDATION } from '@wp/http';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { RefreshRequestDto } from './token-request.dto.js';

const fast = (body: unknown) =>
  (RefreshRequestDto as unknown as Record<symbol, (v: unknown) => unknown>)[FAST_VALIDATION](body);

/** What class-validator alone makes of a body: the instance, or null when it refuses it. */
async function classValidator(body: unknown): Promise<RefreshRequestDto | null> {
  const instance = plainToInstance(RefreshRequestDto, body);
  const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false });
  return errors.length === 0 ? instance : null;
}

describe('RefreshRequestDto fast validation', () => {
  const accepted: unknown[] = [
    { refresh_token: 'rt_abc' },
    { refresh_token: 'x'.repeat(512), grant_type: 'refresh_token', junk: { a: 1 } },
    { refresh_token: 'é'.repeat(512) },
  ];
  it.each(accepted.map((body, i) => [i, body]))(
    'gives exactly the instance class-validator gives (%i)',
    async (_i, body) => {
      const expected = await classValidator(body);
      expect(expected).not.toBeNull();
      const actual = fast(body);
      expect(actual).toBeInstanceOf(RefreshRequestDto);
      expect(isDeepStrictEqual(actual, expected)).toBe(true);
    },
  );

  const refusedOrUnsure: unknown[] = [
    null,
    [],
    'rt_abc',
    {},
    { refresh_token: '' },
    { refresh_token: 42 },
    { refresh_token: ['rt_abc'] },
    { refresh_token: 'x'.repeat(513) },
    // 257 code points in 514 UTF-16 units: class-validator accepts it, the fast path leaves it.
    { refresh_token: '😀'.repeat(257) },
  ];
  it.each(refusedOrUnsure.map((body, i) => [i, body]))(
    'leaves everything else to class-validator (%i)',
    (_i, body) => {
      expect(fast(body)).toBeUndefined();
    },
  );
});
