import { TxHost } from '@wp/persistence';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  TransferRequest,
  type TransferFailureReason,
  type TransferStatus,
} from './transfer-request.entity.js';

const PENDING = `('pending_sender_verification', 'pending_recipient_acceptance')`;

/** The only file of transfer requests that touches the database. */
@Injectable()
export class TransfersRepository {
  constructor(
    private readonly txHost: TxHost,
    private readonly dataSource: DataSource,
  ) {}

  async insert(transfer: TransferRequest): Promise<TransferRequest> {
    const { from: _from, to: _to, assetRef: _asset, ...columns } = transfer;
    await this.txHost.tx.insert(TransferRequest, columns);
    return this.txHost.tx.findOneByOrFail(TransferRequest, { id: transfer.id });
  }

  findById(id: string): Promise<TransferRequest | null> {
    return this.dataSource.getRepository(TransferRequest).findOneBy({ id });
  }

  /** The request, locked for the rest of the transaction. */
  lock(id: string): Promise<TransferRequest | null> {
    return this.txHost.tx
      .getRepository(TransferRequest)
      .createQueryBuilder('t')
      .setLock('pessimistic_write')
      .where('t.id = :id', { id })
      .getOne();
  }

  async save(transfer: TransferRequest): Promise<TransferRequest> {
    transfer.updatedAt = new Date();
    await this.txHost.tx.update(
      TransferRequest,
      { id: transfer.id },
      {
        status: transfer.status,
        failureReason: transfer.failureReason,
        codeHmac: transfer.codeHmac,
        codeExpiresAt: transfer.codeExpiresAt,
        attempts: transfer.attempts,
        journalEntryId: transfer.journalEntryId,
        decidedBy: transfer.decidedBy,
        updatedAt: transfer.updatedAt,
      },
    );
    return transfer;
  }

  /** Requests a user started or that touch one of `addresses`, newest first, and the count. */
  async listFor(
    userId: string,
    addresses: string[],
    offset: number,
    limit: number,
  ): Promise<{ transfers: TransferRequest[]; total: number }> {
    const where = 't.initiated_by = :userId OR t.from_wallet IN (:...a) OR t.to_wallet IN (:...a)';
    const qb = this.dataSource
      .getRepository(TransferRequest)
      .createQueryBuilder('t')
      .where(where, { userId, a: addresses.length > 0 ? addresses : [''] })
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .skip(offset)
      .take(limit);
    const [transfers, total] = await qb.getManyAndCount();
    return { transfers, total };
  }

  /**
   * Requests waiting for this user: their own awaiting the sender code, and those into a wallet
   * they control awaiting acceptance; unexpired, newest first, at most `limit`.
   */
  pendingFor(userId: string, controlled: string[], limit: number): Promise<TransferRequest[]> {
    return this.dataSource
      .getRepository(TransferRequest)
      .createQueryBuilder('t')
      .where('t.code_expires_at > now()')
      .andWhere(
        `((t.status = 'pending_sender_verification' AND t.initiated_by = :userId)
          OR (t.status = 'pending_recipient_acceptance' AND t.to_wallet IN (:...controlled)))`,
        { userId, controlled: controlled.length > 0 ? controlled : [''] },
      )
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .take(limit)
      .getMany();
  }

  /** Pending requests past their deadline, locked (skipping any a command holds). */
  claimExpired(limit: number): Promise<TransferRequest[]> {
    return this.txHost.tx
      .getRepository(TransferRequest)
      .createQueryBuilder('t')
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .where(`t.status IN ${PENDING}`)
      .andWhere('t.code_expires_at <= now()')
      .orderBy('t.code_expires_at', 'ASC')
      .limit(limit)
      .getMany();
  }
}

export type { TransferFailureReason, TransferStatus };
