import { Module } from '@nestjs/common';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { OrgSsoState } from './org-sso-state.js';
import { SsoCodeExchange } from './sso-code-exchange.js';
import { SsoRequiredSessions } from './sso-required-sessions.js';
import { SsoStore } from './sso-store.js';

/**
 * The single-use rows of provider sign-ins and the code exchange, shared by the federation
 * routes and `POST /oauth/token` (sessions) without a dependency between those two modules; and
 * the replica of organizations' SSO domains ({@link OrgSsoState}), which both read.
 */
@Module({
  imports: [UsersRepositoryModule],
  providers: [SsoStore, SsoCodeExchange, OrgSsoState, SsoRequiredSessions],
  exports: [SsoStore, SsoCodeExchange, OrgSsoState],
})
export class SsoCodesModule {}
