/** The session's tokens, as the platform's session resource gives them. */
export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** Where the SDK keeps the session's tokens (memory by default; {@link LocalStorageTokenStorage}). */
export interface TokenStorage {
  get(): Tokens | null;
  set(tokens: Tokens): void;
  clear(): void;
}

/** Tokens in memory only: gone with the page or process. The default. */
export class MemoryTokenStorage implements TokenStorage {
  private tokens: Tokens | null = null;

  get(): Tokens | null {
    return this.tokens;
  }

  set(tokens: Tokens): void {
    this.tokens = { ...tokens };
  }

  clear(): void {
    this.tokens = null;
  }
}

/** The part of the Web Storage API the adapter uses (`window.localStorage`). */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Tokens in `localStorage` (browsers), kept across reloads under one key as JSON. */
export class LocalStorageTokenStorage implements TokenStorage {
  constructor(
    private readonly storage: StorageLike = (globalThis as { localStorage?: StorageLike })
      .localStorage as StorageLike,
    private readonly key = 'workspace-platform.session',
  ) {
    if (!storage) throw new Error('LocalStorageTokenStorage: no localStorage here');
  }

  get(): Tokens | null {
    const raw = this.storage.getItem(this.key);
    if (!raw) return null;
    try {
      const parsed = JSON.parse(raw) as Partial<Tokens>;
      return typeof parsed.accessToken === 'string' && typeof parsed.refreshToken === 'string'
        ? { accessToken: parsed.accessToken, refreshToken: parsed.refreshToken }
        : null;
    } catch {
      return null;
    }
  }

  set(tokens: Tokens): void {
    this.storage.setItem(this.key, JSON.stringify(tokens));
  }

  clear(): void {
    this.storage.removeItem(this.key);
  }
}

/** docs/api.md § Authentication 3: a token holds only letters, digits, `.`, `-` and `_`. */
export function isWellFormedToken(token: string): boolean {
  return /^[A-Za-z0-9._-]+$/.test(token);
}
