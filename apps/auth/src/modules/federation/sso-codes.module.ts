import { Module } from '@nestjs/common';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { SsoCodeExchange } from './sso-code-exchange.js';
import { SsoStore } from './sso-store.js';

/**
 * The single-use rows of provider sign-ins and the code exchange, shared by the federation
 * routes and `POST /oauth/token` (sessions) without a dependency between those two modules.
 */
@Module({
  imports: [UsersRepositoryModule],
  providers: [SsoStore, SsoCodeExchange],
  exports: [SsoStore, SsoCodeExchange],
})
export class SsoCodesModule {}
