import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import type { WalletTenant } from '@wp/contracts';
import { Outbox } from '@wp/messaging';
import type { Principal } from '@wp/security';
import { Amount } from '../../common/amount.js';
import type { TransferRequest } from './transfer-request.entity.js';

/**
 * Announces a transfer request's steps to org's webhooks (docs/webhooks.md § Sources):
 * `wallet.transfer_request.changed` through the outbox, in the transaction of the step, when
 * it was made, completed, rejected or expired — and only when a side's wallet belongs to an
 * organization or project (a request between personal wallets concerns no tenant, so nothing
 * is written). Never a code or its HMAC. One indexed read of the two wallets per step;
 * transfer requests are human-paced (two mailed codes), not the benchmarked transfer path.
 */
@Injectable()
export class TransferEvents {
  constructor(
    private readonly txHost: TxHost,
    private readonly outbox: Outbox,
  ) {}

  /** @param by who took the step; null: the platform (an expiry, too many wrong codes) */
  async changed(t: TransferRequest, by: Pick<Principal, 'type' | 'id'> | null): Promise<void> {
    const tenants = await this.tenantsOf([t.fromWallet, t.toWallet]);
    if (tenants.length === 0) return;
    await this.outbox.enqueue('wallet.transfer_request.changed', {
      transferId: t.id,
      status: t.status,
      failureReason: t.failureReason,
      fromWallet: t.fromWallet,
      toWallet: t.toWallet,
      amount: Amount.fromNumeric(t.amount).text,
      asset: t.asset,
      description: t.description,
      transactionId: t.journalEntryId,
      createdAt: t.createdAt.toISOString(),
      updatedAt: t.updatedAt.toISOString(),
      actor: by ? { type: by.type, id: by.id } : { type: 'system', id: null },
      tenants,
    });
  }

  /** The tenants (organization, project) governing the given wallets, source first. */
  private async tenantsOf(addresses: string[]): Promise<WalletTenant[]> {
    const rows = await this.txHost.tx.query<
      { address_hash: string; organization_id: number | null; project_id: number | null }[]
    >(
      `SELECT address_hash, organization_id, project_id FROM wallet
        WHERE address_hash = ANY($1::bpchar[]) AND organization_id IS NOT NULL`,
      [addresses],
    );
    return addresses.flatMap((address) => {
      const row = rows.find((r) => r.address_hash === address);
      return row && row.organization_id !== null
        ? [{ organizationId: row.organization_id, projectId: row.project_id }]
        : [];
    });
  }
}
