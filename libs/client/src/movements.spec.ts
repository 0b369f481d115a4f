import { WorkspacePlatformClient } from './client.js';
import { isPlatformApiError } from './errors.js';
import { MemoryTokenStorage } from './tokens.js';
import { fakeFetch, json } from './test-fetch.spec-helper.js';

const transaction = {
  from_wallet: '0xaa',
  to_wallet: '0xbb',
  from_asset: 'CREDITS',
  to_asset: 'CREDITS',
  amount: 5,
};
const movement = (id: string) => ({ transaction: { id, type: 'transfer', status: 'completed' } });

function signedIn(handler: Parameters<typeof fakeFetch>[0]) {
  const storage = new MemoryTokenStorage();
  storage.set({ accessToken: 'tok', refreshToken: 'ref' });
  const fake = fakeFetch(handler);
  const sdk = new WorkspacePlatformClient({
    baseUrl: 'http://p.test',
    apiKey: 'k',
    storage,
    fetch: fake.fetch,
    retry: { baseDelayMs: 1 },
  });
  return { sdk, ...fake };
}

/** 503 + Retry-After: 0 for the first `failures` requests, then `then`. */
function unavailableThen(failures: number, then: () => Response) {
  let n = 0;
  return () =>
    n++ < failures
      ? json(
          503,
          { errors: [{ code: 'UNAVAILABLE', title: 'Unavailable' }] },
          { 'retry-after': '0' },
        )
      : then();
}

describe('money movements: one Idempotency-Key per movement, kept across retries', () => {
  it('transact sends a generated key and retries a 503 with the same key', async () => {
    const { sdk, calls } = signedIn(unavailableThen(2, () => json(201, movement('m1'))));
    const answer = await sdk.transact(transaction);
    expect(answer.transaction.id).toBe('m1');
    const keys = calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(new Set(keys).size).toBe(1);
  });

  it('two movements get two keys; a caller key is used as given', async () => {
    const { sdk, calls } = signedIn(() => json(201, movement('m')));
    await sdk.transact(transaction);
    await sdk.transact(transaction);
    await sdk.transact(transaction, { idempotencyKey: 'order-42' });
    const keys = calls.map((c) => c.headers.get('idempotency-key'));
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('order-42');
  });

  it('debits and credits carry the key as reference_id too (the platform deduplicates by it)', async () => {
    const { sdk, calls } = signedIn(() => json(201, { debit: {}, credit: {} }));
    await sdk.debit('0xaa', { amount: 1, description: 'fee' });
    await sdk.credit('0xaa', { amount: 2, description: 'top-up' }, { adminAccess: 'op-secret' });
    await sdk.debit('0xaa', { amount: 1, description: 'fee', reference_id: 'invoice-7' });
    const [debit, credit, withReference] = calls;
    expect(debit.body).toEqual({
      debit: { amount: 1, description: 'fee', reference_id: debit.headers.get('idempotency-key') },
    });
    expect(credit.headers.get('admin-access')).toBe('op-secret');
    expect(credit.body).toMatchObject({
      credit: { reference_id: credit.headers.get('idempotency-key') },
    });
    expect(withReference.headers.get('idempotency-key')).toBe('invoice-7');
  });

  it('sdk.api POSTs to a money movement get a key (and retries); other POSTs get neither', async () => {
    const { sdk, calls } = signedIn(
      unavailableThen(1, () => json(201, { data: { id: '1', type: 'project', attributes: {} } })),
    );
    await sdk.api.POST('/v1/api/wallets/transact', { body: { transaction } });
    expect(calls).toHaveLength(2);
    expect(calls[0].headers.get('idempotency-key')).toBeTruthy();
    expect(calls[1].headers.get('idempotency-key')).toBe(calls[0].headers.get('idempotency-key'));

    const other = signedIn(unavailableThen(1, () => json(200, { data: {} })));
    const refused = await other.sdk.createOrganization('Acme').catch((e: unknown) => e);
    expect(other.calls).toHaveLength(1); // POST /organizations is not retried
    expect(other.calls[0].headers.get('idempotency-key')).toBeNull();
    expect(isPlatformApiError(refused, 'POST /v1/api/organizations')).toBe(true);
    expect(refused).toMatchObject({ status: 503, code: 'UNAVAILABLE', retryAfter: 0 });
  });

  it('GETs are retried on 429 without any key', async () => {
    let n = 0;
    const { sdk, calls } = signedIn(() =>
      n++ === 0
        ? json(429, { errors: [{ code: 'RATE_LIMITED' }] }, { 'retry-after': '0' })
        : json(200, { data: [] }),
    );
    await expect(sdk.listWallets()).resolves.toEqual({ data: [] });
    expect(calls).toHaveLength(2);
    expect(calls[0].headers.get('idempotency-key')).toBeNull();
  });

  it('a transfer request and its steps are movements too', async () => {
    const transfer = { transfer: { id: 't1', from_wallet: '0xaa', to_wallet: '0xbb' } };
    const { sdk, calls } = signedIn(() => json(200, transfer));
    await sdk.requestTransfer({ from_wallet: '0xaa', to_wallet: '0xbb', amount: 1 });
    await sdk.verifyTransferSender('t1', '123456');
    await sdk.acceptTransfer('t1', '654321');
    await sdk.rejectTransfer('t1');
    expect(calls.map((c) => c.path)).toEqual([
      '/v1/api/wallet_transfers',
      '/v1/api/wallet_transfers/t1/verify_sender',
      '/v1/api/wallet_transfers/t1/accept',
      '/v1/api/wallet_transfers/t1/reject',
    ]);
    expect(calls.every((c) => c.headers.get('idempotency-key'))).toBe(true);
    expect(calls[2].body).toEqual({ verification_code: '654321' });
  });
});
