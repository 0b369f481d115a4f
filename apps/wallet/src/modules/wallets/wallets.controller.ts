import { createHash } from 'node:crypto';
import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ifNoneMatchMatches } from '@wp/http';
import { AgentAccess, CurrentPrincipal, type Principal } from '@wp/security';
import type { FastifyReply } from 'fastify';
import { exactJson } from '../../common/exact-json.js';
import { WalletAddressPipe } from '../../common/address.js';
import { CreateEntityWalletBody } from './dto/create-entity-wallet.dto.js';
import { GetWalletQuery } from './dto/get-wallet.query.js';
import { ListWalletsQuery } from './dto/list-wallets.query.js';
import { UpdateWalletBody } from './dto/update-wallet.dto.js';
import type { WalletRecord } from './wallet.serializer.js';
import { WalletsService } from './wallets.service.js';

/** docs/api.md § Wallets ({wallet_url}): the wallet resource itself. */
@Controller('wallets')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  /** `GET /wallets?entity_type=`: `{data: [wallet]}`, the wallets the caller may see. */
  @Get()
  @AgentAccess()
  @ApiOperation({ summary: "List the caller's wallets" })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListWalletsQuery,
  ): Promise<{ data: WalletRecord[] }> {
    return { data: await this.wallets.listVisible(principal, query.entity_type) };
  }

  /**
   * `GET /wallets/{addressHash}?cache_bust=`: `{wallet}` with an `ETag`; `If-None-Match` with
   * the current tag answers 304 without a body (weak comparison, `ifNoneMatchMatches` of
   * @wp/http). A strong tag of the exact JSON (`exactJson`: amounts as sent), not @wp/http's
   * `WithETag`, which hashes `JSON.stringify`. Always fresh (no server-side cache).
   */
  @Get(':addressHash')
  @AgentAccess()
  @ApiOperation({ summary: 'Get a wallet' })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Param('addressHash', WalletAddressPipe) address: string,
    @Query() _query: GetWalletQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ wallet: WalletRecord } | undefined> {
    const body = { wallet: await this.wallets.get(principal, address) };
    const etag = `"${createHash('sha256').update(exactJson(body)).digest('base64url').slice(0, 27)}"`;
    void reply.header('etag', etag).header('cache-control', 'private, no-cache');
    if (ifNoneMatchMatches(ifNoneMatch, etag)) {
      void reply.status(304);
      return undefined;
    }
    return body;
  }

  /** `PUT /wallets/{addressHash}` with `{wallet: {entity_name?, description?}}`: `{wallet}`. */
  @Put(':addressHash')
  @AgentAccess()
  @ApiOperation({ summary: "Change a wallet's name or description" })
  async update(
    @CurrentPrincipal() principal: Principal,
    @Param('addressHash', WalletAddressPipe) address: string,
    @Body() body: UpdateWalletBody,
  ): Promise<{ wallet: WalletRecord }> {
    return { wallet: await this.wallets.update(principal, address, body.wallet) };
  }

  /** `POST /wallets/create_entity_wallet` with `{entity_wallet}`: 201 `{wallet}`. */
  @Post('create_entity_wallet')
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a wallet for an entity' })
  async create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateEntityWalletBody,
  ): Promise<{ wallet: WalletRecord }> {
    return { wallet: await this.wallets.createEntityWallet(principal, body.entity_wallet) };
  }
}
