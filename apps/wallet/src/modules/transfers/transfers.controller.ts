import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { UuidPipe, type PageMeta } from '@wp/http';
import { CurrentPrincipal, type Principal } from '@wp/security';
import { PageQuery } from '../transactions/dto/history.query.js';
import { CreateTransferBody, VerificationBody } from './dto/transfer.dto.js';
import type { TransferRecord } from './transfer.serializer.js';
import { TransfersService } from './transfers.service.js';

/** docs/api.md § Wallets ({wallet_url}): `/wallet_transfers`, the two-party transfer requests. */
@Controller('wallet_transfers')
export class TransfersController {
  constructor(private readonly transfers: TransfersService) {}

  /** `?page&per_page` (defaults 1 / 20, at most 100): `{data, meta}`, newest first. */
  @Get()
  @ApiOperation({ summary: "List the caller's transfer requests" })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: PageQuery,
  ): Promise<{ data: TransferRecord[]; meta: PageMeta }> {
    return this.transfers.list(principal, query.page, query.per_page);
  }

  /** 201 `{transfer}` in `pending_sender_verification`; the code goes to the creator. */
  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Request a transfer between wallets' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateTransferBody,
  ): Promise<{ transfer: TransferRecord }> {
    return { transfer: await this.transfers.create(principal, body.transfer) };
  }

  /** `{data}`: requests awaiting the caller's code. */
  @Get('pending')
  @ApiOperation({ summary: 'List the transfer requests waiting for the caller' })
  pending(@CurrentPrincipal() principal: Principal): Promise<{ data: TransferRecord[] }> {
    return this.transfers.pending(principal);
  }

  /** The sender confirms a transfer request with the emailed code: 200 `{transfer}`. */
  @Post(':transferId/verify_sender')
  @HttpCode(200)
  @ApiOperation({ summary: 'Confirm a transfer request as its sender' })
  async verifySender(
    @CurrentPrincipal() principal: Principal,
    @Param('transferId', UuidPipe) id: string,
    @Body() body: VerificationBody,
  ): Promise<{ transfer: TransferRecord }> {
    return {
      transfer: await this.transfers.verifySender(principal, id, body.verification_code),
    };
  }

  /** The recipient accepts with their code; the held amount moves: 200 `{transfer}`. */
  @Post(':transferId/accept')
  @HttpCode(200)
  @ApiOperation({ summary: 'Accept a transfer request' })
  async accept(
    @CurrentPrincipal() principal: Principal,
    @Param('transferId', UuidPipe) id: string,
    @Body() body: VerificationBody,
  ): Promise<{ transfer: TransferRecord }> {
    return { transfer: await this.transfers.accept(principal, id, body.verification_code) };
  }

  /** The recipient declines; the held amount returns to the sender: 200 `{transfer}`. */
  @Post(':transferId/reject')
  @HttpCode(200)
  @ApiOperation({ summary: 'Reject a transfer request' })
  async reject(
    @CurrentPrincipal() principal: Principal,
    @Param('transferId', UuidPipe) id: string,
  ): Promise<{ transfer: TransferRecord }> {
    return { transfer: await this.transfers.reject(principal, id) };
  }
}
