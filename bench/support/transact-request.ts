import type { BenchRequest } from '../lib/load.js';

/**
 * `POST /v1/api/wallets/transact` of 0.01 CREDITS from `from`'s wallet to `to`'s, as `from`
 * (the request of the benches that move money: wallet-transfers, modes).
 */
export function transactRequest(
  apiKey: string,
  from: { token: string; wallet: string },
  to: { wallet: string },
  description?: string,
): BenchRequest {
  return {
    method: 'POST',
    path: '/v1/api/wallets/transact',
    headers: {
      'api-key': apiKey,
      authorization: `Bearer ${from.token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      transaction: {
        from_wallet: from.wallet,
        to_wallet: to.wallet,
        from_asset: 'CREDITS',
        to_asset: 'CREDITS',
        amount: 0.01,
        ...(description === undefined ? {} : { description }),
      },
    }),
  };
}
