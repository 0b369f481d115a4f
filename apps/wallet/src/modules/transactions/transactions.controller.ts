import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiHeader, ApiOperation } from '@nestjs/swagger';
import { CurrentRequestMeta, type PageMeta, type RequestMeta } from '@wp/http';
import { AdminAccessGuard, AgentAccess, CurrentPrincipal, type Principal } from '@wp/security';
import type { FastifyReply } from 'fastify';
import { WalletAddressPipe } from '../../common/address.js';
import { CreditBody, DebitBody } from './dto/adjustment.dto.js';
import { PageQuery } from './dto/history.query.js';
import { TransactBody } from './dto/transact.dto.js';
import { IDEMPOTENCY_KEY_HEADER, IdempotencyKey } from './idempotency-key.js';
import type { MovementRecord, TransactionRecord } from './transaction.serializer.js';
import { TransactionsService, type MovementOutcome } from './transactions.service.js';

/**
 * docs/api.md § Wallets ({wallet_url}): transact (transfer / conversion), debits, credits and the
 * transaction history. Movements answer 201 with the movement wrapped as the contract's
 * payload conventions say (`transaction`, `debit`, `credit`); an idempotent retry answers the
 * same, with `Idempotent-Replayed: true`.
 */
@Controller('wallets')
export class TransactionsController {
  constructor(private readonly transactions: TransactionsService) {}

  /**
   * Moves an amount between two wallets, or converts between assets inside one wallet, as one
   * balanced posting: 201 `{transaction}`.
   */
  @Post('transact')
  @AgentAccess()
  @HttpCode(201)
  @ApiHeader(IDEMPOTENCY_KEY_HEADER)
  @ApiOperation({ summary: 'Move or convert an amount between wallets' })
  async transact(
    @CurrentPrincipal() principal: Principal,
    @Body() body: TransactBody,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ transaction: MovementRecord }> {
    const outcome = await this.transactions.transact(principal, body.transaction, idempotencyKey);
    return { transaction: answer(outcome, reply) };
  }

  /** Takes an amount out of a wallet (idempotent per `reference_id`): 201 `{debit}`. */
  @Post(':addressHash/debits')
  @AgentAccess()
  @HttpCode(201)
  @ApiOperation({ summary: 'Debit a wallet' })
  async debit(
    @CurrentPrincipal() principal: Principal,
    @Param('addressHash', WalletAddressPipe) address: string,
    @Body() body: DebitBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ debit: MovementRecord }> {
    return { debit: answer(await this.transactions.debit(principal, address, body.debit), reply) };
  }

  /** docs/api.md § Authentication 8: `Admin-Access` required besides the usual headers. */
  @Post(':addressHash/credits')
  @HttpCode(201)
  @UseGuards(AdminAccessGuard)
  @ApiOperation({ summary: 'Credit a wallet' })
  async credit(
    @CurrentPrincipal() principal: Principal,
    @Param('addressHash', WalletAddressPipe) address: string,
    @Body() body: CreditBody,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CurrentRequestMeta() meta: RequestMeta,
  ): Promise<{ credit: MovementRecord }> {
    return {
      credit: answer(await this.transactions.credit(principal, address, body.credit, meta), reply),
    };
  }

  /** `?page&per_page` (defaults 1 / 20, at most 100): `{data, meta}`, newest first. */
  @Get(':addressHash/transactions')
  @AgentAccess()
  @ApiOperation({ summary: "List a wallet's transactions" })
  history(
    @CurrentPrincipal() principal: Principal,
    @Param('addressHash', WalletAddressPipe) address: string,
    @Query() query: PageQuery,
  ): Promise<{ data: TransactionRecord[]; meta: PageMeta }> {
    return this.transactions.history(principal, address, query.page, query.per_page);
  }
}

function answer(outcome: MovementOutcome, reply: FastifyReply): MovementRecord {
  if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
  return outcome.record;
}
