import { waitFor } from '@wp/testing';
import type { PlatformStack } from '../../support/stack.js';
import { walletJourneys } from '../../support/wallet-journeys.js';
import { credits, walletsPerOrganization } from './platform-audit.js';
import { SteadyLoad } from './steady-load.js';

/** What the ledger holds of the load's transfers (see {@link PaidOrganization.ledger}). */
export interface Ledger {
  /** Transfers answered 201. */
  acknowledged: number;
  /** Transfers answered otherwise or not at all: may or may not have happened. */
  unanswered: number;
  /** Credits the payee gained, and the payer lost, since the load was set up. */
  received: number;
  spent: number;
}

/**
 * The load of the topology tests (docs/operations.md § Production topology under faults): an
 * organization wallet topped up with 100,000 credits and paid from by its ADMIN into the
 * owner's user wallet, one {@link SteadyLoad} of such transfers and of the owner's organization
 * creations, and the ledger audit of what it acknowledged.
 */
export class PaidOrganization {
  private constructor(
    private readonly stack: PlatformStack,
    readonly load: SteadyLoad,
    /** The organization's wallet address (paid from) and the owner's (paid into). */
    readonly payer: string,
    readonly payee: string,
    /** The owner's access token (creates organizations). */
    readonly ownerToken: string,
    private readonly before: { payer: number; payee: number },
  ) {}

  /**
   * Signs up an owner and an admin, makes the organization with the admin as ADMIN, tops its
   * wallet up and waits until the wallet (told of the membership by event) lets the admin pay:
   * up to 15 s.
   */
  static async setUp(stack: PlatformStack): Promise<PaidOrganization> {
    const j = walletJourneys(() => stack);
    const owner = await j.signUp('owner');
    const admin = await j.signUp('admin');
    const { address } = await j.organization(owner, admin);
    const topUp = await stack.request('POST', `/v1/api/wallets/${address}/credits`, {
      token: owner.token,
      headers: { 'admin-access': stack.env.keys.adminAccessToken },
      body: { credit: { amount: 100_000, description: 'load', reference_id: `load-${address}` } },
    });
    expect(topUp.status).toBe(201);
    const payee = await j.userWallet(owner);
    await waitFor(async () => (await j.transact(admin, address, payee)).status === 201, {
      timeoutMs: 15_000,
      what: "the admin allowed to move the organization's money",
    });
    const before = { payer: await credits(stack, address), payee: await credits(stack, payee) };
    const load = new SteadyLoad(stack, {
      transferToken: admin.token,
      from: address,
      to: payee,
      organizationToken: owner.token,
    });
    return new PaidOrganization(stack, load, address, payee, owner.token, before);
  }

  /**
   * The event path, measured from outside: creates an organization as the owner and resolves
   * with the ms from its 2xx until the wallet service opened its wallet (the event
   * `org.organization.created` published, delivered and handled). Polls every 50 ms.
   * @throws when the creation is not answered 200, or the wallet is not there within `timeoutMs`
   */
  async eventPath(name: string, timeoutMs = 60_000): Promise<number> {
    const created = await this.stack.request('POST', '/v1/api/organizations', {
      token: this.ownerToken,
      body: { data: { type: 'organization', attributes: { name } } },
    });
    expect(created.status).toBe(200);
    const id = String(created.body.data.id);
    const at = Date.now();
    await waitFor(async () => (await walletsPerOrganization(this.stack, [id])).get(id) === 1, {
      timeoutMs,
      intervalMs: 50,
      what: `the wallet of the organization "${name}"`,
    });
    return Date.now() - at;
  }

  /**
   * The ledger audit, read now (after the load stopped): every acknowledged transfer should be
   * in `received`, at most the unanswered ones more, and `spent` equal to `received`.
   */
  async ledger(): Promise<Ledger> {
    const transfers = this.load.answers.filter((a) => a.kind === 'transfer');
    const acknowledged = transfers.filter((a) => a.status === 201).length;
    return {
      acknowledged,
      unanswered: transfers.length - acknowledged,
      received: (await credits(this.stack, this.payee)) - this.before.payee,
      spent: this.before.payer - (await credits(this.stack, this.payer)),
    };
  }
}

/** Asserts the ledger audit: nothing acknowledged missing, nothing made up, money conserved. */
export function expectLedgerExact(ledger: Ledger): void {
  expect(ledger.received).toBeGreaterThanOrEqual(ledger.acknowledged);
  expect(ledger.received).toBeLessThanOrEqual(ledger.acknowledged + ledger.unanswered);
  expect(ledger.spent).toBe(ledger.received);
}
