import { describeIf, SERVICES_ONLY, testPlatformMode, waitFor } from '@wp/testing';
import { usePlatformOnPrivateNats } from '../support/nats-outage.js';
import { useReplicatedPlatform } from '../support/replicated-platform.js';
import { walletJourneys, type Account } from '../support/wallet-journeys.js';

const embedded = testPlatformMode() === 'embedded';
const ROUNDS = 3;

/** The answer of a refused movement: status and first error code. */
const answer = (res: { status: number; body: { errors?: { code: string }[] } }) => [
  res.status,
  res.body.errors?.[0]?.code,
];

/**
 * A deleted project's wallets move nothing from the moment `DELETE` answers (docs/wallet.md §
 * Closed wallets, docs/architecture.md § Withdrawn permissions at once): the deletion raises the
 * organization's permission version, so a wallet process that has not closed the wallet yet
 * asks org, which answers that the project is gone — 422 `WALLET_CLOSED`, the ledger's answer
 * once the wallet is closed, never 201. The organization's OWNER and ADMIN keep their roles, so
 * nothing else would refuse them. Two processes of org and of wallet.
 */
describe("a deleted project's wallets across replicas", () => {
  const platform = useReplicatedPlatform();
  const p = walletJourneys(() => platform.stack);

  it('refuses every transfer out of the wallet right after the deletion, in both wallet processes, and lists it no more', async () => {
    const owner = await p.signUp('owner');
    const admin = await p.signUp('admin');
    const { orgId } = await p.organization(owner, admin);
    const payee = await p.userWallet(owner);
    for (let round = 0; round < ROUNDS; round++) {
      const { projectId, address } = await p.projectWallet(owner, orgId);
      // Both wallet processes know the wallet and the ADMIN's right to it before the deletion.
      expect((await p.transact(admin, address, payee, platform.walletB)).status).toBe(201);
      expect((await p.transact(admin, address, payee)).status).toBe(201);
      const deleted = await platform.stack.request(
        'DELETE',
        `/v1/api/organizations/${orgId}/projects/${projectId}`,
        { token: owner.token, baseUrl: round % 2 === 0 ? platform.orgB : undefined },
      );
      expect(deleted.status).toBe(204);
      const refused = await Promise.all([
        p.transact(admin, address, payee, platform.walletB),
        p.transact(owner, address, payee),
        p.transact(owner, address, payee, platform.walletB),
        p.transact(admin, address, payee),
      ]);
      for (const res of refused) expect(answer(res)).toEqual([422, 'WALLET_CLOSED']);
      for (const walletProcess of [platform.walletB, undefined]) {
        const listed = await platform.stack.request('GET', '/v1/api/wallets?entity_type=project', {
          token: owner.token,
          baseUrl: walletProcess,
        });
        expect(listed.status).toBe(200);
        expect(
          (listed.body.data as { address_hash: string }[]).map((w) => w.address_hash),
        ).not.toContain(address);
      }
    }
  });
});

/**
 * With NATS stopped (services mode; a private NATS) `org.project.deleted` waits in org's outbox
 * and no wallet process closes the wallet; the required version in Redis says the read model is
 * behind and org cannot be asked, so the OWNER is refused (503 with `Retry-After`, never 201)
 * while another organization keeps transacting. Once NATS is back the wallet is closed: 422.
 */
describeIf(
  !embedded,
  SERVICES_ONLY,
  'NATS outage',
)("a deleted project's wallet while NATS is down", () => {
  const platform = usePlatformOnPrivateNats();
  const p = walletJourneys(() => platform.stack);

  it('refuses the OWNER, never 201, and lets another organization transact', async () => {
    const owner = await p.signUp('owner');
    const admin = await p.signUp('admin');
    const other: Account = await p.signUp('other-owner');
    const otherAdmin = await p.signUp('other-admin');
    const { orgId } = await p.organization(owner, admin);
    const unaffected = await p.organization(other, otherAdmin);
    const { projectId, address } = await p.projectWallet(owner, orgId);
    const payee = await p.userWallet(owner);
    expect((await p.transact(owner, address, payee)).status).toBe(201);

    await platform.nats.kill();
    try {
      const deleted = await platform.stack.request(
        'DELETE',
        `/v1/api/organizations/${orgId}/projects/${projectId}`,
        { token: owner.token },
      );
      expect(deleted.status).toBe(204);
      for (let i = 0; i < 5; i++) {
        const refused = await p.transact(owner, address, payee);
        expect([422, 503]).toContain(refused.status);
        if (refused.status === 503)
          expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
        expect((await p.transact(otherAdmin, unaffected.address, payee)).status).toBe(201);
      }
    } finally {
      await platform.nats.resume();
    }
    const closed = await waitFor(
      async () => {
        const res = await p.transact(owner, address, payee);
        return res.status === 422 ? res : undefined;
      },
      { timeoutMs: 20_000, what: 'the wallet closed after NATS is back' },
    );
    expect(closed.body.errors[0].code).toBe('WALLET_CLOSED');
  });
});
