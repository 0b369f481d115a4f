import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RequestMeta } from '@wp/http';
import { Outbox } from '@wp/messaging';
import { TxHost } from '@wp/persistence';
import { AUTH_CONFIG, type AuthConfig } from '../../config/auth.config.js';
import { AuthAudit } from '../audit/auth-audit.js';
import { ApplicationsRedirects } from './applications-redirects.js';
import { ConnectionsRepository } from './connections.repository.js';
import { SsoRedirectError, SsoStateInvalidError } from './federation.errors.js';
import { openidClient, OidcProviders } from './oidc-providers.js';
import { OrgSsoState, refusesSignIn } from './org-sso-state.js';
import { SsoAccounts, type ProviderClaims } from './sso-accounts.js';
import { newSecret, sha256, SsoStore } from './sso-store.js';

/** The query of `GET /oauth/authorize`, validated by {@link SsoFlow.authorize}. */
export interface AuthorizeQuery {
  connection?: string;
  client_id?: string;
  redirect_uri?: string;
  state?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  response_type?: string;
}

const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const CLIENT_STATE = /^[\x20-\x7E]{1,500}$/;

/** `redirect_uri` with RFC 6749 § 4.1.2 / § 4.1.2.1 parameters added. */
export function withParams(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * The browser half of sign-in with an OpenID provider (docs/auth.md § Sign-in with an OpenID
 * provider): `/oauth/authorize` checks the client and its redirect URI, stores the platform's
 * state, nonce and PKCE verifier and sends the browser to the provider; `/oauth/callback`
 * validates the provider's answer with openid-client, finds or creates the account and sends
 * the browser back to the client with a one-time code. Once the client and its redirect URI
 * are known, every refusal goes back there as RFC 6749 § 4.1.2.1 parameters (`error`,
 * `error_description`, the platform's `error_code`, the client's `state`).
 */
@Injectable()
export class SsoFlow {
  private readonly logger = new Logger('Sso');

  constructor(
    private readonly txHost: TxHost,
    private readonly redirects: ApplicationsRedirects,
    private readonly connections: ConnectionsRepository,
    private readonly providers: OidcProviders,
    private readonly store: SsoStore,
    private readonly accounts: SsoAccounts,
    private readonly audit: AuthAudit,
    private readonly ssoState: OrgSsoState,
    private readonly outbox: Outbox,
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
  ) {}

  /**
   * @returns where to send the browser: the provider, or the client's redirect_uri with an error
   * @throws UnknownClientError / RedirectUriNotAllowedError 400 (no redirect)
   */
  async authorize(query: AuthorizeQuery): Promise<string> {
    const redirectUri = await this.redirects.check(query.client_id, query.redirect_uri);
    const appId = query.client_id!;
    const clientState = query.state;
    const fail = (e: SsoRedirectError) =>
      withParams(redirectUri, {
        error: e.error,
        error_code: e.code,
        error_description: e.description,
        ...(clientState && CLIENT_STATE.test(clientState) ? { state: clientState } : {}),
      });
    try {
      if (!clientState || !CLIENT_STATE.test(clientState)) {
        throw invalid('state is required (1-500 printable ASCII characters).');
      }
      if (query.response_type !== undefined && query.response_type !== 'code') {
        throw invalid('response_type must be code.');
      }
      if (query.code_challenge_method !== 'S256' || !CHALLENGE.test(query.code_challenge ?? '')) {
        throw invalid('PKCE is required: code_challenge (S256, 43 characters) and method S256.');
      }
      const connection = query.connection
        ? await this.connections.findBySlug(query.connection)
        : null;
      if (!connection) throw invalid('connection names no configured connection.');
      if (!connection.enabled) {
        throw new SsoRedirectError(
          'access_denied',
          'CONNECTION_DISABLED',
          'This connection is disabled.',
        );
      }
      const config = await this.providers.configuration(connection).catch((e: unknown) => {
        this.logger.warn(`discovery of ${connection.issuer} failed: ${(e as Error).message}`);
        throw new SsoRedirectError(
          'temporarily_unavailable',
          'PROVIDER_UNAVAILABLE',
          'The provider could not be reached.',
        );
      });
      const state = openidClient.randomState();
      const nonce = openidClient.randomNonce();
      const codeVerifier = openidClient.randomPKCECodeVerifier();
      await this.store.saveRequest({
        stateHash: sha256(state),
        connectionId: connection.id,
        appId,
        redirectUri,
        clientState,
        codeChallenge: query.code_challenge!,
        nonce,
        codeVerifier,
        expiresAt: new Date(Date.now() + this.config.OIDC_REQUEST_TTL_SECONDS * 1000),
      });
      const codeChallenge = await openidClient.calculatePKCECodeChallenge(codeVerifier);
      return this.providers.authorizationUrl(config, connection, { state, nonce, codeChallenge })
        .href;
    } catch (e) {
      if (e instanceof SsoRedirectError) return fail(e);
      throw e;
    }
  }

  /**
   * @param rawQuery the callback's query string (`?code=…&state=…` or `?error=…&state=…`)
   * @returns the client's redirect_uri with `code` + `state`, or with an error
   * @throws SsoStateInvalidError 400 when the state is unknown, used or expired
   */
  async callback(
    query: Record<string, string | undefined>,
    rawQuery: string,
    meta: RequestMeta,
  ): Promise<string> {
    const request = query.state ? await this.store.takeRequest(query.state) : null;
    if (!request) throw new SsoStateInvalidError();
    const back = (params: Record<string, string>) =>
      withParams(request.redirectUri, { ...params, state: request.clientState });
    try {
      if (query.error) {
        throw new SsoRedirectError(
          'access_denied',
          'PROVIDER_DENIED',
          `The provider refused: ${query.error.slice(0, 100)}.`,
        );
      }
      const connection = await this.connections.findById(request.connectionId);
      if (!connection?.enabled) {
        throw new SsoRedirectError(
          'access_denied',
          'CONNECTION_DISABLED',
          'This connection is disabled.',
        );
      }
      const config = await this.providers.configuration(connection);
      const idToken = await this.providers
        .redeem(config, rawQuery, {
          state: query.state!,
          nonce: request.nonce,
          codeVerifier: request.codeVerifier,
        })
        .catch((e: unknown) => {
          this.logger.warn(`ID token of ${connection.slug} refused: ${(e as Error).message}`);
          throw new SsoRedirectError(
            'access_denied',
            'ID_TOKEN_INVALID',
            'The provider answer could not be validated.',
          );
        });
      const claims: ProviderClaims = {
        issuer: idToken.iss,
        subject: idToken.sub,
        email: stringClaim(idToken[connection.emailClaim]),
        emailVerified: idToken[connection.emailVerifiedClaim] === true,
        name: stringClaim(idToken[connection.nameClaim]),
      };
      const organizationId = connection.organizationId ?? undefined;
      if (organizationId !== undefined) {
        await this.requireOrganizationDomain(organizationId, claims);
      } else {
        await this.refuseSsoRequired(claims.email, undefined);
      }
      const code = newSecret('oac_');
      await this.txHost.withTransaction(async () => {
        const { user, linked } = await this.accounts.resolve(connection, claims);
        // A known identity may carry another e-mail than its account's address: the account's
        // own address decides too (the throw rolls a linked or created account back).
        await this.refuseSsoRequired(user.email, organizationId);
        if (organizationId !== undefined) {
          // Just-in-time membership: org adds the person with the default role if need be.
          await this.outbox.enqueue('auth.sso.signed_in', {
            organizationId,
            userId: user.id,
            connection: connection.slug,
            account: linked,
          });
        }
        await this.store.saveCode({
          codeHash: sha256(code),
          userId: user.id,
          appId: request.appId,
          redirectUri: request.redirectUri,
          codeChallenge: request.codeChallenge,
          expiresAt: new Date(Date.now() + this.config.OIDC_CODE_TTL_SECONDS * 1000),
          connectionId: connection.id,
        });
        await this.audit.record({
          action: 'user.signed_in',
          user,
          meta,
          details: { method: 'oidc', connection: connection.slug, account: linked },
          organizationId,
        });
        if (linked !== 'existing') {
          await this.audit.record({
            action: 'user.identity_linked',
            user,
            meta,
            target: {
              type: 'identity',
              id: `${claims.issuer}#${claims.subject}`.slice(0, 200),
              label: connection.slug,
            },
            details: { connection: connection.slug, account: linked },
            organizationId,
          });
        }
      });
      return back({ code });
    } catch (e) {
      if (!(e instanceof SsoRedirectError)) throw e;
      return back({ error: e.error, error_code: e.code, error_description: e.description });
    }
  }

  /**
   * No connection but the organization's own signs in an address at a verified domain of an
   * organization that requires SSO: its provider is the only way in (docs/auth.md
   * § Organization single sign-on).
   * @param organizationId the connection's organization; undefined for a platform-wide one
   * @throws SsoRedirectError `access_denied` / `SSO_REQUIRED`
   */
  private async refuseSsoRequired(
    email: string | null | undefined,
    organizationId: number | undefined,
  ): Promise<void> {
    const realm = await this.ssoState.realmOf(email);
    if (!refusesSignIn(realm, organizationId)) return;
    throw new SsoRedirectError(
      'access_denied',
      'SSO_REQUIRED',
      realm.connection
        ? `Accounts at ${realm.domain} sign in through their organization's provider (connection ${realm.connection}).`
        : `Accounts at ${realm.domain} sign in through their organization's provider, which is not available now.`,
    );
  }

  /**
   * An organization's own connection signs in only addresses at that organization's verified
   * domains (docs/auth.md § Organization single sign-on): its provider is the organization's,
   * and must not vouch for addresses elsewhere.
   * @throws SsoRedirectError `DOMAIN_NOT_VERIFIED` otherwise
   */
  private async requireOrganizationDomain(
    organizationId: number,
    claims: ProviderClaims,
  ): Promise<void> {
    const realm = await this.ssoState.realmOf(claims.email);
    if (realm?.organizationId !== organizationId) {
      throw new SsoRedirectError(
        'access_denied',
        'DOMAIN_NOT_VERIFIED',
        "The e-mail address is not at a verified domain of this connection's organization.",
      );
    }
  }
}

function invalid(description: string): SsoRedirectError {
  return new SsoRedirectError('invalid_request', 'INVALID_REQUEST', description);
}

function stringClaim(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= 320 ? value : null;
}
