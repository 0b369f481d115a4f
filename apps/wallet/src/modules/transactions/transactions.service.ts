import { Injectable } from '@nestjs/common';
import { pageMeta, pageOffset, type PageMeta, type RequestMeta } from '@wp/http';
import type { Principal } from '@wp/security';
import { Amount } from '../../common/amount.js';
import { fingerprint } from '../../common/canonical-json.js';
import { AssetsService } from '../assets/assets.service.js';
import { LedgerError, type MovementPointers } from '../../common/ledger-error.js';
import type { MoveCommand } from '../ledger/ledger-moves.js';
import { LedgerRepository } from '../ledger/ledger.repository.js';
import { MoveBatcher } from '../ledger/move-batcher.js';
import type { WalletIdentity } from '../wallets/wallet-identities.js';
import { WalletNotFoundError } from '../wallets/wallets.errors.js';
import { WalletAccess } from '../wallets/wallet-access.js';
import { CreditRecorder } from './credit-recorder.js';
import type { AdjustmentDto } from './dto/adjustment.dto.js';
import type { TransactionDto } from './dto/transact.dto.js';
import {
  toMovementRecord,
  toTransactionRecord,
  type MovementRecord,
  type MovementRequest,
  type TransactionRecord,
} from './transaction.serializer.js';

/** A movement's answer and whether it repeats an earlier one (idempotent retry). */
export interface MovementOutcome {
  record: MovementRecord;
  replayed: boolean;
}

const DEFAULT_PER_PAGE = 20;

/**
 * Money movements a caller starts (docs/api.md § Wallets: transact, debits, credits) and the
 * transaction history. Each movement is one call of the ledger function (one statement), in one
 * transaction or committed with others into the same hot destination, and idempotent when the
 * client gives a key.
 */
@Injectable()
export class TransactionsService {
  constructor(
    private readonly access: WalletAccess,
    private readonly ledger: LedgerRepository,
    private readonly assets: AssetsService,
    private readonly batcher: MoveBatcher,
    private readonly credits: CreditRecorder,
  ) {}

  /**
   * `POST /wallets/transact`: same wallet + different assets is a conversion at the configured
   * rate; different wallets + same asset a transfer. The caller must control `from_wallet`;
   * `to_wallet` may be any open wallet.
   * @throws WalletNotFoundError 404, InsufficientPermissionsError 403, LedgerError 422
   *   (`INSUFFICIENT_FUNDS`, `NOTHING_TO_MOVE`, `CROSS_ASSET_TRANSFER_NOT_SUPPORTED`,
   *   `UNKNOWN_ASSET`, `CONVERSION_NOT_SUPPORTED`, `AMOUNT_TOO_SMALL`, `RECIPIENT_NOT_FOUND`,
   *   `WALLET_CLOSED`) or 409 (`IDEMPOTENCY_KEY_REUSED`)
   */
  async transact(
    principal: Principal,
    input: TransactionDto,
    idempotencyKey: string | undefined,
  ): Promise<MovementOutcome> {
    const { from_wallet: from, to_wallet: to, from_asset: fromAsset, to_asset: toAsset } = input;
    await this.access.requireToMove(principal, from, 'transact');
    if (from === to && fromAsset === toAsset) {
      throw new LedgerError(
        'NOTHING_TO_MOVE',
        'from_wallet and to_wallet are the same and so are the assets.',
        { pointer: '/transaction/to_wallet' },
      );
    }
    if (from !== to && fromAsset !== toAsset) {
      throw new LedgerError(
        'CROSS_ASSET_TRANSFER_NOT_SUPPORTED',
        'A transfer between wallets moves one asset; convert inside the source wallet first.',
        { pointer: '/transaction/to_asset' },
      );
    }
    this.assets.requireKnown(fromAsset, { pointer: '/transaction/from_asset' });
    this.assets.requireKnown(toAsset, { pointer: '/transaction/to_asset' });
    const amount = Amount.fromNumber(input.amount);
    const request: MovementRequest = {
      type: from === to ? 'conversion' : 'transfer',
      from,
      to,
      fromAsset,
      toAsset,
      description: input.description ?? '',
      metadata: input.metadata ?? {},
      referenceId: null,
    };
    const idempotency = idempotencyKey
      ? {
          scope: `transact:${principal.id}`,
          key: idempotencyKey,
          fingerprint: fingerprint([
            from,
            to,
            fromAsset,
            toAsset,
            amount.text,
            request.description,
            request.metadata,
          ]),
        }
      : null;
    return this.move(request, amount, principal, idempotency, {
      from: '/transaction/from_wallet',
      to: '/transaction/to_wallet',
      amount: '/transaction/amount',
      reference: 'Idempotency-Key',
    });
  }

