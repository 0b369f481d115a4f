import { SmtpSink, waitFor } from '@wp/testing';
import { PlatformStack } from '../support/stack.js';

/**
 * Transfer-request codes with two wallet processes (docs/wallet.md § Transfer requests, "One
 * key for every replica"): the code one process mails is checked by the other, because every
 * process hashes with the one `WALLET_TRANSFER_CODE_SECRET` (with a random key per process it
 * was `INVALID_VERIFICATION_CODE`, and five tries voided the transfer).
 */
describe('transfer requests across two wallet processes', () => {
  let smtp: SmtpSink;
  let stack: PlatformStack;
  let replica: string;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    stack = await PlatformStack.start({ SMTP_URL: smtp.url });
    replica = await stack.startReplica('wallet');
  });
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  const signUp = async (email: string) => {
    await stack.request('POST', '/v1/api/users', {
      body: { username: email, password: 'a long password' },
    });
    const login = await stack.request('POST', '/v1/api/oauth/token', {
      body: { username: email, password: 'a long password' },
    });
    const token = login.body.data.attributes.accessToken as string;
    const wallet = await waitFor(async () => {
      const res = await stack.request('GET', '/v1/api/wallets?entity_type=user', { token });
      return (res.body.data as { address_hash: string }[] | undefined)?.[0]?.address_hash;
    });
    return { email, token, wallet };
  };
  /** The code in the newest mail to `email` about `transferId`. */
  const codeFor = async (email: string, transferId: string) =>
    waitFor(
      () => {
        const mails = smtp.mailsTo(email).filter((m) => m.text.includes(transferId));
        return /(?: is | the code )(\d{6})\b/.exec(mails[mails.length - 1]?.text ?? '')?.[1];
      },
      { timeoutMs: 10_000, what: `a code mailed to ${email}` },
    );
  const balance = async (token: string, address: string) =>
    (await stack.request('GET', `/v1/api/wallets/${address}`, { token })).body.wallet
      .balance as number;

  it('accepts on each process the code the other mailed', async () => {
    const sender = await signUp('sender@example.com');
    const recipient = await signUp('recipient@example.com');
    const seeded = await stack.request('POST', `/v1/api/wallets/${sender.wallet}/credits`, {
      token: sender.token,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 100, description: 'seed', reference_id: 'seed' } },
    });
    expect(seeded.status).toBe(201);

    const created = await stack.request('POST', '/v1/api/wallet_transfers', {
      token: sender.token,
      body: { transfer: { from_wallet: sender.wallet, to_wallet: recipient.wallet, amount: 30 } },
    });
    expect(created.status).toBe(201);
    const id = created.body.transfer.id as string;

    // A (behind the gateway) mailed the sender's code; B checks it.
    const verified = await stack.request('POST', `/v1/api/wallet_transfers/${id}/verify_sender`, {
      token: sender.token,
      baseUrl: replica,
      body: { verification_code: await codeFor(sender.email, id) },
    });
    expect(verified.status).toBe(200);
    expect(verified.body.transfer.status).toBe('pending_recipient_acceptance');

    const accepted = await stack.request('POST', `/v1/api/wallet_transfers/${id}/accept`, {
      token: recipient.token, // through the gateway to the first process: B mailed this code
      body: { verification_code: await codeFor(recipient.email, id) },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.transfer.status).toBe('completed');
    expect(await balance(sender.token, sender.wallet)).toBe(70);
    expect(await balance(recipient.token, recipient.wallet)).toBe(30);
  });
});
