import { ApiClient } from './api.js';
import { TtlCache } from './cache.js';
import { registrationOf, isUserSession } from './document-gaps.js';
import type { Registration, SessionDocument, TokenDocument, UserSession } from './documents.js';
import { invalidResponse, isPlatformApiError } from './errors.js';
import { singlePage, type Paginator } from './paging.js';
import type { RequestBody } from './operations.js';
import { withRetries, type RetryOptions } from './retry.js';
import { Session, type FetchLike } from './session.js';
import { SettingsStore, type SettingsValues } from './settings.js';
import { MemoryTokenStorage, type TokenStorage } from './tokens.js';

export interface ClientOptions {
  /** The gateway, e.g. `https://api.example.com` (paths begin with `/v1/api` or `/api/public`). */
  baseUrl: string;
  /** The application key (docs/api.md § Authentication 1), sent on every request. */
  apiKey: string;
  /** Where tokens live; memory by default ({@link LocalStorageTokenStorage} in browsers). */
  storage?: TokenStorage;
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike;
  /** Retries of 429 / 503 and friends ({@link RetryOptions}); `false` turns them off. */
  retry?: RetryOptions | false;
  /** Called when the session ends (refresh refused, logout, corrupted token). */
  onSessionEnd?: () => void;
  /** Told about a settings PATCH that failed (local state is kept). */
  onSettingsError?: (error: unknown) => void;
}

export interface ReadOptions {
  /** Skip the client-side cache (contract: `forceRefresh` / `cache_bust`). */
  forceRefresh?: boolean;
}

/**
 * The client's wiring and the account journey: `api` (every operation, typed), the session
 * rules, retries, the 5-minute read cache and the settings store; registration, activation,
 * login and logout. {@link WorkspacePlatformClient} adds organizations, projects and wallets.
 */
export class ClientCore {
  /** Every operation of the OpenAPI document, with the client's rules ({@link ApiClient}). */
  readonly api: ApiClient;
  readonly session: Session;
  readonly settings: SettingsStore;
  protected readonly cache = new TtlCache();

  constructor(options: ClientOptions) {
    const baseUrl = options.baseUrl.replace(/\/$/, '');
    const fetchImpl: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
    this.session = new Session({
      baseUrl,
      apiKey: options.apiKey,
      storage: options.storage ?? new MemoryTokenStorage(),
      fetch: fetchImpl,
      onSessionEnd: () => {
        this.cache.clear();
        options.onSessionEnd?.();
      },
    });
    const transport =
      options.retry === false
        ? this.session.fetch
        : withRetries(this.session.fetch, options.retry ?? {});
    this.api = new ApiClient(baseUrl, transport);
    this.settings = new SettingsStore({
      send: async (changes) => {
        await this.api.PATCH('/v1/api/user_settings', { body: changes });
      },
      onError: options.onSettingsError,
    });
  }

  get isSignedIn(): boolean {
    return this.session.tokens !== null;
  }

  /**
   * `POST /users`: `{ status: 200, body: session }` (signed in, tokens kept) or
   * `{ status: 201, body: { user_id, … } }` when activation is required (then {@link activate}).
   * @throws {PlatformApiError} e.g. 409 `USER_EXISTS`, 400 `VALIDATION_FAILED`, 429.
   */
  async register(
    username: string,
    password: string,
    method?: 'email' | 'phone',
  ): Promise<Registration> {
    const answer = await this.api.POST('/v1/api/users', {
      body: { username, password, ...(method ? { method } : {}) },
    });
    const registration = registrationOf(answer);
    if (registration.status === 200) this.keep(registration.body);
    return registration;
  }

  /** `POST /users/{userId}/activate/{email|phone}` with the mailed code: the session (kept). */
  async activate(
    userId: string,
    code: string,
    channel: 'email' | 'phone' = 'email',
  ): Promise<SessionDocument> {
    const path =
      channel === 'email'
        ? ('/v1/api/users/{userId}/activate/email' as const)
        : ('/v1/api/users/{userId}/activate/phone' as const);
    const { body } = await this.api.POST(path, { params: { path: { userId } }, body: { code } });
    return this.keep(body, `POST ${path}`);
  }