  /**
   * `POST /wallets/{addressHash}/debits`: takes money out of a wallet the caller controls (to
   * the issuance account). `reference_id` makes it idempotent per wallet.
   */
  async debit(
    principal: Principal,
    address: string,
    input: AdjustmentDto,
  ): Promise<MovementOutcome> {
    const wallet = await this.access.requireToMove(principal, address, 'debit');
    return this.adjust('debit', wallet, principal, input);
  }

  /**
   * `POST /wallets/{addressHash}/credits` (the route demands `Admin-Access`): puts money into
   * any open wallet (from the issuance account). `reference_id` makes it idempotent per wallet.
   * Recorded in the organization audit log in the same transaction (`CreditRecorder`).
   */
  async credit(
    principal: Principal,
    address: string,
    input: AdjustmentDto,
    meta: RequestMeta,
  ): Promise<MovementOutcome> {
    const wallet = await this.access.identityOf(address);
    if (!wallet) throw new WalletNotFoundError();
    return this.adjust('credit', wallet, principal, input, meta);
  }

  /** `GET /wallets/{addressHash}/transactions`: newest first, `data` + page `meta`. */
  async history(
    principal: Principal,
    address: string,
    page = 1,
    perPage = DEFAULT_PER_PAGE,
  ): Promise<{ data: TransactionRecord[]; meta: PageMeta }> {
    await this.access.require(principal, address, 'read');
    const { lines, total } = await this.ledger.history(address, pageOffset(page, perPage), perPage);
    return { data: lines.map(toTransactionRecord), meta: pageMeta(page, perPage, total) };
  }

  private async adjust(
    type: 'debit' | 'credit',
    wallet: WalletIdentity,
    principal: Principal,
    input: AdjustmentDto,
    creditMeta?: RequestMeta,
  ): Promise<MovementOutcome> {
    const asset = input.asset ?? wallet.currency;
    this.assets.requireKnown(asset, { pointer: `/${type}/asset` });
    const amount = Amount.fromNumber(input.amount);
    const address = wallet.addressHash;
    const request: MovementRequest = {
      type,
      from: type === 'debit' ? address : null,
      to: type === 'credit' ? address : null,
      fromAsset: asset,
      toAsset: asset,
      description: input.description,
      metadata: {},
      referenceId: input.reference_id ?? null,
    };
    const idempotency = input.reference_id
      ? {
          scope: `${type}:${address}`,
          key: input.reference_id,
          fingerprint: fingerprint([asset, amount.text, input.description]),
        }
      : null;
    const pointers = { amount: `/${type}/amount`, reference: `/${type}/reference_id` };
    if (creditMeta) {
      const command: MoveCommand = { ...request, amount, initiatedBy: principal.id, idempotency };
      const result = await this.credits.credit(command, pointers, wallet, principal, creditMeta);
      return { record: toMovementRecord(request, result), replayed: result.replayed };
    }
    return this.move(request, amount, principal, idempotency, pointers);
  }

  /**
   * Runs the movement, at most N at a time per balance touched ({@link KeyedLimiter}), committed
   * together with others into the same destination when they queue up ({@link MoveBatcher}).
   */
  private async move(
    request: MovementRequest,
    amount: Amount,
    principal: Principal,
    idempotency: MoveCommand['idempotency'],
    pointers: MovementPointers,
  ): Promise<MovementOutcome> {
    const command: MoveCommand = {
      ...request,
      amount,
      initiatedBy: principal.id,
      actorType: principal.type,
      idempotency,
    };
    const result = await this.batcher.move(command, pointers);
    return { record: toMovementRecord(request, result), replayed: result.replayed };
  }
}
