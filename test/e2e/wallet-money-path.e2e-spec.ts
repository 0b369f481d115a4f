import { waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * Money through the whole platform (docs/wallet.md § Ledger): auth registers two users (personal
 * wallets from `auth.user.activated`), org creates an organization (operating wallet from
 * `org.organization.created`, its owner from `org.membership.changed`), an operator credits it
 * with `Admin-Access`, its owner pays a member, all through the gateway.
 */
describe('money path through the gateway', () => {
  let stack: PlatformStack;

  beforeAll(async () => {
    stack = await PlatformStack.start();
  });
  afterAll(() => stack.close());

  const signUp = async (email: string) => {
    const registered = await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: 'a long password' },
    });
    expect(registered.status).toBe(200);
    const login = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: email, password: 'a long password' },
    });
    return login.body.data.attributes.accessToken as string;
  };
  const wallets = async (token: string, type: string) => {
    const res = await stack.request('GET', `/v1/api/wallets?entity_type=${type}`, { token });
    expect(res.status).toBe(200);
    return res.body.data as { address_hash: string; entity_id: string; balance: number }[];
  };

  it('credits an organization wallet and pays a user from it, with history on both sides', async () => {
    const founder = await signUp('payer@example.com');
    const payee = await signUp('payee@example.com');
    const [payeeWallet] = await waitFor(async () => {
      const list = await wallets(payee, 'user');
      return list.length > 0 && list;
    });
    const org = await stack.request('POST', '/v1/api/organizations', {
      token: founder,
      body: { data: { type: 'organization', attributes: { name: 'Payroll Inc' } } },
    });
    const orgWallet = await waitFor(
      async () =>
        (await wallets(founder, 'organization')).find((w) => w.entity_id === org.body.data.id),
      { timeoutMs: 5000, what: 'the organization wallet' },
    );

    const refused = await stack.request(
      'POST',
      `/v1/api/wallets/${orgWallet.address_hash}/credits`,
      {
        token: founder,
        body: { credit: { amount: 500, description: 'seed' } },
      },
    );
    expect(refused.status).toBe(403);
    const credited = await stack.request(
      'POST',
      `/v1/api/wallets/${orgWallet.address_hash}/credits`,
      {
        token: founder,
        headers: { 'admin-access': stack.env.keys.adminAccessToken },
        body: { credit: { amount: 500, description: 'seed', reference_id: 'seed-1' } },
      },
    );
    expect(credited.status).toBe(201);

    const paid = await stack.request('POST', '/v1/api/wallets/transact', {
      token: founder,
      headers: { 'idempotency-key': 'salary-2026-11' },
      body: {
        transaction: {
          from_wallet: orgWallet.address_hash,
          to_wallet: payeeWallet.address_hash,
          from_asset: 'CREDITS',
          to_asset: 'CREDITS',
          amount: 120.5,
          description: 'salary',
        },
      },
    });
    expect(paid.status).toBe(201);
    expect(paid.body.transaction).toMatchObject({
      type: 'transfer',
      amount: 120.5,
      balance_after: 379.5,
    });

    const payeeView = await stack.request('GET', `/v1/api/wallets/${payeeWallet.address_hash}`, {
      token: payee,
    });
    expect(payeeView.body.wallet.balance).toBe(120.5);
    expect(payeeView.headers.get('etag')).toBeTruthy();
    const history = await stack.request(
      'GET',
      `/v1/api/wallets/${payeeWallet.address_hash}/transactions`,
      { token: payee },
    );
    expect(history.body.data[0]).toMatchObject({
      direction: 'in',
      amount: 120.5,
      counterparty_wallet: orgWallet.address_hash,
      description: 'salary',
    });
    const foreign = await stack.request('GET', `/v1/api/wallets/${orgWallet.address_hash}`, {
      token: payee,
    });
    expect(foreign.status).toBe(404);
  });
});
