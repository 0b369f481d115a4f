import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import * as client from 'openid-client';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { guardedProviderFetch } from './provider-fetch.js';
import { ConnectionsService } from './connections.service.js';
import type { OidcConnection } from './oidc-connection.entity.js';

/** How long a provider's discovered metadata (and its JWKS cache) is reused, ms. */
const METADATA_TTL_MS = 10 * 60_000;

interface Cached {
  config: client.Configuration;
  version: number;
  fetchedAt: number;
}

/**
 * openid-client `Configuration`s of the connections (discovery, OpenID Connect Discovery 1.0),
 * cached per connection for ten minutes and dropped when the connection changes. `http:`
 * issuers are accepted only with `OIDC_ALLOW_INSECURE_ISSUERS` (openid-client's
 * `allowInsecureRequests`).
 */
@Injectable()
export class OidcProviders implements OnApplicationShutdown {
  private readonly cache = new Map<string, Cached>();

  /** The fetch of organizations' connections ({@link guardedProviderFetch}). */
  private readonly orgFetch: ReturnType<typeof guardedProviderFetch>;

  constructor(
    private readonly connections: ConnectionsService,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {
    this.orgFetch = guardedProviderFetch(
      config.OIDC_ORG_ALLOWED_PRIVATE_ADDRESSES.split(',')
        .map((a) => a.trim())
        .filter(Boolean),
    );
  }

  /** Ends the kept-alive connections to organizations' providers. */
  async onApplicationShutdown(): Promise<void> {
    await this.orgFetch.close();
  }

  /** @throws openid-client's errors when discovery fails (network, invalid metadata, issuer). */
  async configuration(connection: OidcConnection): Promise<client.Configuration> {
    const version = connection.updatedAt.getTime();
    const hit = this.cache.get(connection.id);
    if (hit && hit.version === version && Date.now() - hit.fetchedAt < METADATA_TTL_MS) {
      return hit.config;
    }
    const insecure = this.config.OIDC_ALLOW_INSECURE_ISSUERS;
    // An organization's own connection reaches public addresses only (its issuer is a tenant's
    // choice); the customFetch given to discovery serves every later request of the config.
    const guarded =
      connection.organizationId === null ? {} : { [client.customFetch]: this.orgFetch };
    const config = await client.discovery(
      new URL(connection.issuer),
      connection.clientId,
      { client_secret: this.connections.clientSecret(connection) },
      client.ClientSecretBasic(this.connections.clientSecret(connection)),
      { execute: insecure ? [client.allowInsecureRequests] : [], timeout: 10, ...guarded },
    );
    // openid-client (as OpenID Connect Core § 3.1.3.7 allows) trusts TLS for an ID token
    // received from the token endpoint and skips its signature; we check it against the
    // provider's JWKS as well: a compromised or misrouted token endpoint cannot forge one.
    client.enableNonRepudiationChecks(config);
    this.cache.set(connection.id, { config, version, fetchedAt: Date.now() });
    return config;
  }

  /** The provider's authorization URL for one pending sign-in (PKCE S256, `nonce`, `state`). */
  authorizationUrl(
    config: client.Configuration,
    connection: OidcConnection,
    request: { state: string; nonce: string; codeChallenge: string },
  ): URL {
    return client.buildAuthorizationUrl(config, {
      redirect_uri: this.config.OIDC_CALLBACK_URL,
      scope: connection.scopes,
      state: request.state,
      nonce: request.nonce,
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
    });
  }

  /**
   * Redeems the provider's code at its token endpoint and validates the ID token (JWS signature
   * by the provider's JWKS — `enableNonRepudiationChecks` —, `iss`, `aud`, `azp`, `exp`, `iat`, `nonce`; OpenID Connect Core
   * § 3.1.3.7), all by openid-client.
   * @param callbackQuery the callback's query string as received (`?code=…&state=…`)
   * @returns the validated ID token claims
   * @throws openid-client's errors on any failed check
   */
  async redeem(
    config: client.Configuration,
    callbackQuery: string,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<client.IDToken> {
    const current = new URL(this.config.OIDC_CALLBACK_URL);
    current.search = callbackQuery;
    const tokens = await client.authorizationCodeGrant(config, current, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    return claims;
  }
}

export { client as openidClient };
