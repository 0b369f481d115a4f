import { createHash } from 'node:crypto';

/**
 * The `sid` of agent tokens: a UUID derived from the pass id and its credential epoch, so that
 * deny-listing it (`RevocationList.revokeSession`) refuses, in every service, every token issued
 * before the key was rotated, the pass revoked or deleted or its permissions narrowed, while tokens of the next epoch work.
 * Auth signs agent tokens with it; org and auth deny-list it when the epoch ends
 * (docs/architecture.md § Withdrawn permissions at once).
 */
export function agentSessionId(passId: string, epoch: number): string {
  const h = createHash('sha256').update(`sentinel-pass:${passId}:${epoch}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * How long org keeps an ended credential epoch's `sid` deny-listed, seconds: not only the access
 * token lifetime (its tokens are dead by then anyway) but as long as auth may take to learn of
 * the change, NATS outages included — auth refuses the pass's key while the `sid` of the epoch it
 * believes current is deny-listed, so a revoked pass cannot get new tokens from an auth that
 * missed the event. An ended epoch never comes back, so the long entry refuses nothing else.
 */
export const ENDED_EPOCH_DENY_SECONDS = 7 * 24 * 3600;

/** The credential state of a Sentinel Pass that decides its credential epoch. */
export interface PassCredentialState {
  active: boolean;
  deleted: boolean;
  /** `hashSentinelKey(key)`; null once deleted. */
  keyHash: string | null;
  /** What its agent tokens carry (`prm`, `scp` claims), as stored on the pass. */
  permissions: readonly string[];
  scopes: readonly string[];
}

/**
 * Whether a change of a pass ends its credential epoch (the tokens issued so far must stop
 * working): an active pass becomes inactive, the pass is deleted, its key changes, or a
 * permission or scope its tokens carry is taken away (a `PUT` that narrows it; the agent
 * exchanges its key again for a token with what is left; widening ends nothing). Nothing ends
 * for a pass that was already deleted. Org (at the command) and auth (on
 * `org.sentinel_pass.changed`) apply this very rule, so both count the same epochs.
 */
export function credentialEpochEnds(before: PassCredentialState, after: PassCredentialState) {
  if (before.deleted) return false;
  const afterActive = after.active && !after.deleted;
  const afterKey = after.deleted ? null : after.keyHash;
  return (
    (before.active && !afterActive) ||
    after.deleted ||
    before.keyHash !== afterKey ||
    narrowed(before.permissions, after.permissions) ||
    narrowed(before.scopes, after.scopes)
  );
}

/** Whether `after` lacks a value of `before`. */
function narrowed(before: readonly string[], after: readonly string[]): boolean {
  const kept = new Set(after);
  return before.some((value) => !kept.has(value));
}
