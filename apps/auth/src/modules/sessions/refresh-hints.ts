import type { PresentedRefreshToken } from './sessions.repository.js';

/** Entries kept at most (~300 bytes each); the oldest go first. */
const MAX_HINTS = 50_000;

/**
 * What this process knows about refresh tokens it issued itself (opening or rotating a
 * session), by token hash: the family, client application and user profile the next rotation
 * signs into the new access token. With a hint, refresh skips its lookup query and rotates with ONE
 * statement whose conditions re-check everything the hint claims (the token is still current,
 * the family live, the user active with the same profile), so a stale or wrong hint only costs
 * a fallback to the full path — the database stays the only authority. Single use: taking a
 * hint removes it (a token rotates once). Per process and bounded, so replicas simply miss.
 */
export class RefreshHints {
  private readonly hints = new Map<string, PresentedRefreshToken>();

  constructor(private readonly max = MAX_HINTS) {}

  /** Remembers what a freshly issued token (by SHA-256 hex) belongs to. */
  remember(tokenHash: string, hint: PresentedRefreshToken): void {
    if (this.hints.size >= this.max) {
      // Map iterates in insertion order: drop the oldest.
      const oldest = this.hints.keys().next();
      if (!oldest.done) this.hints.delete(oldest.value);
    }
    this.hints.set(tokenHash, hint);
  }

  /** The hint for a presented token, removed; undefined when this process did not issue it. */
  take(tokenHash: string): PresentedRefreshToken | undefined {
    const hint = this.hints.get(tokenHash);
    if (hint) this.hints.delete(tokenHash);
    return hint;
  }

  get size(): number {
    return this.hints.size;
  }
}
