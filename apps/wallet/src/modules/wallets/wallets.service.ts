import { Injectable } from '@nestjs/common';
import { Outbox } from '@wp/messaging';
import type { Principal } from '@wp/security';
import type { EntityManager } from 'typeorm';
import type { Wallet, WalletEntityType } from './wallet.entity.js';
import { WalletsRepository, type NewWallet } from './wallets.repository.js';

@Injectable()
export class WalletsService {
  constructor(
    private readonly wallets: WalletsRepository,
    private readonly outbox: Outbox,
  ) {}

  /**
   * Opens a wallet exactly once per (entity, purpose) and announces it with
   * `wallet.wallet.created`, in the caller's transaction.
   * @returns the new wallet, or null when it already existed
   */
  async open(wallet: NewWallet, manager: EntityManager): Promise<Wallet | null> {
    const created = await this.wallets.insertIfAbsent(wallet, manager);
    if (created) {
      await this.outbox.enqueue(manager, 'wallet.wallet.created', {
        addressHash: created.addressHash,
        entityType: created.entityType,
        entityId: created.entityId,
        purpose: created.purpose,
        currency: created.currency,
      });
    }
    return created;
  }

  /** `GET /wallets`: the caller's wallets, optionally of one entity type. */
  listVisible(principal: Principal, entityType?: WalletEntityType): Promise<Wallet[]> {
    return this.wallets.findVisibleTo(principal.id, entityType);
  }
}
