import { Module } from '@nestjs/common';
import { AesGcmEnvelope } from '@wp/security';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { UsersRepositoryModule } from '../accounts/users-repository.module.js';
import { RateLimitsModule } from '../rate-limits/rate-limits.module.js';
import { ApplicationsRedirects } from './applications-redirects.js';
import { ConnectionsController } from './connections.controller.js';
import { ConnectionsRepository } from './connections.repository.js';
import { ConnectionsService } from './connections.service.js';
import { IdentitiesController } from './identities.controller.js';
import { IdentitiesService } from './identities.service.js';
import { OidcProviders } from './oidc-providers.js';
import { OrgConnectionsService } from './org-connections.service.js';
import { OrgSsoController } from './org-sso.controller.js';
import { SsoAccounts } from './sso-accounts.js';
import { SsoCodesModule } from './sso-codes.module.js';
import { SsoController } from './sso.controller.js';
import { SsoFlow } from './sso-flow.service.js';
import { SsoHousekeeping } from './sso-housekeeping.js';

/**
 * Sign-in with an OpenID provider (docs/auth.md § Sign-in with an OpenID provider): operators'
 * connections and redirect URIs, the browser flow, users' linked identities, and organizations'
 * own connections and home-realm discovery (§ Organization single sign-on). The code
 * exchange itself is `POST /oauth/token` (sessions, through {@link SsoCodesModule}).
 */
@Module({
  imports: [UsersRepositoryModule, SsoCodesModule, RateLimitsModule],
  controllers: [SsoController, ConnectionsController, IdentitiesController, OrgSsoController],
  providers: [
    ApplicationsRedirects,
    ConnectionsRepository,
    ConnectionsService,
    IdentitiesService,
    OidcProviders,
    OrgConnectionsService,
    SsoAccounts,
    SsoFlow,
    SsoHousekeeping,
    {
      provide: AesGcmEnvelope,
      inject: [AUTH_CONFIG],
      useFactory: (config: AuthConfig) => AesGcmEnvelope.fromConfig(config.SECRETS_ENCRYPTION_KEY),
    },
  ],
})
export class FederationModule {}
