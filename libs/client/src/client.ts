import createClient, { type Client } from 'openapi-fetch';
import { READ_CACHE_MS, TtlCache } from './cache.js';
import { invalidResponse, PlatformApiError } from './errors.js';
import type { paths } from './schema.js';
import { Session, type FetchLike } from './session.js';
import { SettingsStore, type SettingsValues } from './settings.js';
import { MemoryTokenStorage, type TokenStorage, type Tokens } from './tokens.js';

type Json<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: { [K in S]: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type SessionDocument = Json<'/v1/api/oauth/token', 'post', 200>;
export type OrganizationDocument = Json<'/v1/api/organizations/{organizationId}', 'get', 200>;
export type ProjectListDocument = Json<
  '/v1/api/organizations/{organizationId}/projects',
  'get',
  200
>;
export type ProjectDocument = Json<
  '/v1/api/organizations/{organizationId}/projects/{projectId}',
  'get',
  200
>;
export type WalletDocument = Json<'/v1/api/wallets/{addressHash}', 'get', 200>;

export interface ClientOptions {
  /** The gateway, e.g. `https://api.example.com` (paths begin with `/v1/api` or `/api/public`). */
  baseUrl: string;
  /** The application key (docs/api.md § Authentication 1), sent on every request. */
  apiKey: string;
  /** Where tokens live; memory by default ({@link LocalStorageTokenStorage} in browsers). */
  storage?: TokenStorage;
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike;
  /** Called when the session ends (refresh refused, logout, corrupted token). */
  onSessionEnd?: () => void;
  /** Told about a settings PATCH that failed (local state is kept). */
  onSettingsError?: (error: unknown) => void;
}

export interface ReadOptions {
  /** Skip the client-side cache (contract: `forceRefresh` / `cache_bust`). */
  forceRefresh?: boolean;
}

type Result<T> = Promise<{ data?: T; error?: unknown; response: Response }>;

/**
 * The workspace platform client. `api` is the typed client of every operation (openapi-fetch
 * over the published OpenAPI document) with the contract's authentication rules applied
 * ({@link Session}); the methods below add the contract's client rules for the user journey:
 * sessions, cached reads (5 minutes; writes invalidate them), the organization id check, the
 * project update id, and settings written locally first. Errors are {@link PlatformApiError}.
 */
export class WorkspacePlatformClient {
  readonly api: Client<paths>;
  readonly session: Session;
  readonly settings: SettingsStore;
  private readonly cache = new TtlCache();

  constructor(private readonly options: ClientOptions) {
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
    this.api = createClient<paths>({ baseUrl, fetch: this.session.fetch });
    this.settings = new SettingsStore({
      send: async (changes) => {
        await this.unwrap(this.api.PATCH('/v1/api/user_settings', { body: changes as never }));
      },
      onError: options.onSettingsError,
    });
  }

  get isSignedIn(): boolean {
    return this.session.tokens !== null;
  }

  /** POST /oauth/token: signs in and keeps the tokens. */
  async login(username: string, password: string): Promise<SessionDocument> {
    const session = await this.unwrap(
      this.api.POST('/v1/api/oauth/token', { body: { username, password } as never }),
    );
    this.keep(session);
    return session;
  }

  /** POST /users: 200 with a session (kept) or 201 when activation is required. */
  async register(username: string, password: string, method?: 'email' | 'phone') {
    const { data, error, response } = await this.api.POST('/v1/api/users', {
      body: { username, password, ...(method ? { method } : {}) } as never,
    });
    if (!response.ok) throw this.error(response, error);
    if (response.status === 200) this.keep(data as SessionDocument);
    return { status: response.status, body: data };
  }

  /** POST /users/{userId}/activate/{email|phone}: the session (kept). */
  async activate(userId: string, code: string, channel: 'email' | 'phone' = 'email') {
    const path =
      channel === 'email'
        ? ('/v1/api/users/{userId}/activate/email' as const)
        : ('/v1/api/users/{userId}/activate/phone' as const);
    const session = await this.unwrap(
      this.api.POST(path, { params: { path: { userId } }, body: { code } }),
    );
    this.keep(session);
    return session;
  }

  /**
   * GET /oauth/token/revoke; 200 or 401 both end the session locally (docs/api.md § Authentication
   * 6).
   */
  async logout(): Promise<void> {
    await this.settings.flush();
    try {
      const { response } = await this.api.GET('/v1/api/oauth/token/revoke');
      if (!response.ok && response.status !== 401) throw this.error(response, undefined);
    } finally {
      this.session.end();
    }
  }

  /** GET /organizations/{id}; cached 5 minutes; an answer for another id is rejected. */
  async getOrganization(id: number, options: ReadOptions = {}): Promise<OrganizationDocument> {
    return this.cached(`/organizations/${id}`, READ_CACHE_MS, options, async () => {
      const document = await this.unwrap(
        this.api.GET('/v1/api/organizations/{organizationId}', {
          params: { path: { organizationId: id } },
        }),
      );
      if (String(document.data.id) !== String(id)) {
        throw invalidResponse(`asked for organization ${id}, got ${document.data.id}`);
      }
      return document;
    });
  }

  /** POST /organizations: the new organization (the organization list is dropped from cache). */
  async createOrganization(name: string) {
    const document = await this.unwrap(
      this.api.POST('/v1/api/organizations', {
        body: { data: { type: 'organization', attributes: { name } } } as never,
      }),
    );
    this.cache.invalidate('/organizations');
    return document;
  }

  /** GET /organizations/{id}/projects; cached 5 minutes. */
  async listProjects(organizationId: number, options: ReadOptions = {}) {
    return this.cached(`/organizations/${organizationId}/projects`, READ_CACHE_MS, options, () =>
      this.unwrap(
        this.api.GET('/v1/api/organizations/{organizationId}/projects', {
          params: { path: { organizationId } },
        }),
      ),
    );
  }

  /** POST /organizations/{id}/projects; invalidates the project list and the organization. */
  async createProject(organizationId: number, name: string) {
    const document = await this.unwrap(
      this.api.POST('/v1/api/organizations/{organizationId}/projects', {
        params: { path: { organizationId } },
        body: { data: { type: 'project', attributes: { name } } } as never,
      }),
    );
    this.cache.invalidate(`/organizations/${organizationId}`);
    return document;
  }

  /** GET a project; `secret: true` adds its key pair (`meta.secrets`) for analytics. */
  async getProject(organizationId: number, projectId: number, secret = false) {
    return this.unwrap(
      this.api.GET('/v1/api/organizations/{organizationId}/projects/{projectId}', {
        params: { path: { organizationId, projectId }, query: secret ? { secret: true } : {} },
      } as never),
    ) as Promise<ProjectDocument>;
  }

  /** PATCH a project: `data.id` is always the path id (docs/api.md § Errors, other rules). */
  async updateProject(organizationId: number, projectId: number, name: string) {
    const document = await this.unwrap(
      this.api.PATCH('/v1/api/organizations/{organizationId}/projects/{projectId}', {
        params: { path: { organizationId, projectId } },
        body: { data: { id: String(projectId), type: 'project', attributes: { name } } } as never,
      }),
    );
    this.cache.invalidate(`/organizations/${organizationId}`);
    return document;
  }

  /** GET /wallets/{address}; cached 5 minutes; `forceRefresh` sends `cache_bust`. */
  async getWallet(address: string, options: ReadOptions = {}): Promise<WalletDocument> {
    return this.cached(`/wallets/${address}`, READ_CACHE_MS, options, () =>
      this.unwrap(
        this.api.GET('/v1/api/wallets/{addressHash}', {
          params: {
            path: { addressHash: address },
            query: options.forceRefresh ? { cache_bust: String(Date.now()) } : {},
          },
        }),
      ),
    );
  }

  /** GET /wallets (not cached: the list is the wallets the caller may see now). */
  async listWallets() {
    return this.unwrap(this.api.GET('/v1/api/wallets'));
  }

  /** POST /wallet_transfers: a transfer request; both wallets' cache entries are dropped. */
  async requestTransfer(transfer: { from_wallet: string; to_wallet: string } & SettingsValues) {
    const document = await this.unwrap(
      this.api.POST('/v1/api/wallet_transfers', { body: { transfer } as never }),
    );
    this.cache.invalidate(`/wallets/${transfer.from_wallet}`);
    this.cache.invalidate(`/wallets/${transfer.to_wallet}`);
    return document;
  }

  /** GET /user_settings into {@link settings} (its local state). */
  async loadSettings(): Promise<Readonly<SettingsValues>> {
    const values = await this.unwrap(this.api.GET('/v1/api/user_settings'));
    this.settings.load(values);
    return this.settings.values;
  }

  private keep(session: SessionDocument): void {
    const attributes = (session as { data?: { attributes?: Partial<Tokens> } }).data?.attributes;
    if (attributes?.accessToken && attributes.refreshToken) {
      this.session.start({
        accessToken: attributes.accessToken,
        refreshToken: attributes.refreshToken,
      });
    }
  }

  private async cached<T>(
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

  private async unwrap<T>(call: Result<T>): Promise<T> {
    const { data, error, response } = await call;
    if (!response.ok) throw this.error(response, error);
    return data as T;
  }

  private error(response: Response, body: unknown): PlatformApiError {
    return PlatformApiError.fromBody(
      response.status,
      body,
      response.headers.get('x-request-id') ?? undefined,
    );
  }
}
