import { isWellFormedToken, type TokenStorage, type Tokens } from './tokens.js';

/** What the SDK sends requests through: the standard `fetch` over a `Request`. */
export type FetchLike = (input: Request) => Promise<Response>;

/** Paths the contract marks K (Api-Key only): never sent with the Bearer token, never refreshed. */
const KEY_ONLY = [
  /\/oauth\/token$/,
  /\/oauth\/token\/refresh$/,
  /\/users$/,
  /\/users\/[^/]+\/activate\/(email|phone)$/,
  /\/users\/[^/]+\/resend_activation$/,
  /\/users\/validate\/(email|phone)$/,
  /\/users\/password\/(reset_request|reset)$/,
];

export interface SessionOptions {
  baseUrl: string;
  apiKey: string;
  storage: TokenStorage;
  fetch: FetchLike;
  /** Called once when the session ends (refresh refused, logout, corrupted token). */
  onSessionEnd?: () => void;
}

/**
 * The contract's authentication rules for every request (docs/api.md § Authentication 1-6):
 * `Api-Key` always; the Bearer token where needed, and never a corrupted one (a token with
 * characters outside `[A-Za-z0-9._-]` is cleared, not sent); on 401 one refresh per request
 * and one retry, concurrent 401s sharing one refresh; a refresh answered 401 ends the session
 * (tokens cleared, no further retries).
 */
export class Session {
  private refreshing: Promise<boolean> | undefined;

  constructor(private readonly options: SessionOptions) {}

  get tokens(): Tokens | null {
    const tokens = this.options.storage.get();
    if (!tokens) return null;
    if (!isWellFormedToken(tokens.accessToken) || !isWellFormedToken(tokens.refreshToken)) {
      this.end();
      return null;
    }
    return tokens;
  }

  start(tokens: Tokens): void {
    this.options.storage.set(tokens);
  }

  /** Clears the tokens and tells the application, once per session. */
  end(): void {
    const had = this.options.storage.get() !== null;
    this.options.storage.clear();
    if (had) this.options.onSessionEnd?.();
  }

  /** The fetch the typed client uses (openapi-fetch hands it a `Request`). */
  readonly fetch = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const keyOnly = KEY_ONLY.some((p) => p.test(path));
    // Logout's 401 means the session is already over (docs/api.md § Authentication 6): nothing to
    // refresh.
    const refreshable = !keyOnly && !/\/oauth\/token\/revoke$/.test(path);
    const retry = request.clone();
    const first = await this.send(request, keyOnly);
    if (first.status !== 401 || !refreshable || !this.tokens) return first;
    if (!(await this.refresh())) return first;
    return this.send(retry, keyOnly);
  };

  private send(request: Request, keyOnly: boolean): Promise<Response> {
    const headers = new Headers(request.headers);
    headers.set('Api-Key', this.options.apiKey);
    const token = keyOnly ? undefined : this.tokens?.accessToken;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    else headers.delete('Authorization');
    return this.options.fetch(new Request(request, { headers }));
  }

  /**
   * One refresh at a time (single flight): every caller waiting on a 401 shares it. True when
   * new tokens were stored; a 401 from the refresh ends the session.
   */
  refresh(): Promise<boolean> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async doRefresh(): Promise<boolean> {
    const tokens = this.tokens;
    if (!tokens) return false;
    const response = await this.options.fetch(
      new Request(`${this.options.baseUrl}/v1/api/oauth/token/refresh`, {
        method: 'POST',
        headers: { 'Api-Key': this.options.apiKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ refresh_token: tokens.refreshToken }),
      }),
    );
    if (response.status === 401) {
      this.end();
      return false;
    }
    if (!response.ok) return false;
    const body = (await response.json()) as { data?: { attributes?: Partial<Tokens> } };
    const next = body.data?.attributes;
    if (typeof next?.accessToken !== 'string' || typeof next.refreshToken !== 'string')
      return false;
    this.start({ accessToken: next.accessToken, refreshToken: next.refreshToken });
    return true;
  }
}