  /**
   * `POST /oauth/token` (password grant): the session (kept).
   * @throws {PlatformApiError} 401 `INVALID_CREDENTIALS`, 403 `ACTIVATION_REQUIRED` or
   * `TWO_FACTOR_REQUIRED` (then `POST /oauth/token/mfa` through `api`), 429 `RATE_LIMITED`.
   */
  async login(username: string, password: string): Promise<SessionDocument> {
    const { body } = await this.api.POST('/v1/api/oauth/token', {
      body: { grant_type: 'password', username, password },
    });
    return this.keep(body, 'POST /v1/api/oauth/token');
  }

  /** `POST /oauth/passkey/options`: request options for a usernameless passkey sign-in. */
  async passkeySignInOptions() {
    return (await this.api.POST('/v1/api/oauth/passkey/options')).body;
  }

  /**
   * `POST /oauth/token/passkey` with `navigator.credentials.get()`'s `toJSON()` for the options
   * of {@link passkeySignInOptions}: the session (kept), as a password login
   * (docs/auth.md § Passkeys).
   * @throws {PlatformApiError} 401 `PASSKEY_CHALLENGE_INVALID` or `INVALID_PASSKEY`
   */
  async loginWithPasskey(
    credential: RequestBody<'/v1/api/oauth/token/passkey', 'post'>['credential'],
  ): Promise<SessionDocument> {
    const { body } = await this.api.POST('/v1/api/oauth/token/passkey', { body: { credential } });
    return this.keep(body, 'POST /v1/api/oauth/token/passkey');
  }

  /**
   * `POST /oauth/token` (`authorization_code`): exchanges the one-time code of a sign-in with an
   * OpenID provider (`readSignInResponse` of this package) for the session (kept).
   * @throws {PlatformApiError} 400 `INVALID_GRANT` (unknown, used or expired code, another
   * redirect URI or verifier)
   */
  async exchangeSignInCode(
    code: string,
    request: { redirectUri: string; codeVerifier: string },
  ): Promise<SessionDocument> {
    const { body } = await this.api.POST('/v1/api/oauth/token', {
      body: {
        grant_type: 'authorization_code',
        code,
        redirect_uri: request.redirectUri,
        code_verifier: request.codeVerifier,
      },
    });
    return this.keep(body, 'POST /v1/api/oauth/token');
  }

  /**
   * `GET /oauth/token/revoke` after sending pending settings; 200 or 401 both end the session
   * locally (docs/api.md § Authentication 6).
   */
  async logout(): Promise<void> {
    await this.settings.flush();
    try {
      await this.api.GET('/v1/api/oauth/token/revoke');
    } catch (error) {
      if (!(isPlatformApiError(error) && error.status === 401)) throw error;
    } finally {
      this.session.end();
    }
  }

  /** `GET /users/me/sessions`: the signed-in user's live sessions (one answer, not paged). */
  userSessions(): Paginator<UserSession> {
    return singlePage(async () => (await this.api.GET('/v1/api/users/me/sessions')).body.data);
  }

  /** `GET /user_settings` into {@link settings} (its local state). */
  async loadSettings(): Promise<Readonly<SettingsValues>> {
    const { body } = await this.api.GET('/v1/api/user_settings');
    if (body === undefined) throw invalidResponse('304 without cached settings');
    this.settings.load(body);
    return this.settings.values;
  }

  /** Keeps a user's session; anything else (an agent's token) is not a session to keep. */
  protected keep(document: TokenDocument, operation?: string): SessionDocument {
    if (!isUserSession(document)) {
      throw invalidResponse('the answer is not a user session', { operation });
    }
    const { accessToken, refreshToken } = document.data.attributes;
    this.session.start({ accessToken, refreshToken });
    return document;
  }

  protected async cached<T>(
    key: string,
    ttlMs: number,
    options: ReadOptions,
    load: () => Promise<T>,
  ): Promise<T> {
    if (!options.forceRefresh) {
      const hit = this.cache.get<T>(key);
      if (hit !== undefined) return hit;
    }
    const value = await load();
    this.cache.set(key, value, ttlMs);
    return value;
  }
}
