import { transactRequest } from '../support/transact-request.js';
import { call } from './world.js';
import { status, type Action, type MixContext } from './mix-kit.js';

/**
 * Wallets, movements, transfers between seeded users, pending transfer requests.
 */
export function walletActions(ctx: MixContext): Action[] {
  const { gw, accounts, pick, get } = ctx;
  return [
    { name: 'wallets', weight: 5, run: async () => status(200)(await get(pick(), '/wallets')) },
    {
      name: 'wallet',
      weight: 2,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `/wallets/${a.wallet}`));
      },
    },
    {
      name: 'wallet movements',
      weight: 2,
      run: async () => {
        const a = pick();
        return status(200)(await get(a, `/wallets/${a.wallet}/transactions`));
      },
    },
    {
      name: 'transfer',
      weight: 3,
      run: async () => {
        const from = pick();
        let to = pick();
        while (to === from && accounts.length > 1) to = pick();
        const req = transactRequest(gw.apiKey, from, to, 'soak');
        return status(
          200,
          201,
        )(
          await call(gw, 'POST', '/wallets/transact', {
            token: from.token,
            body: JSON.parse(req.body ?? '{}'),
          }),
        );
      },
    },
    {
      name: 'pending transfers',
      weight: 0.5,
      run: async () => status(200)(await get(pick(), '/wallet_transfers/pending')),
    },
  ];
}
