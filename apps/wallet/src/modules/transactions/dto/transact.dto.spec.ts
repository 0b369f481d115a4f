import { isDeepStrictEqual } from 'node:util';
import { FAST_VALIDATION, RequestValidationPipe } from '@wp/http';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { TransactBody } from './transact.dto.js';

const A = `0x${'Ab'.repeat(20)}`;
const B = `0x${'cd'.repeat(20)}`;
const ok = {
  from_wallet: A,
  to_wallet: B,
  from_asset: 'CREDITS',
  to_asset: 'CREDITS',
  amount: 0.01,
};
const fast = (body: unknown) =>
  (TransactBody as unknown as Record<symbol, (v: unknown) => unknown>)[FAST_VALIDATION](body);

/** What class-validator alone makes of a body: the instance, or null when it refuses it. */
async function classValidator(body: unknown): Promise<TransactBody | null> {
  const instance = plainToInstance(TransactBody, body);
  const errors = await validate(instance, { whitelist: true, forbidUnknownValues: false });
  return errors.length === 0 ? instance : null;
}

describe('TransactBody fast validation', () => {
  const accepted: unknown[] = [
    { transaction: ok },
    { transaction: { ...ok, description: 'rent', extra: 1 }, junk: true },
    { transaction: { ...ok, description: null, amount: 123456.12345678 } },
    { transaction: { ...ok, to_wallet: A, to_asset: 'USD', description: 'é'.repeat(500) } },
  ];
  it.each(accepted.map((body, i) => [i, body]))(
    'gives exactly the instance class-validator gives (%i)',
    async (_i, body) => {
      const expected = await classValidator(body);
      expect(expected).not.toBeNull();
      const actual = fast(body);
      expect(actual).toBeInstanceOf(TransactBody);
      expect(isDeepStrictEqual(actual, expected)).toBe(true);
      expect((actual as TransactBody).transaction.from_wallet).toBe(A.toLowerCase());
    },
  );

  const refusedOrUnsure: unknown[] = [
    null,
    [],
    {},
    { transaction: null },
    { transaction: [ok] },
    { transaction: { ...ok, amount: '0.01' } },
    { transaction: { ...ok, amount: 0.123456789 } },
    { transaction: { ...ok, amount: 0 } },
    { transaction: { ...ok, amount: -1 } },
    { transaction: { ...ok, amount: 1e16 } },
    { transaction: { ...ok, amount: undefined } },
    { transaction: { ...ok, from_wallet: '0x123' } },
    { transaction: { ...ok, to_wallet: 42 } },
    { transaction: { ...ok, from_asset: 'credits' } },
    { transaction: { ...ok, to_asset: undefined } },
    { transaction: { ...ok, description: 7 } },
    { transaction: { ...ok, description: 'x'.repeat(501) } },
    { transaction: { ...ok, metadata: { a: 1 } } }, // left to class-validator (size rule)
  ];
  it.each(refusedOrUnsure.map((body, i) => [i, body]))(
    'leaves the body to class-validator when it is not plainly valid (%i)',
    (_i, body) => {
      expect(fast(body)).toBeUndefined();
    },
  );

  it('the global pipe still answers class-validator refusals with the same 400', async () => {
    const pipe = new RequestValidationPipe();
    const refusal = await pipe
      .transform({ transaction: { ...ok, amount: '1' } }, { type: 'body', metatype: TransactBody })
      .catch((e: { issues?: unknown }) => e);
    expect(refusal).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
  });
});
