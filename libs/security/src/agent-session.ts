import { createHash } from 'node:crypto';

/**
 * The `sid` of agent tokens: a UUID derived from the pass id and its credential epoch, so that
 * deny-listing it (`RevocationList.revokeSession`) refuses, in every service, every token issued
 * before the key was rotated or the pass revoked or deleted, while tokens of the next epoch work.
 * Auth signs agent tokens with it; org and auth deny-list it when the epoch ends
 * (docs/architecture.md § Withdrawn permissions at once).
 */
export function agentSessionId(passId: string, epoch: number): string {
  const h = createHash('sha256').update(`sentinel-pass:${passId}:${epoch}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The credential state of a Sentinel Pass that decides its credential epoch. */
export interface PassCredentialState {
  active: boolean;
  deleted: boolean;
  /** `hashSentinelKey(key)`; null once deleted. */
  keyHash: string | null;
}

/**
 * Whether a change of a pass ends its credential epoch (the tokens issued so far must stop
 * working): an active pass becomes inactive, the pass is deleted, or its key changes. Nothing
 * ends for a pass that was already deleted. Org (at the command) and auth (on
 * `org.sentinel_pass.changed`) apply this very rule, so both count the same epochs.
 */
export function credentialEpochEnds(before: PassCredentialState, after: PassCredentialState) {
  if (before.deleted) return false;
  const afterActive = after.active && !after.deleted;
  const afterKey = after.deleted ? null : after.keyHash;
  return (before.active && !afterActive) || after.deleted || before.keyHash !== afterKey;
}
