import type { FamilyReplayState } from './sessions.repository.js';

/** What a presented refresh token that did not rotate means ({@link decideReplay}). */
export type ReplayDecision =
  { kind: 'invalid' } | { kind: 'grace'; sealed: string } | { kind: 'reuse' };

/**
 * The replay rule of refresh token rotation (RefreshService; OAuth 2.0 Security BCP § 4.14):
 * - `invalid`: the family is gone, expired or revoked, or the token is still the current one yet
 *   did not rotate (the family ended in between): 401 `REFRESH_TOKEN_INVALID`, nothing changes;
 * - `grace`: the token rotated last (one generation behind), replayed within the grace window
 *   while the sealed answer of that rotation is kept (`sealed`): that answer again, so
 *   concurrent tabs see one rotation;
 * - `reuse`: any older token, or the previous one after the window: the whole family is revoked,
 *   401 `REFRESH_TOKEN_REUSED`.
 * @param presentedGeneration generation of the presented token (0 for a session's first token)
 * @param state the family as committed now; null when it does not exist
 */
export function decideReplay(
  presentedGeneration: number,
  state: FamilyReplayState | null,
): ReplayDecision {
  if (!state?.live) return { kind: 'invalid' };
  if (presentedGeneration === state.generation) return { kind: 'invalid' };
  if (
    presentedGeneration === state.generation - 1 &&
    state.inGrace &&
    state.graceResponse !== null
  ) {
    return { kind: 'grace', sealed: state.graceResponse };
  }
  return { kind: 'reuse' };
}
